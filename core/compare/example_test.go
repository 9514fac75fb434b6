package compare_test

import (
	"fmt"

	"wkpi-web/core/compare"
)

// A method that beats the reference on all 6 folds: the exact Wilcoxon
// p-value is 2/2^6, the smallest possible with 6 folds.
func ExampleCompare() {
	method := []float64{0.90, 0.85, 0.88, 0.92, 0.80, 0.86}
	wkpi := []float64{0.85, 0.82, 0.80, 0.90, 0.79, 0.70}
	p, _ := compare.Compare(method, wkpi)
	fmt.Printf("Wilcoxon p = %.5f (2/64 = %.5f)\n", p.WilcoxonP, 2.0/64)
	// Output: Wilcoxon p = 0.03125 (2/64 = 0.03125)
}
