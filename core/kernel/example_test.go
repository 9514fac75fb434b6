package kernel_test

import (
	"context"
	"fmt"

	"wkpi-web/core/kernel"
	"wkpi-web/core/pimage"
)

func ExampleKernel_Gram() {
	// Three 1 x 2 persistence images and their pixel centres.
	centres := [][2]float64{{0, 1}, {1, 1}}
	images := [][]float64{{1, 0}, {0, 1}, {1, 0}}
	w := kernel.Mixture{X: []float64{0}, Y: []float64{1}, Sigma: []float64{1}, W: []float64{1}}
	k := kernel.Kernel{Weights: w.PixelWeights(centres), Sigma: 1}
	g, err := k.Gram(context.Background(), pimage.SparseAll(images), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Pixel weights w = (1, 1/e): the diagonal is their sum 1.3679, and
	// images 0 and 1 differ by 1 in both pixels: (1 + 1/e) exp(-1/2) = 0.8297.
	for _, row := range g {
		fmt.Printf("%.4f\n", row)
	}
	// Output:
	// [1.3679 0.8297 1.3679]
	// [0.8297 1.3679 0.8297]
	// [1.3679 0.8297 1.3679]
}
