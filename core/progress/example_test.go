package progress_test

import (
	"fmt"

	"wkpi-web/core/progress"
)

// A long call reports its stage and how far it is; a nil Func is fine.
func ExampleFunc() {
	report := progress.Func(func(stage string, done, total int) {
		fmt.Printf("%s %d/%d\n", stage, done, total)
	})
	for i := 1; i <= 3; i++ {
		report.Report("graphs", i, 3)
	}
	var quiet progress.Func
	quiet.Report("ignored", 1, 1)
	// Output:
	// graphs 1/3
	// graphs 2/3
	// graphs 3/3
}
