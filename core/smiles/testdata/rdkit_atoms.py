# Oracle for the atom chemistry of Parse (chemistry_test.go). Reads on
# stdin a JSON object {"smiles": [...]} and writes a JSON object:
#
#   molecules  one entry per SMILES: null where MolFromSmiles refuses it,
#              else a list of atoms in RDKit's order, each
#              [formal charge, isotope, aromatic (0/1), GetTotalNumHs()]
#   valences   RDKit's allowed valences of elements 1..118
#   outer      RDKit's outer-shell electron counts of elements 0..118
import json
import sys

from rdkit import Chem, RDLogger

RDLogger.DisableLog("rdApp.*")

req = json.load(sys.stdin)
out = []
for s in req["smiles"]:
    m = Chem.MolFromSmiles(s)
    if m is None:
        out.append(None)
        continue
    out.append([[a.GetFormalCharge(), a.GetIsotope(), int(a.GetIsAromatic()), a.GetTotalNumHs()]
                for a in m.GetAtoms()])
pt = Chem.GetPeriodicTable()
json.dump({
    "molecules": out,
    "valences": [list(pt.GetValenceList(z)) for z in range(1, 119)],
    "outer": [pt.GetNOuterElecs(z) for z in range(0, 119)],
}, sys.stdout)
