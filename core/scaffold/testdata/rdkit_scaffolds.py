"""RDKit oracle for package scaffold: Bemis-Murcko scaffolds of SMILES.

Reads {"smiles": [...]} as JSON on stdin and writes a JSON list with one
record per input:

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


def main():
    req = json.load(sys.stdin)
    json.dump([record(s) for s in req["smiles"]], sys.stdout)


if __name__ == "__main__":
    main()
