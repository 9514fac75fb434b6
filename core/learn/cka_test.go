package learn

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"wkpi-web/core/kernel"
	"wkpi-web/core/testenv"
)

// randomGrams returns m symmetric positive semi-definite n x n matrices
// (Gram matrices of random feature vectors) and labels in k classes.
func randomGrams(seed uint64, m, n, k int) ([][][]float64, []int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	labels := make([]int, n)
	for i := range labels {
		labels[i] = i % k
	}
	grams := make([][][]float64, m)
	for r := range grams {
		feats := make([][]float64, n)
		for i := range feats {
			feats[i] = make([]float64, 4)
			for d := range feats[i] {
				feats[i][d] = rng.NormFloat64() + float64(labels[i]*(r%2))
			}
		}
		grams[r] = make([][]float64, n)
		for i := range grams[r] {
			grams[r][i] = make([]float64, n)
			for j := range grams[r][i] {
				for d := range feats[i] {
					grams[r][i][j] += feats[i][d] * feats[j][d]
				}
			}
		}
	}
	return grams, labels
}

// TestAlignmentNumPy checks A(W) against NumPy computing the centred
// alignment from its definition with the combined Gram matrix.
func TestAlignmentNumPy(t *testing.T) {
	py := testenv.Python(t, "numpy")
	for _, k := range []int{2, 3} {
		grams, labels := randomGrams(uint64(k), 3, 13, k)
		w := []float64{0.7, 1.3, 0.4}
		script := `
import json, sys, numpy as np
d = json.load(sys.stdin)
G = np.array(d["grams"]); y = np.array(d["labels"]); w = np.array(d["w"])
K = np.tensordot(w, G, axes=1)
n = len(y); H = np.eye(n) - np.ones((n, n)) / n
Y = (y[:, None] == y[None, :]).astype(float)
Kc, Yc = H @ K @ H, H @ Y @ H
print(json.dumps((Kc * Yc).sum() / np.linalg.norm(Kc) / np.linalg.norm(Yc)))
`
		var want float64
		testenv.RunJSON(t, py, []string{"-c", script}, map[string]any{"grams": grams, "labels": labels, "w": w}, &want)
		al, err := NewAlignment(grams, labels)
		if err != nil {
			t.Fatal(err)
		}
		if got := al.Value(w, nil); math.Abs(got-want) > 1e-12 {
			t.Errorf("%d classes: A = %.15g, NumPy %.15g", k, got, want)
		}
	}
}

// TestAlignmentGradientFD checks dA/dW and the objective's df/du against
// central differences.
func TestAlignmentGradientFD(t *testing.T) {
	grams, labels := randomGrams(5, 4, 11, 2)
	al, err := NewAlignment(grams, labels)
	if err != nil {
		t.Fatal(err)
	}
	w := []float64{0.5, 1.5, 0.8, 1.1}
	grad := make([]float64, len(w))
	al.Value(w, grad)
	const h = 1e-6
	for r := range w {
		wp, wm := append([]float64(nil), w...), append([]float64(nil), w...)
		wp[r] += h
		wm[r] -= h
		fd := (al.Value(wp, nil) - al.Value(wm, nil)) / (2 * h)
		if math.Abs(fd-grad[r]) > 1e-7*math.Max(1, math.Abs(fd)) {
			t.Errorf("dA/dW_%d = %v, finite difference %v", r, grad[r], fd)
		}
	}
	u := []float64{0.1, -0.4, 0.3, 0}
	w0 := []float64{1, 2, 0.5, 1}
	g := make([]float64, len(u))
	AlignmentObjective(al, u, w0, 0.7, g)
	for r := range u {
		up, um := append([]float64(nil), u...), append([]float64(nil), u...)
		up[r] += h
		um[r] -= h
		fd := (AlignmentObjective(al, up, w0, 0.7, nil) - AlignmentObjective(al, um, w0, 0.7, nil)) / (2 * h)
		if math.Abs(fd-g[r]) > 1e-7*math.Max(1, math.Abs(fd)) {
			t.Errorf("df/du_%d = %v, finite difference %v", r, g[r], fd)
		}
	}
}

// TestFitAlignmentPicksInformativeComponent: components 1 and 3 see the
// classes (their features shift with the label), 0 and 2 are noise, so
// maximising the alignment must raise it and move weight to 1 and 3.
func TestFitAlignmentPicksInformativeComponent(t *testing.T) {
	grams, labels := randomGrams(9, 4, 40, 2)
	al, err := NewAlignment(grams, labels)
	if err != nil {
		t.Fatal(err)
	}
	init := kernel.Mixture{X: []float64{0, 1, 2, 3}, Y: []float64{0, 1, 2, 3}, Sigma: []float64{1, 1, 1, 1}, W: []float64{1, 1, 1, 1}}
	o := DefaultOptions()
	o.Prior = 0
	mix, trace, err := FitAlignment(context.Background(), al, init, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	before, after := al.Value(init.W, nil), al.Value(mix.W, nil)
	if !(after > before) || trace.Cost[len(trace.Cost)-1] > trace.Cost[0] {
		t.Errorf("alignment %v -> %v, cost %v", before, after, trace.Cost)
	}
	if mix.W[1]+mix.W[3] <= mix.W[0]+mix.W[2] {
		t.Errorf("weights %v: the informative components 1 and 3 did not gain", mix.W)
	}
	if mix.X[2] != init.X[2] || mix.Sigma[0] != init.Sigma[0] {
		t.Error("FitAlignment moved a centre or a width")
	}
}
