# Oracle for SymmetryClasses (symmetry_test.go). Reads on stdin a JSON list
# of SMILES and writes a JSON list with, per SMILES, RDKit's symmetry
# classes: CanonicalRankAtoms(mol, breakTies=False), one rank per atom,
# equal ranks for atoms RDKit cannot tell apart; null when RDKit cannot
# read the string.
#
# "plain" ranks the molecule as RDKit reads it with sanitisation (aromatic
# bonds perceived, charges, hydrogen counts and chirality counted): the
# chemist's notion of symmetric atoms.
#
# "written" ranks the graph that core/smiles builds, what SymmetryClasses
# sees: read with sanitize=False and RemoveHs(sanitize=False), so bond
# orders stay as written (a Kekule ring keeps its single and double
# bonds), then charges, isotopes, radicals, chirality and implicit or
# bracket hydrogen counts cleared, since the graph keeps none of them
# (a hydrogen kept as an atom stays a neighbour).
import json
import sys

from rdkit import Chem, RDLogger

RDLogger.DisableLog("rdApp.*")


def written(s):
    mol = Chem.MolFromSmiles(s, sanitize=False)
    if mol is None:
        return None
    mol = Chem.RemoveHs(mol, sanitize=False)
    for a in mol.GetAtoms():
        a.SetFormalCharge(0)
        a.SetIsotope(0)
        a.SetNumRadicalElectrons(0)
        a.SetChiralTag(Chem.ChiralType.CHI_UNSPECIFIED)
        a.SetNoImplicit(True)
        a.SetNumExplicitHs(0)
    for b in mol.GetBonds():
        b.SetStereo(Chem.BondStereo.STEREONONE)
    mol.UpdatePropertyCache(strict=False)
    Chem.FastFindRings(mol)
    return list(Chem.CanonicalRankAtoms(mol, breakTies=False, includeChirality=False, includeIsotopes=False))


def plain(s):
    mol = Chem.MolFromSmiles(s)
    if mol is None:
        return None
    return list(Chem.CanonicalRankAtoms(mol, breakTies=False))


out = []
for s in json.load(sys.stdin):
    out.append({"written": written(s), "plain": plain(s)})
json.dump(out, sys.stdout)
