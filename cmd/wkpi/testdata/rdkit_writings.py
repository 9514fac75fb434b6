# Oracle for TestExplainWritings (explain_test.go): other writings of the
# same molecules. Reads on stdin a JSON object {"smiles": [...],
# "writings": k, "seed": s} and writes a JSON list with, per SMILES, null
# where MolFromSmiles refuses it, else k objects {"smiles": ...,
# "atoms": [...]}: the molecule renumbered at random and written from its
# new first atom (every other writing in Kekule form), and for each atom
# of the new SMILES, in the order written, its index in the given one.
import json
import random
import sys

from rdkit import Chem, RDLogger

RDLogger.DisableLog("rdApp.*")

req = json.load(sys.stdin)
rng = random.Random(req["seed"])
out = []
for s in req["smiles"]:
    m = Chem.MolFromSmiles(s)
    if m is None:
        out.append(None)
        continue
    writings = []
    for k in range(req["writings"]):
        perm = list(range(m.GetNumAtoms()))
        rng.shuffle(perm)  # new atom i is old atom perm[i]
        r = Chem.RenumberAtoms(m, perm)
        kekule = k % 2 == 1
        if kekule:
            Chem.Kekulize(r, clearAromaticFlags=True)
        w = Chem.MolToSmiles(r, canonical=False, kekuleSmiles=kekule)
        order = list(r.GetPropsAsDict(True, True)["_smilesAtomOutputOrder"])
        writings.append({"smiles": w, "atoms": [perm[i] for i in order]})
    out.append(writings)
json.dump(out, sys.stdout)
