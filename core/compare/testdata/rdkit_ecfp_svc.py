# Oracle for the ecfp method (ecfp_test.go). Reads on stdin a JSON object
# {"smiles": [...], "labels": [0/1...], "fold": [outer fold of each
# molecule], "C": [C of each fold]} and writes {"roc_auc": [...],
# "accuracy": [...]}, one per fold: RDKit's Morgan count fingerprints
# (AllChem.GetMorganFingerprint(mol, 2)), their Tanimoto Gram matrix
# (DataStructs.BulkTanimotoSimilarity), scikit-learn's
# SVC(kernel="precomputed", C) trained on the other folds, and the fold's
# ROC-AUC of its decision_function.
import json
import sys

import numpy as np
from rdkit import Chem, DataStructs, RDLogger
from rdkit.Chem import AllChem
from sklearn.metrics import accuracy_score, roc_auc_score
from sklearn.svm import SVC

RDLogger.DisableLog("rdApp.*")

req = json.load(sys.stdin)
fps = [AllChem.GetMorganFingerprint(Chem.MolFromSmiles(s), 2) for s in req["smiles"]]
n = len(fps)
K = np.array([DataStructs.BulkTanimotoSimilarity(fps[i], fps) for i in range(n)])
y = np.array(req["labels"])
fold = np.array(req["fold"])
aucs, accs = [], []
for f, c in enumerate(req["C"]):
    test, train = np.where(fold == f)[0], np.where(fold != f)[0]
    svc = SVC(kernel="precomputed", C=c).fit(K[np.ix_(train, train)], y[train])
    aucs.append(roc_auc_score(y[test], svc.decision_function(K[np.ix_(test, train)])))
    accs.append(accuracy_score(y[test], svc.predict(K[np.ix_(test, train)])))
json.dump({"roc_auc": aucs, "accuracy": accs}, sys.stdout)
