# Oracle for package pdkernel: reads {"rows": [...], "cols": [...] or null,
# "directions": M, "rho": r, "c": C, "p": P, "bandwidth": h} on stdin,
# diagrams as lists of [birth, death], and prints the matrices of GUDHI's
# gudhi.representations (all pairs of rows when cols is null, else rows x
# cols) as JSON.
import json
import sys

import numpy as np
from gudhi.representations import (PersistenceFisherDistance,
                                   PersistenceWeightedGaussianKernel,
                                   SlicedWassersteinDistance,
                                   SlicedWassersteinKernel)

q = json.load(sys.stdin)
rows = [np.array(d, dtype=float).reshape(-1, 2) for d in q["rows"]]
cols = rows if q["cols"] is None else [np.array(d, dtype=float).reshape(-1, 2) for d in q["cols"]]
C, P = q["c"], q["p"]


def matrix(est):
    # fit on the columns, transform the rows: rows x cols.
    return est.fit(cols).transform(rows).tolist()


out = {
    "sw": matrix(SlicedWassersteinDistance(num_directions=q["directions"])),
    "swKernel": matrix(SlicedWassersteinKernel(num_directions=q["directions"], bandwidth=q["swBandwidth"])),
    "pwgk": matrix(PersistenceWeightedGaussianKernel(
        bandwidth=q["rho"], weight=lambda x: np.arctan(C * abs(x[1] - x[0]) ** P))),
    "pf": matrix(PersistenceFisherDistance(bandwidth=q["bandwidth"])),
}
json.dump(out, sys.stdout)
