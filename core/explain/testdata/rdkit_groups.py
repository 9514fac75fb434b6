"""RDKit's SMARTS matches of functional groups, the oracle of
TestGroupsRDKit: reads a JSON list of SMILES on stdin and writes, per
molecule, the atom sets (sorted, each once) of every kind, or null when
RDKit cannot read the SMILES."""
import json
import sys

from rdkit import Chem, RDLogger

RDLogger.DisableLog("rdApp.*")

KINDS = {
    "nitro": ["[N+](=O)[O-]", "N(=O)=O"],
    "carbonyl": ["[CX3]=[OX1]"],
    "nitrile": ["C#N"],
    "halogen": ["[F,Cl,Br,I]"],
    "benzene ring": ["c1ccccc1"],
    "pyridine ring": ["n1ccccc1"],
}
PATTERNS = {k: [Chem.MolFromSmarts(s) for s in v] for k, v in KINDS.items()}


def groups(smiles):
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        return None
    out = {}
    for kind, patterns in PATTERNS.items():
        sets = set()
        for p in patterns:
            for match in mol.GetSubstructMatches(p, uniquify=True, maxMatches=100000):
                sets.add(tuple(sorted(match)))
        out[kind] = sorted(list(s) for s in sets)
    return out


print(json.dumps([groups(s) for s in json.load(sys.stdin)]))
