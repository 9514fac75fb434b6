# Writes a TU dataset of molecules (MUTAG) as a SMILES table and as an SD
# file with RDKit, for the "one molecule, two formats, one result" tests
# (core/dataset/mutag_test.go, cmd/wkpi/dataset_test.go).
#
# Reads on stdin a JSON object
#   {"graphs": [{"name", "label", "atoms": [symbol...],
#                "bonds": [[u, v, order]...]}...],
#    "csv": path, "sdf": path, "accepted_only": bool}
# with 0-based atoms and orders "1" single, "2" double, "3" triple,
# "4" aromatic. Each molecule is built atom by atom and bond by bond as
# given, never sanitised (RDKit would re-perceive aromaticity and change
# bonds); atoms with an aromatic bond are flagged aromatic so that the
# SMILES writes them in lower case. MUTAG writes a nitro group N(=O)O
# without charges, a four-bonded neutral nitrogen that RDKit (and wkpi's
# readers) refuse in a molecule file; it is written charge-separated,
# [N+](=O)[O-], as a chemist's file has it and as wkpi reads the TU
# graphs (smiles.chargeSeparate). The CSV (columns ID, SMILES,
# mutagenic) gets RDKit's canonical SMILES; the SD file keeps the atom
# order, with aromatic bonds written as type 4 (no kekulisation), the name
# as title line and the label as the data item <mutagenic>.
#
# Writes on stdout a JSON list: per molecule the SMILES, "order", RDKit's
# _smilesAtomOutputOrder (the i-th atom of the SMILES is atom order[i] of
# the molecule), and "error", what RDKit's sanitisation refuses it for
# ("" when it accepts it: 179 of MUTAG's 188; the others have a neutral
# four-bonded nitrogen or a five-bonded carbon as TU writes them). With
# "accepted_only" the files hold only the molecules it accepts.
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
    for atom in rw.GetAtoms():
        if atom.GetSymbol() != "N" or atom.GetFormalCharge() != 0:
            continue
        if sum(b.GetBondTypeAsDouble() for b in atom.GetBonds()) != 4:
            continue
        for b in atom.GetBonds():
            o = b.GetOtherAtom(atom)
            if o.GetSymbol() == "O" and b.GetBondType() == Chem.BondType.SINGLE and o.GetDegree() == 1 and o.GetFormalCharge() == 0:
                atom.SetFormalCharge(1)
                o.SetFormalCharge(-1)
                break
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
            error = ""
            try:
                Chem.SanitizeMol(Chem.Mol(mol))
            except Exception as e:
                error = str(e)
            if not (error and req.get("accepted_only")):
                csv.write("%s,%s,%s\n" % (g["name"], smi, g["label"]))
                writer.write(mol)
            out.append({"smiles": smi, "order": order, "error": error})
    writer.close()
    json.dump(out, sys.stdout)


main()
