"""The chemist's explanation of a fingerprint model, for the rule tasks (rules_test.go).

RDKit's similarity maps (Riniker and Landrum, J. Cheminform. 5:43, 2013) on the
fingerprint baseline of docs/results.md: ECFP4 counts (Morgan, radius 2), their
Tanimoto (MinMax) kernel in scikit-learn's SVC, C chosen from 0.1, 1, 10, 100 by
3-fold stratified CV on the training molecules (accuracy; the smaller C on a
tie). An atom's weight is the decision value less the decision value of the
fingerprint without the environments that contain the atom
(SimilarityMaps.GetAtomicWeightsForModel with SimilarityMaps.GetMorganFingerprint,
fpType "count"), so positive weights push towards class 1.

Reads on stdin a JSON object {"train": [SMILES, ...], "labels": ["0" or "1", ...],
"explain": [SMILES, ...]} and writes {"C": the chosen C, "weights": [[one per
atom, RDKit's atom order], one list per molecule to explain]}.

Debian: apt-get install python3-rdkit python3-sklearn; run with /usr/bin/python3.
"""
import json
import sys

import numpy as np
from rdkit import Chem, DataStructs, RDLogger
from rdkit.Chem import AllChem
from rdkit.Chem.Draw import SimilarityMaps
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import SVC

RDLogger.DisableLog("rdApp.*")


def main():
    req = json.load(sys.stdin)
    fps = [AllChem.GetMorganFingerprint(Chem.MolFromSmiles(s), 2) for s in req["train"]]
    y = np.array([int(c) for c in req["labels"]])
    gram = np.array([DataStructs.BulkTanimotoSimilarity(f, fps) for f in fps])
    best, chosen = -1.0, None
    for c in (0.1, 1, 10, 100):
        folds = StratifiedKFold(3, shuffle=True, random_state=1).split(gram, y)
        acc = np.mean([
            (SVC(kernel="precomputed", C=c).fit(gram[np.ix_(a, a)], y[a])
             .predict(gram[np.ix_(b, a)]) == y[b]).mean()
            for a, b in folds])
        if acc > best:
            best, chosen = acc, c
    svc = SVC(kernel="precomputed", C=chosen).fit(gram, y)
    support = [fps[i] for i in svc.support_]

    def decision(fp):
        k = np.array(DataStructs.BulkTanimotoSimilarity(fp, support))
        return float(k @ svc.dual_coef_[0] + svc.intercept_[0])

    weights = []
    for s in req["explain"]:
        mol = Chem.MolFromSmiles(s)
        w = SimilarityMaps.GetAtomicWeightsForModel(
            mol, lambda m, a: SimilarityMaps.GetMorganFingerprint(m, a, radius=2, fpType="count"), decision)
        weights.append([float(x) for x in w])
    json.dump({"C": chosen, "weights": weights}, sys.stdout)


if __name__ == "__main__":
    main()
