package crossval_test

import (
	"context"
	"fmt"

	"wkpi-web/core/crossval"
)

// nearest is 1-nearest-neighbour on points of a line.
type nearest struct {
	x      []float64
	labels []int
}

func (l nearest) Fit(_ context.Context, train []int) (crossval.Predictor, error) {
	return fitted{l, train}, nil
}

type fitted struct {
	nearest
	train []int
}

func (f fitted) Predict(_ context.Context, test []int) ([]int, error) {
	out := make([]int, len(test))
	for i, s := range test {
		best := f.train[0]
		for _, t := range f.train {
			if abs(f.x[t]-f.x[s]) < abs(f.x[best]-f.x[s]) {
				best = t
			}
		}
		out[i] = f.labels[best]
	}
	return out, nil
}

func abs(v float64) float64 { return max(v, -v) }

// Ten-fold cross-validation of 1-nearest-neighbour on two well separated
// clusters is perfect.
func Example() {
	x := []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 5, 5.1, 5.2, 5.3, 5.4, 5.5, 5.6, 5.7, 5.8, 5.9}
	labels := []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	folds, err := crossval.StratifiedKFold(labels, 10, 42)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := crossval.CrossValidate(context.Background(), labels, folds, 10, nearest{x, labels}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("accuracy %.2f ± %.2f\n", r.Accuracy, r.Std)
	fmt.Println("confusion", r.Confusion)
	// Output:
	// accuracy 1.00 ± 0.00
	// confusion [[10 0] [0 10]]
}

// A method that beats the reference on all 6 folds: the exact Wilcoxon
// p-value is 2/2^6, the smallest possible with 6 folds.
func ExampleCompare() {
	method := []float64{0.90, 0.85, 0.88, 0.92, 0.80, 0.86}
	reference := []float64{0.85, 0.82, 0.80, 0.90, 0.79, 0.70}
	p, _ := crossval.Compare(method, reference)
	fmt.Printf("Wilcoxon p = %.5f (2/64 = %.5f)\n", p.WilcoxonP, 2.0/64)
	// Output: Wilcoxon p = 0.03125 (2/64 = 0.03125)
}
