# Oracle for the Morgan fingerprint tests (morgan_test.go). Reads on stdin
# a JSON object {"smiles": [...], "radius": r} and writes a JSON object:
#
#   molecules  one entry per SMILES: null where MolFromSmiles refuses it,
#              else RDKit's environments as [[id, [[atom, radius], ...]],
#              ...] from AllChem.GetMorganFingerprint(mol, r, bitInfo=...)
#   mismatch   SMILES whose counts from rdFingerprintGenerator's
#              GetMorganGenerator(radius=r).GetSparseCountFingerprint
#              differ from GetMorganFingerprint's (none expected)
#   weights    RDKit's atomic weights of elements 0..118
import json
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem import AllChem, rdFingerprintGenerator

RDLogger.DisableLog("rdApp.*")

req = json.load(sys.stdin)
r = req["radius"]
gen = rdFingerprintGenerator.GetMorganGenerator(radius=r)
out, mismatch = [], []
for s in req["smiles"]:
    m = Chem.MolFromSmiles(s)
    if m is None:
        out.append(None)
        continue
    info = {}
    fp = AllChem.GetMorganFingerprint(m, r, bitInfo=info)
    if gen.GetSparseCountFingerprint(m).GetNonzeroElements() != fp.GetNonzeroElements():
        mismatch.append(s)
    out.append([[k, [list(e) for e in v]] for k, v in sorted(info.items())])
pt = Chem.GetPeriodicTable()
json.dump({"molecules": out, "mismatch": mismatch,
           "weights": [pt.GetAtomicWeight(z) for z in range(0, 119)]}, sys.stdout)
