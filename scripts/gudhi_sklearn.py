#!/usr/bin/python3
"""A standard GUDHI + scikit-learn pipeline on a TU graph dataset, to time
and score `wkpi eval` against (docs/benchmarks.md, "Against GUDHI and
scikit-learn").

    /usr/bin/python3 scripts/gudhi_sklearn.py data/MUTAG --folds folds.csv

Debian packages: python3-gudhi, python3-sklearn, python3-numpy.

The pipeline, per graph:

1. Two node descriptors, each mapped onto [0, 1] by an affine map fitted
   over the whole dataset (as wkpi maps its descriptors): degree, and the
   heat kernel signature at t = 10 of the normalised Laplacian (numpy's
   eigh), two of the three descriptors of wkpi's defaults (its third,
   Ollivier-Ricci curvature, needs an optimal transport solver).
2. For each descriptor, the lower-star filtration of the graph in a
   gudhi.SimplexTree (a vertex at its value, an edge at the larger of its
   ends) and its extended persistence (extend_filtration,
   extended_persistence), split by dimension into two diagrams: 0-dim
   (ordinary and extended) and 1-dim (relative and extended), as wkpi's
   default channels. A point (b, d) is placed at birth b, persistence
   |d - b|, as wkpi places it; zero-persistence points are dropped.
3. gudhi.representations.PersistenceImage of every diagram on [0, 1]^2,
   20 x 20 pixels, Gaussian bandwidth one pixel, constant weight; the
   four images are concatenated (1,600 features).

Then scikit-learn's SVC with the RBF kernel, its C in {1, 10, 100, 1000}
chosen in every outer fold by a 3-fold stratified GridSearchCV on that
fold's training graphs (gamma "scale"; n_jobs=2, the machine's two cores),
and tested on the fold. The outer folds are wkpi's: --folds takes the CSV
that `wkpi eval -predictions FILE.csv` writes (its fold column, first
repeat); without it, scikit-learn's StratifiedKFold(10, shuffle, seed 1).

Output: the accuracy of every fold, their mean and population std (as
wkpi reports them), and a last line of JSON; stage times on stderr.
"""

import argparse
import csv
import json
import os
import sys
import time

import numpy as np
import gudhi
from gudhi.representations import PersistenceImage
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.svm import SVC


def read_tu(path):
    """Graphs of a TU folder: (nodes, edges) per graph, and graph labels."""
    name = os.path.basename(os.path.normpath(path))

    def lines(suffix):
        with open(os.path.join(path, f"{name}_{suffix}.txt")) as f:
            return [line.strip() for line in f if line.strip()]

    indicator = np.array([int(x) for x in lines("graph_indicator")]) - 1
    labels = [x for x in lines("graph_labels")]
    n = len(labels)
    start = np.zeros(n + 1, dtype=int)
    for g in indicator:
        start[g + 1] += 1
    start = np.cumsum(start)
    edges = [set() for _ in range(n)]
    for line in lines("A"):
        u, v = (int(x) - 1 for x in line.split(","))
        g = indicator[u]
        a, b = u - start[g], v - start[g]
        if a != b:
            edges[g].add((min(a, b), max(a, b)))
    graphs = [(int(start[g + 1] - start[g]), sorted(edges[g])) for g in range(n)]
    return name, graphs, labels


def degree(n, edges):
    d = np.zeros(n)
    for u, v in edges:
        d[u] += 1
        d[v] += 1
    return d


def hks(n, edges, t=10.0):
    """Heat kernel signature at time t of the normalised Laplacian."""
    a = np.zeros((n, n))
    for u, v in edges:
        a[u, v] = a[v, u] = 1
    d = a.sum(axis=1)
    inv = np.where(d > 0, 1 / np.sqrt(np.maximum(d, 1e-300)), 0)
    lap = np.eye(n) - inv[:, None] * a * inv[None, :]
    lam, phi = np.linalg.eigh(lap)
    return (phi**2) @ np.exp(-t * lam)


