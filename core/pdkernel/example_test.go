package pdkernel_test

import (
	"context"
	"fmt"
	"math"

	"wkpi-web/core/pdkernel"
	"wkpi-web/core/persistence"
	"wkpi-web/core/pimage"
)

func ExampleSlicedWasserstein() {
	// A one-point diagram against the empty one: every direction compares
	// the point with its diagonal projection, and the exact SW is
	// sqrt(2) |d - b| / pi = 0.9003 for (0, 2). Ten directions (GUDHI's
	// default) are within 0.5 %.
	ds := [][]persistence.Point{{{Birth: 0, Death: 2}}, {}}
	for _, m := range []int{10, 1000} {
		sw, err := pdkernel.SlicedWasserstein(context.Background(), ds, m, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		// The SW kernel with sigma = 1: exp(-SW / (2 sigma^2)).
		k := pdkernel.Exp(sw, 1.0/2)
		fmt.Printf("M=%d: SW %.4f, kernel %.4f\n", m, sw[0][1], k[0][1])
	}
	fmt.Printf("exact: %.4f\n", math.Sqrt2*2/math.Pi)
	// Output:
	// M=10: SW 0.9040, kernel 0.6363
	// M=1000: SW 0.9003, kernel 0.6375
	// exact: 0.9003
}

func ExamplePWGKLinear() {
	// One point each, both of persistence 1: w = arctan(1) = pi/4 and
	// K = (pi/4)^2 exp(-|p-q|^2 / (2 rho^2)) = 0.6169 exp(-1) = 0.2269.
	ds := [][]persistence.Point{{{Birth: 0, Death: 1}}, {{Birth: 1, Death: 2}}}
	k, err := pdkernel.PWGKLinear(context.Background(), ds, pdkernel.PWGKParams{Rho: 1, C: 1, P: 1}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Kusano et al.'s Gaussian PWGK with tau = 1 on the RKHS distance
	// D^2 = K(D,D) + K(E,E) - 2K(D,E) = 2 (pi/4)^2 (1 - 1/e) = 0.7798:
	// exp(-0.7798 / 2) = 0.6771.
	g := pdkernel.Exp(pdkernel.SquaredDistances(k), 1.0/2)
	fmt.Printf("linear %.4f, Gaussian %.4f\n", k[0][1], g[0][1])
	// Output:
	// linear 0.2269, Gaussian 0.6771
}

func ExamplePersistenceFisher() {
	// The same diagram is at distance 0; diagrams far apart, smoothed by a
	// narrow Gaussian, have disjoint densities and d_FIM = pi/2.
	d := []persistence.Point{{Birth: 0, Death: 1}, {Birth: 2, Death: 5}}
	far := []persistence.Point{{Birth: 100, Death: 104}}
	m, err := pdkernel.PersistenceFisher(context.Background(), [][]persistence.Point{d, d, far}, 0.01, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.4f %.4f (pi/2 = %.4f)\n", m[0][1], m[0][2], math.Pi/2)
	// Output:
	// 0.0000 1.5708 (pi/2 = 1.5708)
}

// PI-PL, the persistence image baseline with the piecewise-linear weight
// of Adams et al., is pimage.Linear: w(t) = 0 for t <= 0, t/b for
// 0 < t < b and 1 for t >= b, at persistence t = |d - b| with b the
// largest persistence of the training diagrams (here 2).
func Example_piPL() {
	diagrams := [][]persistence.Point{{{Birth: 0, Death: 2}, {Birth: 1, Death: 1.5}}, {{Birth: 3, Death: 2}}}
	o := pimage.Options{Rows: 10, Tau: 0.1, Weighting: pimage.Linear, MaxPersistence: pimage.MaxPersistence(diagrams)}
	for _, t := range []float64{-1, 0, 0.5, 1, 2, 3} {
		fmt.Printf("w(%g) = %g\n", t, o.Weight(t))
	}
	// Output:
	// w(-1) = 0
	// w(0) = 0
	// w(0.5) = 0.25
	// w(1) = 0.5
	// w(2) = 1
	// w(3) = 1
}
