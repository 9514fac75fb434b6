package svm_test

import (
	"context"
	"fmt"

	"wkpi-web/core/svm"
)

// Train on the linear-kernel Gram matrix of four points on a line, two
// per class, then classify a new point from its kernel values.
func Example() {
	x := []float64{-2, -1, 1, 2}
	y := []int{0, 0, 1, 1}
	K := make([][]float64, len(x))
	for i := range x {
		K[i] = make([]float64, len(x))
		for j := range x {
			K[i][j] = x[i] * x[j]
		}
	}
	m, err := svm.Train(context.Background(), K, y, svm.Options{C: 10})
	if err != nil {
		fmt.Println(err)
		return
	}
	z := 0.5
	k := make([]float64, len(x))
	for j := range x {
		k[j] = z * x[j]
	}
	fmt.Println("support vectors:", m.SupportVectors())
	fmt.Printf("decision: %.3f (positive votes for class 0)\n", m.Decision(k)[0])
	fmt.Println("class:", m.Predict(k))
	// Output:
	// support vectors: [1 2]
	// decision: -0.500 (positive votes for class 0)
	// class: 1
}
