# Oracle for the atom chemistry of Parse (chemistry_test.go). Reads on
# stdin a JSON object {"smiles": [...]} and writes a JSON object:
#
#   molecules  one entry per SMILES: null where MolFromSmiles refuses it,
#              else a list of atoms in RDKit's order, each
#              [formal charge, isotope, aromatic (0/1), GetTotalNumHs()]
#   bonds      one entry per SMILES: null where MolFromSmiles refuses it,
#              else its bonds after sanitisation, each [begin, end, label]
#              with label "1" single, "2" double, "3" triple, "4"
#              aromatic, "$" quadruple
#   gasteiger  one entry per SMILES: null where MolFromSmiles refuses it,
#              else each atom's ComputeGasteigerCharges charge (defaults:
#              12 iterations), null where RDKit gives NaN
#   valences   RDKit's allowed valences of elements 1..118
#   outer      RDKit's outer-shell electron counts of elements 0..118
import json
import math
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem import rdPartialCharges

from rdkit_graphs import LABELS  # the bond labels of core/smiles

RDLogger.DisableLog("rdApp.*")

req = json.load(sys.stdin)
out, bonds, gasteiger = [], [], []
for s in req["smiles"]:
    m = Chem.MolFromSmiles(s)
    if m is None:
        out.append(None)
        bonds.append(None)
        gasteiger.append(None)
        continue
    out.append([[a.GetFormalCharge(), a.GetIsotope(), int(a.GetIsAromatic()), a.GetTotalNumHs()]
                for a in m.GetAtoms()])
    bonds.append([[b.GetBeginAtomIdx(), b.GetEndAtomIdx(), LABELS.get(b.GetBondType(), "?")]
                  for b in m.GetBonds()])
    rdPartialCharges.ComputeGasteigerCharges(m)
    charges = [a.GetDoubleProp("_GasteigerCharge") for a in m.GetAtoms()]
    gasteiger.append([q if math.isfinite(q) else None for q in charges])
pt = Chem.GetPeriodicTable()
json.dump({
    "molecules": out,
    "bonds": bonds,
    "gasteiger": gasteiger,
    "valences": [list(pt.GetValenceList(z)) for z in range(1, 119)],
    "outer": [pt.GetNOuterElecs(z) for z in range(0, 119)],
}, sys.stdout)
