# Oracle for BondingTypes (bonding_test.go): the bonding type of every
# atom, written as SMARTS and matched by RDKit on its sanitised molecule.
# Reads on stdin a JSON object {"smiles": [...]} and writes a JSON object
# {"types": [...]}: one entry per SMILES, null where MolFromSmiles
# refuses it, else one type per atom in RDKit's order.
import json
import sys

from rdkit import Chem, RDLogger

RDLogger.DisableLog("rdApp.*")

# First match wins; an atom no pattern matches keeps its element symbol.
TYPES = [
    ("N.ar", "[n;r6]"),
    ("N.az", "[n]"),
    ("N.2", "[N;$(N=*),$(N#*)]"),
    ("N.am", "[N;$(N-C=[O,S])]"),
    ("N.H", "[N;!H0]"),
    ("N.3", "[N]"),
    ("O.2x", "[O;D1;$(O=[!#6]),$([O-][!#6])]"),
    ("O.2", "[O;$(O=*),-1]"),
    ("O.H", "[O;D0,$([OD1][CX4])]"),
    ("O.Ha", "[O;D1]"),
    ("O.3", "[O,o]"),
]
PATTERNS = [(name, Chem.MolFromSmarts(s)) for name, s in TYPES]

out = []
for s in json.load(sys.stdin)["smiles"]:
    m = Chem.MolFromSmiles(s)
    if m is None:
        out.append(None)
        continue
    types = [a.GetSymbol() for a in m.GetAtoms()]
    done = [False] * m.GetNumAtoms()
    for name, p in PATTERNS:
        for (a,) in m.GetSubstructMatches(p, uniquify=False):
            if not done[a]:
                types[a], done[a] = name, True
    out.append(types)
json.dump({"types": out}, sys.stdout)
