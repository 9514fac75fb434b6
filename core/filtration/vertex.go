package filtration

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"wkpi-web/core/graph"
)

// Degree returns the number of neighbours of every vertex.
func Degree(g *graph.Graph) []float64 {
	deg := make([]float64, g.N)
	for _, e := range g.Edges {
		deg[e.U]++
		deg[e.V]++
	}
	return deg
}

// HeatKernelSignature returns HKS(v, t), the diagonal of exp(-tL) for the
// normalised Laplacian L of g (see the package documentation), for t >= 0.
// If the eigendecomposition fails every value is NaN.
func HeatKernelSignature(g *graph.Graph, t float64) []float64 {
	// Rough flop counts: the Chebyshev recurrence costs terms*(2m+n)*n, a
	// dense eigendecomposition with vectors about 10n^3. The comparison is
	// false for a NaN, negative or infinite t, which the eigenvalues handle.
	if chebyshevNodes(t)*float64(2*len(g.Edges)+g.N) < 10*float64(g.N)*float64(g.N) {
		return hksChebyshev(g, t)
	}
	return hksEigen(g, t)
}

// hksEigen sums exp(-t lambda_i) phi_i(v)^2 over an eigendecomposition.
func hksEigen(g *graph.Graph, t float64) []float64 {
	hks := make([]float64, g.N)
	if g.N == 0 {
		return hks
	}
	var eig mat.EigenSym
	if !eig.Factorize(normalisedLaplacian(g), true) {
		for v := range hks {
			hks[v] = math.NaN()
		}
		return hks
	}
	var phi mat.Dense
	eig.VectorsTo(&phi)
	for i, lambda := range eig.Values(nil) {
		heat := math.Exp(-t * lambda)
		for v := range hks {
			p := phi.At(v, i)
			hks[v] += heat * p * p
		}
	}
	return hks
}

// normalisedLaplacian is L = I - D^-1/2 A D^-1/2 as a dense matrix, with
// a zero row and column for an isolated vertex.
func normalisedLaplacian(g *graph.Graph) *mat.SymDense {
	deg := Degree(g)
	lap := mat.NewSymDense(max(g.N, 1), nil)
	for v, d := range deg {
		if d > 0 {
			lap.SetSym(v, v, 1)
		}
	}
	for _, e := range g.Edges {
		lap.SetSym(e.U, e.V, -1/math.Sqrt(deg[e.U]*deg[e.V]))
	}
	return lap
}

// hksChebyshev evaluates diag exp(-tL) as sum_k c_k diag T_k(Y) for
// Y = L - I, whose spectrum lies in [-1, 1], with the three-term recurrence
// T_{k+1}(Y) = 2Y T_k(Y) - T_{k-1}(Y) applied to the identity. Y has the
// sparsity of the graph, so large sparse graphs avoid the O(n^3)
// eigendecomposition (PROTEINS has graphs of up to 620 nodes).
func hksChebyshev(g *graph.Graph, t float64) []float64 {
	n := g.N
	rows := shiftedLaplacian(g)
	c := expChebyshev(t)
	hks := make([]float64, n)
	prev := make([]float64, n*n) // T_{k-1}(Y), row-major
	cur := make([]float64, n*n)  // T_k(Y)
	for v := range n {
		prev[v*n+v] = 1
		for _, x := range rows[v] {
			cur[v*n+x.col] = x.w
		}
		hks[v] = c[0]/2 + c[1]*cur[v*n+v]
	}
	for k := 2; k < len(c); k++ {
		// prev becomes T_k: row v needs only its own old row.
		for v := range n {
			row := prev[v*n : (v+1)*n]
			floats.Scale(-1, row)
			for _, x := range rows[v] {
				floats.AddScaled(row, 2*x.w, cur[x.col*n:(x.col+1)*n])
			}
			hks[v] += c[k] * row[v]
		}
		prev, cur = cur, prev
	}
	return hks
}

// entry is a non-zero of a sparse matrix row.
type entry struct {
	col int
	w   float64
}

// shiftedLaplacian returns the rows of Y = L - I for the normalised
// Laplacian L of g: off-diagonal -1/sqrt(du dv); diagonal 0, or -1 on an
// isolated vertex (whose row of L is zero).
func shiftedLaplacian(g *graph.Graph) [][]entry {
	deg := Degree(g)
	rows := make([][]entry, g.N)
	for _, e := range g.Edges {
		w := -1 / math.Sqrt(deg[e.U]*deg[e.V])
		rows[e.U] = append(rows[e.U], entry{e.V, w})
		rows[e.V] = append(rows[e.V], entry{e.U, w})
	}
	for v, d := range deg {
		if d == 0 {
			rows[v] = append(rows[v], entry{v, -1})
		}
	}
	return rows
}

// chebyshevNodes is the number N of Chebyshev nodes expChebyshev uses, an
// upper bound on its number of terms. The coefficients are 2 e^-t I_k(t),
// which fall below 1e-17 by k = 33 at t = 10 and k ~ sqrt(70 t) for large
// t, so N = 32 + sqrt(100 t) leaves the aliasing error below that cut.
func chebyshevNodes(t float64) float64 {
	return 32 + math.Ceil(math.Sqrt(100*t))
}

// expChebyshev returns the Chebyshev coefficients c_0..c_K of
// f(y) = exp(-t(1+y)) on [-1, 1] (f = c_0/2 + sum c_k T_k), computed at
// chebyshevNodes(t) nodes and cut after the last coefficient above 1e-17,
// for a finite t >= 0. It returns at least two.
func expChebyshev(t float64) []float64 {
	nodes := int(chebyshevNodes(t))
	f := make([]float64, nodes)
	for j := range f {
		f[j] = math.Exp(-t * (1 + math.Cos(math.Pi*(float64(j)+0.5)/float64(nodes))))
	}
	c := make([]float64, nodes)
	last := 1
	for k := range c {
		for j, fj := range f {
			c[k] += fj * math.Cos(math.Pi*float64(k)*(float64(j)+0.5)/float64(nodes))
		}
		c[k] *= 2 / float64(nodes)
		if math.Abs(c[k]) > 1e-17 {
			last = max(last, k)
		}
	}
	return c[:last+1]
}
