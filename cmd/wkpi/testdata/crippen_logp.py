# Computes RDKit's Crippen logP (Wildman & Crippen 1999, atom-type
# contributions) of SMILES, for the held-out activity set of
# cmd/wkpi/activity_test.go (nciLogP).
#
# Reads on stdin a JSON list of SMILES; writes on stdout a JSON list of
# the same length: each molecule's logP to 4 decimals (so that the median
# and the classes do not hang on the last bits), or null where RDKit
# cannot read the SMILES (a valence it refuses).
import json
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem import Crippen

RDLogger.DisableLog("rdApp.*")

out = []
for smiles in json.load(sys.stdin):
    mol = Chem.MolFromSmiles(smiles)
    out.append(None if mol is None else round(Crippen.MolLogP(mol), 4))
json.dump(out, sys.stdout)
