package wl

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"

	"wkpi-web/core/graph"
	"wkpi-web/core/kernel"
	"wkpi-web/core/progress"
)

// Options choose the kernel.
type Options struct {
	// Iterations is h, the number of relabelling rounds (0: the
	// label-count kernel).
	Iterations int `json:"iterations"`
	// NodeLabels starts from the graphs' node labels instead of one
	// label for all nodes.
	NodeLabels bool `json:"node_labels"`
}

// Vector is a sparse feature vector: Value[k] at coordinate Index[k],
// Index strictly increasing.
type Vector struct {
	Index []int
	Value []float64
}

// Dot is the dot product of two sparse vectors.
func (v Vector) Dot(w Vector) float64 {
	var s float64
	i, j := 0, 0
	for i < len(v.Index) && j < len(w.Index) {
		switch a, b := v.Index[i], w.Index[j]; {
		case a < b:
			i++
		case a > b:
			j++
		default:
			s += v.Value[i] * w.Value[j]
			i++
			j++
		}
	}
	return s
}

// Features returns each graph's label-count vector over iterations
// 0..o.Iterations, with one label dictionary for all the graphs.
func Features(graphs []*graph.Graph, o Options) ([]Vector, error) {
	if o.Iterations < 0 {
		return nil, fmt.Errorf("wl: %d iterations, want at least 0", o.Iterations)
	}
	dict := map[string]int{}
	id := func(key string) int {
		l, ok := dict[key]
		if !ok {
			l = len(dict)
			dict[key] = l
		}
		return l
	}
	labels := make([][]int, len(graphs))
	adj := make([][][]int, len(graphs))
	for g, gr := range graphs {
		if o.NodeLabels && gr.NodeLabels == nil && gr.N > 0 {
			return nil, fmt.Errorf("wl: graph %d has no node labels", g)
		}
		adj[g] = gr.Neighbors()
		labels[g] = make([]int, gr.N)
		for v := range labels[g] {
			key := "\x00" // iteration 0, structure only: one label
			if o.NodeLabels {
				key += gr.NodeLabels[v]
			}
			labels[g][v] = id(key)
		}
	}
	counts := make([]map[int]float64, len(graphs))
	for g := range graphs {
		counts[g] = map[int]float64{}
		for _, l := range labels[g] {
			counts[g][l]++
		}
	}
	var buf, nb []int
	var key []byte
	for range o.Iterations {
		next := make([][]int, len(graphs))
		for g := range graphs {
			next[g] = make([]int, len(labels[g]))
			for v, l := range labels[g] {
				// The signature: iteration marker, own label, sorted
				// neighbour labels, as varints (a compact, collision-free
				// encoding of the multiset).
				nb = nb[:0]
				for _, u := range adj[g][v] {
					nb = append(nb, labels[g][u])
				}
				slices.Sort(nb)
				buf = append(append(buf[:0], l), nb...)
				key = append(key[:0], 1)
				for _, x := range buf {
					key = binary.AppendUvarint(key, uint64(x))
				}
				next[g][v] = id(string(key))
				counts[g][next[g][v]]++
			}
		}
		labels = next
	}
	out := make([]Vector, len(graphs))
	for g, c := range counts {
		v := Vector{Index: make([]int, 0, len(c))}
		for l := range c {
			v.Index = append(v.Index, l)
		}
		slices.Sort(v.Index)
		v.Value = make([]float64, len(v.Index))
		for k, l := range v.Index {
			v.Value[k] = c[l]
		}
		out[g] = v
	}
	return out, nil
}

// Gram is the n x n matrix of dot products of vecs. Rows run in
// parallel; progress stage "wl".
func Gram(ctx context.Context, vecs []Vector, prog progress.Func) ([][]float64, error) {
	n := len(vecs)
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, n)
	}
	tick := prog.Counter("wl", n)
	err := rows(ctx, n, func(i int) {
		for j := i; j < n; j++ {
			out[i][j] = vecs[i].Dot(vecs[j])
		}
		tick()
	})
	if err != nil {
		return nil, err
	}
	kernel.Symmetrize(out)
	return out, nil
}

// Cross is the len(rows) x len(cols) matrix of dot products.
func Cross(ctx context.Context, rowVecs, colVecs []Vector, prog progress.Func) ([][]float64, error) {
	out := make([][]float64, len(rowVecs))
	tick := prog.Counter("wl", len(rowVecs))
	err := rows(ctx, len(rowVecs), func(i int) {
		out[i] = make([]float64, len(colVecs))
		for j := range colVecs {
			out[i][j] = rowVecs[i].Dot(colVecs[j])
		}
		tick()
	})
	return out, err
}

// rows runs f on rows 0..n-1 split over kernel.Parts goroutines,
// interleaved so that the triangular Gram's parts cost the same.
func rows(ctx context.Context, n int, f func(i int)) error {
	parts := kernel.Parts(n)
	return kernel.Parallel(parts, func(p int) error {
		for i := p; i < n; i += parts {
			if err := ctx.Err(); err != nil {
				return err
			}
			f(i)
		}
		return nil
	})
}
