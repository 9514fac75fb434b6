# Writes a TU dataset of molecules (MUTAG) as a SMILES table and as an SD
# file with RDKit, for the "one molecule, two formats, one result" tests
# (core/dataset/mutag_test.go, cmd/wkpi/dataset_test.go).
#
# Reads on stdin a JSON object
#   {"graphs": [{"name", "label", "atoms": [symbol...],
#                "bonds": [[u, v, order]...]}...],
#    "csv": path, "sdf": path}
# with 0-based atoms and orders "1" single, "2" double, "3" triple,
# "4" aromatic. Each molecule is built atom by atom and bond by bond as
# given, never sanitised (RDKit would re-perceive aromaticity and change
# bonds); atoms with an aromatic bond are flagged aromatic so that the
# SMILES writes them in lower case. The CSV (columns ID, SMILES,
# mutagenic) gets RDKit's canonical SMILES; the SD file keeps the atom
# order, with aromatic bonds written as type 4 (no kekulisation), the name
# as title line and the label as the data item <mutagenic>.
#
# Writes on stdout a JSON list: per molecule the SMILES and
# "order", RDKit's _smilesAtomOutputOrder (the i-th atom of the SMILES
# is atom order[i] of the molecule).
import json
import sys

from rdkit import Chem, RDLogger

RDLogger.DisableLog("rdApp.*")

BONDS = {
    "1": Chem.BondType.SINGLE,
    "2": Chem.BondType.DOUBLE,
    "3": Chem.BondType.TRIPLE,
    "4": Chem.BondType.AROMATIC,
}


def build(g):
    rw = Chem.RWMol()
    for s in g["atoms"]:
        rw.AddAtom(Chem.Atom(s))
    for u, v, order in g["bonds"]:
        rw.AddBond(u, v, BONDS[order])
        if order == "4":
            b = rw.GetBondBetweenAtoms(u, v)
            b.SetIsAromatic(True)
            rw.GetAtomWithIdx(u).SetIsAromatic(True)
            rw.GetAtomWithIdx(v).SetIsAromatic(True)
    mol = rw.GetMol()
    mol.UpdatePropertyCache(strict=False)
    Chem.FastFindRings(mol)
    mol.SetProp("_Name", g["name"])
    mol.SetProp("mutagenic", g["label"])
    return mol


def main():
    req = json.load(sys.stdin)
    out = []
    writer = Chem.SDWriter(req["sdf"])
    writer.SetKekulize(False)
    with open(req["csv"], "w") as csv:
        csv.write("ID,SMILES,mutagenic\n")
        for g in req["graphs"]:
            mol = build(g)
            smi = Chem.MolToSmiles(mol, kekuleSmiles=False)
            order = list(mol.GetPropsAsDict(True, True)["_smilesAtomOutputOrder"])
            csv.write("%s,%s,%s\n" % (g["name"], smi, g["label"]))
            writer.write(mol)
            out.append({"smiles": smi, "order": order})
    writer.close()
    json.dump(out, sys.stdout)


main()
