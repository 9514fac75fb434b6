# Oracle for the smiles package tests (rdkit_test.go). Reads on stdin a JSON
# object {"smiles": [...], "variant_stride": k} and writes a JSON list of
# records, one per SMILES, each with RDKit's reading of it:
#
#   parsed   RDKit's SMILES parser accepted the string (sanitize=False)
#   ok       MolFromSmiles(s) returned a molecule (parsing and sanitisation)
#   error    why MolFromSmiles refused it, when it did
#   atoms    element symbols in atom order, after RDKit's default hydrogen
#            removal (what MolFromSmiles keeps)
#   degrees  each atom's number of neighbours among those atoms
#   bonds    {"u": begin, "v": end, "order": label}, label "1" single,
#            "2" double, "3" triple, "4" aromatic, "$" quadruple, as written
#            in the string
#
# The graph is read with sanitize=False and then RemoveHs(sanitize=False):
# MolFromSmiles removes hydrogens in the same way before it sanitises, and
# sanitisation would change bond orders (a Kekule benzene turns aromatic).
# When MolFromSmiles succeeds, its atoms and bond pairs must equal these;
# otherwise the record is marked "inconsistent".
#
# With a stride k > 0, every k-th SMILES that RDKit reads also yields
# records for RDKit's canonical (aromatic) SMILES of it, a random SMILES
# and a SMILES with all hydrogens explicit; "source" is the index of the
# input they came from.
import json
import sys

from rdkit import Chem, RDLogger

RDLogger.DisableLog("rdApp.*")

LABELS = {
    Chem.BondType.SINGLE: "1",
    Chem.BondType.DOUBLE: "2",
    Chem.BondType.TRIPLE: "3",
    Chem.BondType.AROMATIC: "4",
    Chem.BondType.QUADRUPLE: "$",
}


def read(smiles, source, variant):
    rec = {"smiles": smiles, "source": source, "variant": variant,
           "parsed": False, "ok": False}
    raw = Chem.MolFromSmiles(smiles, sanitize=False)
    if raw is None:
        rec["error"] = "SMILES parse error"
        return rec, None
    rec["parsed"] = True
    try:
        stripped = Chem.RemoveHs(raw, sanitize=False)
    except Exception as e:  # noqa: BLE001 - report whatever RDKit raises
        rec["error"] = "RemoveHs: " + str(e)
        return rec, None
    rec["atoms"] = [a.GetSymbol() for a in stripped.GetAtoms()]
    rec["degrees"] = [a.GetDegree() for a in stripped.GetAtoms()]
    rec["bonds"] = [{"u": b.GetBeginAtomIdx(), "v": b.GetEndAtomIdx(),
                      "order": LABELS.get(b.GetBondType(), str(b.GetBondType()))}
                     for b in stripped.GetBonds()]
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        try:
            Chem.SanitizeMol(Chem.Mol(stripped))
            rec["error"] = "refused, but sanitising the parsed molecule works"
        except Exception as e:  # noqa: BLE001
            rec["error"] = str(e)
        return rec, None
    rec["ok"] = True
    pairs = lambda m: sorted(tuple(sorted((b.GetBeginAtomIdx(), b.GetEndAtomIdx())))
                             for b in m.GetBonds())
    if [a.GetSymbol() for a in mol.GetAtoms()] != rec["atoms"] or pairs(mol) != pairs(stripped):
        rec["inconsistent"] = True
    return rec, mol


def main():
    req = json.load(sys.stdin)
    out = []
    for i, smiles in enumerate(req["smiles"]):
        rec, mol = read(smiles, i, "input")
        out.append(rec)
        stride = req.get("variant_stride", 0)
        if mol is None or stride <= 0 or i % stride:
            continue
        variants = {
            "canonical": Chem.MolToSmiles(mol),
            "random": Chem.MolToRandomSmilesVect(mol, 1, randomSeed=i + 1)[0],
            "explicit-H": Chem.MolToSmiles(Chem.AddHs(mol)),
        }
        for name, v in variants.items():
            out.append(read(v, i, name)[0])
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