def diagrams(n, edges, f):
    """0-dim and 1-dim extended persistence of the lower-star filtration
    of f, as (birth, birth + persistence) points."""
    st = gudhi.SimplexTree()
    for v in range(n):
        st.insert([v], filtration=float(f[v]))
    for u, v in edges:
        st.insert([u, v], filtration=float(max(f[u], f[v])))
    st.extend_filtration()
    out = ([], [])
    for part in st.extended_persistence():
        for dim, (b, d) in part:
            p = abs(d - b)
            if p > 0 and dim <= 1:
                out[dim].append((b, b + p))
    return [np.array(x).reshape(-1, 2) for x in out]


def unit(values):
    """Affine map of every graph's values onto [0, 1], fitted over all."""
    lo = min(v.min() for v in values if len(v))
    hi = max(v.max() for v in values if len(v))
    scale = hi - lo if hi > lo else 1.0
    return [(v - lo) / scale for v in values]


def features(graphs):
    descriptors = [unit([degree(n, e) for n, e in graphs]), unit([hks(n, e) for n, e in graphs])]
    image = PersistenceImage(bandwidth=1 / 20, weight=lambda x: 1, resolution=[20, 20], im_range=[0, 1, 0, 1])
    blocks = []
    for values in descriptors:
        dgms = [diagrams(n, e, f) for (n, e), f in zip(graphs, values)]
        for dim in (0, 1):
            blocks.append(image.fit_transform([d[dim] for d in dgms]))
    return np.hstack(blocks)


def folds_from(path, n):
    """The fold of every graph from wkpi eval -predictions FILE.csv."""
    fold = np.full(n, -1)
    with open(path) as f:
        for row in csv.DictReader(f):
            if row.get("repeat", "0") != "0":
                continue
            fold[int(row["index"])] = int(row["fold"])
    if (fold < 0).any():
        sys.exit(f"{path}: no fold for {int((fold < 0).sum())} of {n} graphs")
    return fold


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", help="a TU dataset folder, e.g. data/MUTAG")
    ap.add_argument("--folds", help="the CSV of `wkpi eval -predictions` (its fold column)")
    args = ap.parse_args()

    t0 = time.perf_counter()
    name, graphs, labels = read_tu(args.data)
    classes = sorted(set(labels))
    y = np.array([classes.index(c) for c in labels])
    X = features(graphs)
    t1 = time.perf_counter()
    print(f"{name}: {len(graphs)} graphs, {X.shape[1]} features in {t1 - t0:.1f} s", file=sys.stderr)

    if args.folds:
        fold = folds_from(args.folds, len(y))
    else:
        fold = np.zeros(len(y), dtype=int)
        for f, (_, test) in enumerate(StratifiedKFold(10, shuffle=True, random_state=1).split(X, y)):
            fold[test] = f
    accs, chosen = [], []
    for f in range(fold.max() + 1):
        train, test = fold != f, fold == f
        inner = StratifiedKFold(3, shuffle=True, random_state=f + 1)
        grid = GridSearchCV(SVC(kernel="rbf", gamma="scale"), {"C": [1, 10, 100, 1000]}, cv=inner, n_jobs=2)
        grid.fit(X[train], y[train])
        accs.append(float((grid.predict(X[test]) == y[test]).mean()))
        chosen.append(grid.best_params_["C"])
    t2 = time.perf_counter()
    print(f"{name}: SVMs in {t2 - t1:.1f} s", file=sys.stderr)

    mean, std = float(np.mean(accs)), float(np.std(accs))
    for f, (a, c) in enumerate(zip(accs, chosen)):
        print(f"fold {f}: accuracy {a:.3f} (C {c})")
    print(f"{name} (GUDHI + scikit-learn): accuracy {100 * mean:.1f} ± {100 * std:.1f} %")
    sizes = [int((fold == f).sum()) for f in range(fold.max() + 1)]
    print(json.dumps({"dataset": name, "accuracy_mean": mean, "accuracy_std": std, "folds": accs, "fold_sizes": sizes,
                      "C": chosen, "seconds_features": t1 - t0, "seconds_svm": t2 - t1}))


if __name__ == "__main__":
    main()
