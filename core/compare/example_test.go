package compare_test

import (
	"fmt"

	"wkpi-web/core/compare"
)

// Pair tests every method against WKPI on the same folds: a method that
// beats WKPI on all 6 folds gets the exact Wilcoxon p-value 2/2^6, the
// smallest possible with 6 folds; WKPI itself is not paired.
func ExamplePair() {
	res := compare.Result{Dataset: "toy", Methods: []compare.Method{
		{Name: "PI-CONST", Folds: []float64{0.90, 0.85, 0.88, 0.92, 0.80, 0.86}},
		{Name: compare.WKPI, Folds: []float64{0.85, 0.82, 0.80, 0.90, 0.79, 0.70}},
	}}
	if err := compare.Pair(&res); err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range res.Methods {
		if m.Paired == nil {
			fmt.Printf("%s: reference\n", m.Name)
			continue
		}
		fmt.Printf("%s: Wilcoxon p = %.5f (2/64 = %.5f)\n", m.Name, m.Paired.WilcoxonP, 2.0/64)
	}
	// Output:
	// PI-CONST: Wilcoxon p = 0.03125 (2/64 = 0.03125)
	// WKPI: reference
}
