# Oracle for TestHKSMatchesPython: reads a JSON list of graphs
# {"n": N, "edges": [[u, v], ...], "t": T} on stdin and writes, per graph,
# the diagonal of scipy's expm(-T L) for the normalised Laplacian L built
# the networkx way (isolated vertices get all-zero rows).
import json
import sys

import numpy as np
from scipy.linalg import expm

out = []
for g in json.load(sys.stdin):
    n = g["n"]
    A = np.zeros((n, n))
    for u, v in g["edges"]:
        A[u, v] = A[v, u] = 1
    deg = A.sum(axis=1)
    with np.errstate(divide="ignore"):
        dh = 1 / np.sqrt(deg)
    dh[np.isinf(dh)] = 0
    L = np.diag(dh) @ (np.diag(deg) - A) @ np.diag(dh)
    out.append(np.diag(expm(-g["t"] * L)).tolist())
json.dump(out, sys.stdout)
