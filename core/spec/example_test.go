package spec_test

import (
	"fmt"

	"wkpi-web/core/spec"
)

func ExampleSpec_Validate() {
	s := spec.Defaults()
	s.Sigma, s.Folds = -1, 1
	fmt.Println(s.Validate())
	// Output:
	// sigma: "-1": want a number > 0
	// folds: "1": want a whole number from 2 to 100
}

func ExamplePaper() {
	s := spec.Paper()
	fmt.Println(s.Protocol(), s.Grid, s.Extra)
	// Output: nested paper none
}
