# Oracle for TestRicciMatchesPOT: reads a JSON list of transport problems
# {"a": [...], "b": [...], "M": [[...], ...]} on stdin and writes the list of
# exact optimal costs ot.emd2(a, b, M) on stdout.
import json
import sys

import numpy as np
import ot

out = []
for p in json.load(sys.stdin):
    a = np.array(p["a"], dtype=np.float64)
    b = np.array(p["b"], dtype=np.float64)
    M = np.array(p["M"], dtype=np.float64)
    out.append(float(ot.emd2(a, b, M, numItermax=10**7)))
json.dump(out, sys.stdout)
