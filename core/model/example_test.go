package model_test

import (
	"fmt"
	"strings"

	"wkpi-web/core/model"
)

// Load refuses a file it cannot trust and says why.
func ExampleLoad() {
	_, err := model.Load(strings.NewReader(`{"format": "wkpi-model", "version": 4}`))
	fmt.Println(err)
	// Output: model: format version 4, this build reads versions 1 to 3
}
