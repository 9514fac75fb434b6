# Oracle for the molfile tests (mol_test.go). Reads on stdin a JSON object
# {"files": [path, ...], "v3000": [path, ...]} and writes a JSON object
# {"files": [[record, ...], ...]} with RDKit's reading of every record of
# every SD file:
#
#   title   the title line (RDKit's _Name)
#   atoms   element symbols in file order, every atom as written
#           (SDMolSupplier with sanitize=False, removeHs=False)
#   bonds   {"u", "v", "order"}: 0-based atoms and the bond type as the
#           molfile writes it ("1" single, "2" double, "3" triple,
#           "4" aromatic)
#   props   the data items, [name, value] in file order
#   chem    RDKit's sanitised reading with hydrogens kept
#           (SDMolSupplier(path, removeHs=False)), per atom [formal charge,
#           isotope, aromatic (0/1), GetTotalNumHs()], or null when RDKit
#           refuses the record
#   heavy   RDKit's default reading (SDMolSupplier(path): sanitised,
#           hydrogens removed): {"atoms": symbols, "bonds": count}, or
#           null when RDKit refuses the record
#
# Each file is also written, record by record and unchanged (no
# sanitisation, no kekulisation, properties kept), as V3000 to the path
# of the same index in "v3000".
import json
import sys

from rdkit import Chem, RDLogger

RDLogger.DisableLog("rdApp.*")

ORDER = {
    Chem.BondType.SINGLE: "1",
    Chem.BondType.DOUBLE: "2",
    Chem.BondType.TRIPLE: "3",
    Chem.BondType.AROMATIC: "4",
}


def main():
    req = json.load(sys.stdin)
    out = []
    for k, path in enumerate(req["files"]):
        raw = Chem.SDMolSupplier(path, sanitize=False, removeHs=False)
        default = Chem.SDMolSupplier(path)
        withHs = Chem.SDMolSupplier(path, removeHs=False)
        writer = Chem.SDWriter(req["v3000"][k])
        writer.SetForceV3000(True)
        writer.SetKekulize(False)
        recs = []
        for i, mol in enumerate(raw):
            if mol is None:
                recs.append(None)
                continue
            rec = {
                "title": mol.GetProp("_Name") if mol.HasProp("_Name") else "",
                "atoms": [a.GetSymbol() for a in mol.GetAtoms()],
                "bonds": [{"u": b.GetBeginAtomIdx(), "v": b.GetEndAtomIdx(),
                           "order": ORDER.get(b.GetBondType(), str(b.GetBondType()))}
                          for b in mol.GetBonds()],
                "props": [[n, mol.GetProp(n)] for n in mol.GetPropNames()],
            }
            d = default[i]
            rec["heavy"] = None if d is None else {
                "atoms": [a.GetSymbol() for a in d.GetAtoms()],
                "bonds": d.GetNumBonds(),
            }
            h = withHs[i]
            rec["chem"] = None if h is None else [
                [a.GetFormalCharge(), a.GetIsotope(), int(a.GetIsAromatic()), a.GetTotalNumHs()]
                for a in h.GetAtoms()]
            recs.append(rec)
            mol.UpdatePropertyCache(strict=False)
            writer.write(mol)
        writer.close()
        out.append(recs)
    json.dump({"files": out}, sys.stdout)


main()
