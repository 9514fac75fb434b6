"""RDKit oracle for package scaffold: Bemis-Murcko scaffolds of SMILES.

Reads {"smiles": [...]} or {"graphs": [...]} as JSON on stdin and writes
a JSON list with one record per input. For SMILES:

  ok        RDKit's MolFromSmiles read (and sanitised) it
  error     RDKit's message when it did not
  scaffold  MurckoScaffold.MurckoScaffoldSmiles(mol=mol): the canonical
            SMILES of the scaffold, "" for an acyclic molecule; what
            MoleculeNet's (DeepChem's) scaffold split groups by
  aromatic  Chem.MolToSmiles(mol): the molecule's canonical SMILES, in
            RDKit's aromatic form (lowercase atoms)
  kekule    the canonical SMILES kekulised (Chem.MolToSmiles with
            kekuleSmiles=True after Chem.Kekulize(mol, clearAromaticFlags=True))
  graph     the scaffold as a graph: GetScaffoldForMol's molecule with
            every formal charge, hydrogen count, radical, isotope and
            stereo tag cleared, written by Chem.MolToSmiles; elements,
            RDKit's aromaticity and bond orders are all that is left, the
            information a molecular graph of this project carries

A graph is {"atoms": [element, ...], "edges": [[u, v], ...], "bonds":
["single" | "double" | "triple" | "aromatic", ...]}, a molecule exactly as
a dataset gives it (MUTAG's nitro groups carry no charges, which RDKit's
sanitisation refuses). It is not sanitised: its ring information is
computed (GetSymmSSSR) and RDKit's MurckoDecompose, the C++ core of
GetScaffoldForMol, strips it; the record holds "graph" as above. An
aromatic bond outside rings is made single first, as RDKit's
sanitisation of a SMILES would make it.

Debian: apt-get install python3-rdkit rdkit-data; run with /usr/bin/python3.
"""
import json
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem.Scaffolds import MurckoScaffold

RDLogger.DisableLog("rdApp.*")


def graph_form(scaffold):
    rw = Chem.RWMol(scaffold)
    for a in rw.GetAtoms():
        a.SetFormalCharge(0)
        a.SetNumExplicitHs(0)
        a.SetNoImplicit(True)
        a.SetNumRadicalElectrons(0)
        a.SetIsotope(0)
        a.SetChiralTag(Chem.ChiralType.CHI_UNSPECIFIED)
    for b in rw.GetBonds():
        b.SetStereo(Chem.BondStereo.STEREONONE)
        b.SetBondDir(Chem.BondDir.NONE)
    rw.UpdatePropertyCache(strict=False)
    return Chem.MolToSmiles(rw, isomericSmiles=False)


def record(smi):
    try:
        mol = Chem.MolFromSmiles(smi)
    except Exception as e:  # noqa: BLE001 - RDKit raises several kinds
        return {"ok": False, "error": str(e)}
    if mol is None:
        return {"ok": False, "error": "MolFromSmiles returned None"}
    rec = {"ok": True, "scaffold": MurckoScaffold.MurckoScaffoldSmiles(mol=mol) or ""}
    rec["graph"] = graph_form(MurckoScaffold.GetScaffoldForMol(mol))
    rec["aromatic"] = Chem.MolToSmiles(mol)
    kek = Chem.Mol(mol)
    Chem.Kekulize(kek, clearAromaticFlags=True)
    rec["kekule"] = Chem.MolToSmiles(kek, kekuleSmiles=True)
    return rec


BONDS = {
    "single": Chem.BondType.SINGLE,
    "double": Chem.BondType.DOUBLE,
    "triple": Chem.BondType.TRIPLE,
    "aromatic": Chem.BondType.AROMATIC,
}


def graph_record(g):
    rw = Chem.RWMol()
    for a in g["atoms"]:
        atom = Chem.Atom(a)
        atom.SetNoImplicit(True)
        rw.AddAtom(atom)
    for (u, v), b in zip(g["edges"], g["bonds"]):
        rw.AddBond(u, v, BONDS[b])
    mol = rw.GetMol()
    mol.UpdatePropertyCache(strict=False)
    Chem.GetSymmSSSR(mol)
    for bond in mol.GetBonds():
        if bond.GetBondType() == Chem.BondType.AROMATIC:
            if bond.IsInRing():
                bond.SetIsAromatic(True)
                bond.GetBeginAtom().SetIsAromatic(True)
                bond.GetEndAtom().SetIsAromatic(True)
            else:
                bond.SetBondType(Chem.BondType.SINGLE)
    return {"ok": True, "graph": graph_form(Chem.MurckoDecompose(mol))}


def main():
    req = json.load(sys.stdin)
    if "graphs" in req:
        json.dump([graph_record(g) for g in req["graphs"]], sys.stdout)
        return
    json.dump([record(s) for s in req["smiles"]], sys.stdout)


if __name__ == "__main__":
    main()
