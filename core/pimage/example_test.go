package pimage_test

import (
	"fmt"

	"wkpi-web/core/persistence"
	"wkpi-web/core/pimage"
)

func Example() {
	diagrams := [][]persistence.Point{
		{{Birth: 0, Death: 2}, {Birth: 1, Death: 1.5}},
		{{Birth: 3, Death: 1}},
	}
	o := pimage.Options{Rows: 8, Tau: 0.25, Weighting: pimage.Linear, MaxPersistence: pimage.MaxPersistence(diagrams)}
	grid, err := pimage.FitGrid(diagrams, o.Rows, o.Tau)
	if err != nil {
		fmt.Println(err)
		return
	}
	img, err := grid.Image(diagrams[0], o)
	if err != nil {
		fmt.Println(err)
		return
	}
	total := 0.0
	for _, v := range img {
		total += v
	}
	fmt.Printf("%d×%d pixels of side %.3f, mass %.2f of weight 1.25\n", grid.Rows, grid.Cols, grid.Pixel, total)
	// Output:
	// 8×12 pixels of side 0.375, mass 1.25 of weight 1.25
}
