"""RDKit oracle for the rule tasks (rules_test.go): SMARTS fragments on molecules.

Reads on stdin a JSON object {"file": PATH, "fragments": {NAME: SMARTS, ...}}
where PATH is a file of "SMILES<white space>name" lines (RDKit's NCI
sample, Data/NCI/first_5K.smi) or, if it ends in .csv, of CSV rows whose
first field is the SMILES (WEHI's PAINS test set,
Data/Pains/test_data/wehi_mols.csv). Writes a JSON list with one record per
molecule that RDKit's MolFromSmiles reads (the others are left out):

  line     the 1-based line of the file
  smiles   the SMILES as written in the file
  atoms    element symbols in RDKit's atom order (after its default
           hydrogen removal), which the Go SMILES reader must reproduce
  matches  {NAME: [[atom, ...], ...]}: every match of each fragment,
           GetSubstructMatches with its defaults (unique matches, so a
           benzene ring once, not once per symmetry), fragments with no
           match left out

The class of a rule and its ground-truth atoms are computed from these
matches by the test, so that one run serves every rule.

Debian: apt-get install python3-rdkit rdkit-data; run with /usr/bin/python3.
"""
import csv
import json
import sys

from rdkit import Chem, RDLogger

RDLogger.DisableLog("rdApp.*")


def main():
    req = json.load(sys.stdin)
    patterns = {}
    for name, smarts in req["fragments"].items():
        p = Chem.MolFromSmarts(smarts)
        if p is None:
            sys.exit("fragment %s: RDKit cannot read the SMARTS %r" % (name, smarts))
        patterns[name] = p
    out = []
    with open(req["file"], newline="") as f:
        rows = csv.reader(f) if req["file"].endswith(".csv") else (line.split() for line in f)
        for n, fields in enumerate(rows, 1):
            if not fields:
                continue
            mol = Chem.MolFromSmiles(fields[0])
            if mol is None:
                continue
            matches = {}
            for name, p in patterns.items():
                m = mol.GetSubstructMatches(p, maxMatches=100000)
                if m:
                    matches[name] = [list(t) for t in m]
            out.append({
                "line": n,
                "smiles": fields[0],
                "atoms": [a.GetSymbol() for a in mol.GetAtoms()],
                "matches": matches,
            })
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
