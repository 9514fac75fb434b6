package dataset_test

import (
	"errors"
	"fmt"

	"wkpi-web/core/dataset"
)

func ExampleParse() {
	csv := "ID,SMILES,pIC50\nm1,CCO,5.1\nm2,c1ccccc1O,7.3\nm3,C1CC,6.0\nm4,CC(=O)O,6.4\n"
	_, _, err := dataset.Parse("mols.csv", []byte(csv), dataset.Options{})
	var bad *dataset.BadRecordsError
	if errors.As(err, &bad) {
		fmt.Println(err)
	}
	cut := 6.0
	ds, rep, err := dataset.Parse("mols.csv", []byte(csv), dataset.Options{Threshold: &cut, SkipBad: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, g := range ds.Graphs {
		fmt.Println(ds.Names[i], g.N, "atoms:", ds.Classes[ds.Labels[i]])
	}
	fmt.Println("skipped:", rep.Skipped[0].Where, "median:", rep.Median)
	// Output:
	// mols.csv: 1 of 4 rows cannot be read: row 3 (line 4): SMILES "C1CC": character 2: ring bond 1 is never closed
	// m1 3 atoms: pIC50 < 6
	// m2 7 atoms: pIC50 >= 6
	// m4 4 atoms: pIC50 >= 6
	// skipped: row 3 (line 4) median: 6.4
}

func ExampleInspect() {
	sdf := "aspirin\n\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 C   0  0\nM  END\n" +
		">  <ACTIVITY>\nactive\n\n>  <MW>\n180.16\n\n$$$$\n"
	in, err := dataset.Inspect("mols.sdf", []byte(sdf), dataset.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(in.Format, in.Records, "target:", in.Target)
	for _, c := range in.Columns {
		fmt.Println(c.Name, c.Numeric, c.Examples)
	}
	// Output:
	// sdf 1 target: ACTIVITY
	// ACTIVITY false [active]
	// MW true [180.16]
}
