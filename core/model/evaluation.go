package model

import (
	"fmt"
	"math"
)

// Evaluation is what a cross-validation of a model's settings found,
// kept in the model file so that the model still says how good it is
// after a download and an import elsewhere: the fold count, and the
// mean and standard deviation over the folds of the accuracy of the
// learned kernel. The page and wkpi eval -model write it; a file without
// one (wkpi train, which does not cross-validate; earlier builds) loads
// as before.
type Evaluation struct {
	Folds    int     `json:"folds"`
	Accuracy float64 `json:"accuracy"`
	Std      float64 `json:"std"`
}

// Validate checks that e could come from a cross-validation: at least 2
// folds, an accuracy in [0, 1] and a standard deviation in [0, 1]. A nil
// Evaluation (none kept) is valid.
func (e *Evaluation) Validate() error {
	switch {
	case e == nil:
		return nil
	case e.Folds < 2:
		return fmt.Errorf("model: evaluation over %d folds, want at least 2", e.Folds)
	case !(e.Accuracy >= 0 && e.Accuracy <= 1):
		return fmt.Errorf("model: evaluation accuracy %v, want a number in [0, 1]", e.Accuracy)
	case !(e.Std >= 0 && e.Std <= 1) || math.IsNaN(e.Std):
		return fmt.Errorf("model: evaluation standard deviation %v, want a number in [0, 1]", e.Std)
	}
	return nil
}
