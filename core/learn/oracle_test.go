package learn

import (
	"context"
	"encoding/json"
	"math"
	"os/exec"
	"strings"
	"testing"

	"wkpi-web/core/kernel"
	"wkpi-web/core/testenv"
)

// TestTotalCostNumPy checks the fast-path TC against an independent NumPy
// computation from the images: the pairwise D_w^2 matrix by broadcasting,
// then the ratio of class sums.
func TestTotalCostNumPy(t *testing.T) {
	py := testenv.Python(t, "numpy")
	images, labels, centres, _ := synth(6, 18, 6)
	const sigma = 0.4
	mix := kernel.Mixture{X: []float64{0.2, 0.8}, Y: []float64{0.3, 0.6}, Sigma: []float64{0.3, 0.5}, W: []float64{1, 0.5}}
	w := mix.PixelWeights(centres)
	in, _ := json.Marshal(map[string]any{"images": images, "labels": labels, "w": w, "sigma": sigma})
	script := `
import json, sys, numpy as np
d = json.load(sys.stdin)
I = np.array(d["images"]); y = np.array(d["labels"]); w = np.array(d["w"]); s = d["sigma"]
diff = I[:, None, :] - I[None, :, :]
D = ((2 - 2 * np.exp(-diff ** 2 / (2 * s * s))) * w).sum(axis=2)
tc = sum(D[np.ix_(y == t, y == t)].sum() / D[y == t, :].sum() for t in np.unique(y))
print(json.dumps(tc))
`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	var want float64
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	sums, err := NewPairSums(context.Background(), images, labels, nil, 1, sigma, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := sums.Training(-1)
	if got := TotalCost(a, b, w); math.Abs(got-want) > 1e-12*math.Max(1, want) {
		t.Errorf("TotalCost = %.15g, NumPy %.15g", got, want)
	}
}
