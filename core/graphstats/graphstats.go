package graphstats

import (
	"fmt"

	"gonum.org/v1/gonum/stat"

	"wkpi-web/core/graph"
)

// DegreeBins is the number of degree histogram bins: degrees
// 0..DegreeBins-2, and DegreeBins-1 or more.
const DegreeBins = 6

// Names are the features of Of, in order.
func Names() []string {
	names := []string{"nodes", "edges", "mean degree", "max degree", "density"}
	for d := range DegreeBins - 1 {
		names = append(names, fmt.Sprintf("degree %d", d))
	}
	return append(names, fmt.Sprintf("degree %d+", DegreeBins-1), "components", "cycle rank", "triangles")
}

// Of returns a graph's statistics, in the order of Names. The degree
// histogram holds fractions of the nodes, so that it describes shape
// rather than size (which nodes already gives).
func Of(g *graph.Graph) []float64 {
	n, e := float64(g.N), float64(len(g.Edges))
	adj := g.Neighbors()
	hist := make([]float64, DegreeBins)
	var maxDeg int
	for _, a := range adj {
		hist[min(len(a), DegreeBins-1)]++
		maxDeg = max(maxDeg, len(a))
	}
	var meanDeg, density float64
	if g.N > 0 {
		meanDeg = 2 * e / n
		for i := range hist {
			hist[i] /= n
		}
	}
	if g.N > 1 {
		density = 2 * e / (n * (n - 1))
	}
	_, comps := g.Components()
	out := []float64{n, e, meanDeg, float64(maxDeg), density}
	out = append(out, hist...)
	return append(out, float64(comps), e-n+float64(comps), float64(triangles(adj)))
}

// triangles counts each triangle u < v < w once, by intersecting the
// sorted neighbour lists of the ends of each edge u < v above v.
func triangles(adj [][]int) int {
	count := 0
	for u, nu := range adj {
		for _, v := range nu {
			if v <= u {
				continue
			}
			a, b := nu, adj[v]
			i, j := 0, 0
			for i < len(a) && j < len(b) {
				switch {
				case a[i] < b[j]:
					i++
				case a[i] > b[j]:
					j++
				default:
					if a[i] > v {
						count++
					}
					i++
					j++
				}
			}
		}
	}
	return count
}

// All returns Of for every graph.
func All(graphs []*graph.Graph) [][]float64 {
	out := make([][]float64, len(graphs))
	for i, g := range graphs {
		out[i] = Of(g)
	}
	return out
}

// Scaler standardises feature vectors with a training set's statistics.
type Scaler struct {
	Mean, Std []float64
}

// Fit takes the mean and population standard deviation of every feature
// over rows[i] for i in train. A constant feature gets Std 1, so it
// standardises to 0 instead of dividing by zero.
func Fit(rows [][]float64, train []int) (Scaler, error) {
	if len(train) == 0 {
		return Scaler{}, fmt.Errorf("graphstats: no training samples")
	}
	d := len(rows[train[0]])
	s := Scaler{Mean: make([]float64, d), Std: make([]float64, d)}
	col := make([]float64, len(train))
	for k := range d {
		for i, t := range train {
			if len(rows[t]) != d {
				return Scaler{}, fmt.Errorf("graphstats: sample %d has %d features, sample %d has %d", t, len(rows[t]), train[0], d)
			}
			col[i] = rows[t][k]
		}
		s.Mean[k], s.Std[k] = stat.PopMeanStdDev(col, nil)
		if s.Std[k] == 0 {
			s.Std[k] = 1
		}
	}
	return s, nil
}

// Apply returns x standardised: (x_k - Mean_k) / Std_k.
func (s Scaler) Apply(x []float64) []float64 {
	out := make([]float64, len(x))
	for k, v := range x {
		out[k] = (v - s.Mean[k]) / s.Std[k]
	}
	return out
}
