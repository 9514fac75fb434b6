package fingerprint_test

import (
	"fmt"

	"wkpi-web/core/fingerprint"
	"wkpi-web/core/smiles"
)

func Example() {
	var fps []fingerprint.Sparse
	for _, s := range []string{"c1ccccc1O", "c1ccccc1N", "CCO"} {
		g, err := smiles.Parse(s)
		if err != nil {
			panic(err)
		}
		fp, err := fingerprint.Morgan{}.Counts(g)
		if err != nil {
			panic(err)
		}
		fps = append(fps, fp)
	}
	// RDKit: 11 identifiers; DataStructs.TanimotoSimilarity 0.538 and 0.040.
	fmt.Printf("phenol: %d environments\n", len(fps[0].IDs))
	fmt.Printf("phenol-aniline %.3f, phenol-ethanol %.3f\n",
		fingerprint.MinMax(fps[0], fps[1]), fingerprint.MinMax(fps[0], fps[2]))
	// Output:
	// phenol: 11 environments
	// phenol-aniline 0.538, phenol-ethanol 0.040
}
