package learn

import (
	"context"
	"math"
	"testing"

	"wkpi-web/core/kernel"
	"wkpi-web/core/pimage"
	"wkpi-web/core/testenv"
)

// TestObjectiveNumPy checks the fast-path TC and the whole objective (TC,
// the paper's penalty, the contrast barrier and the prior) against NumPy
// computing each term
// from its definition: D_w^2 over all pairs of images, the mean pairwise
// D^2 for the barrier, and the prior from the two mixtures.
func TestObjectiveNumPy(t *testing.T) {
	py := testenv.Python(t, "numpy")
	images, labels, centres, _ := synth(7, 16, 6)
	const sigma = 0.3
	mix := kernel.Mixture{X: []float64{0.2, 0.8, 0.5}, Y: []float64{0.3, 0.6, 0.9}, Sigma: []float64{0.3, 0.5, 0.2}, W: []float64{1, 0.5, 1.5}}
	anchor := kernel.Mixture{X: []float64{0.1, 0.7, 0.5}, Y: []float64{0.4, 0.6, 0.2}, Sigma: []float64{0.25, 0.5, 0.4}, W: []float64{1, 1, 1}}
	const penalty, contrast, prior = 0.5, 0.2, 0.7
	in := map[string]any{"images": images, "labels": labels, "centres": centres, "sigma": sigma,
		"mix": mix, "anchor": anchor, "penalty": penalty, "contrast": contrast, "prior": prior}
	script := `
import json, sys, numpy as np
d = json.load(sys.stdin)
I = np.array(d["images"]); y = np.array(d["labels"]); C = np.array(d["centres"]); s = d["sigma"]
def mixture(m):
    return [np.array(m[k]) for k in ("x", "y", "sigma", "w")]
X, Y, S, W = mixture(d["mix"]); X0, Y0, S0, W0 = mixture(d["anchor"])
w = sum(W[r] * np.exp(-((C[:, 0] - X[r]) ** 2 + (C[:, 1] - Y[r]) ** 2) / S[r] ** 2) for r in range(len(W)))
M = 2 - 2 * np.exp(-(I[:, None, :] - I[None, :, :]) ** 2 / (2 * s * s))
D = (M * w).sum(axis=2)
tc = sum(D[np.ix_(y == t, y == t)].sum() / D[y == t, :].sum() for t in np.unique(y))
pen = d["penalty"] * np.exp(-W).sum()
# Barrier: mean pairwise D^2 of the sum-1 weights over the largest pixel sum.
bar = -d["contrast"] * np.log(D.sum() / w.sum() / M.sum(axis=(0, 1)).max())
L = max(np.ptp(C[:, 0]), np.ptp(C[:, 1]))
pri = d["prior"] / len(W) * (((X - X0) / L) ** 2 + ((Y - Y0) / L) ** 2 + np.log(S / S0) ** 2 + np.log(W / W0) ** 2).sum()
print(json.dumps([tc, tc + pen + bar + pri]))
`
	var want [2]float64
	testenv.RunJSON(t, py, []string{"-c", script}, in, &want)
	sums, err := NewPairSums(context.Background(), pimage.SparseAll(images), labels, nil, 1, sigma, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := sums.Training(-1)
	if got := TotalCost(a, b, mix.PixelWeights(centres)); math.Abs(got-want[0]) > 1e-12*math.Max(1, want[0]) {
		t.Errorf("TotalCost = %.15g, NumPy %.15g", got, want[0])
	}
	prob := Problem{A: a, B: b, Centres: centres, Penalty: penalty, Contrast: contrast, Prior: prior, Anchor: anchor}
	if got := prob.Objective(mix, nil); math.Abs(got-want[1]) > 1e-11*math.Max(1, math.Abs(want[1])) {
		t.Errorf("Objective = %.15g, NumPy %.15g", got, want[1])
	}
}
