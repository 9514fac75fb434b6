package testenv

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"
)

// Prediction is one line of `wkpi predict -json`.
type Prediction struct {
	File     string    `json:"file"`
	Graph    int       `json:"graph"`
	Name     string    `json:"name"`
	Class    string    `json:"class"`
	Decision []float64 `json:"decision"`
	Points   int       `json:"points"`
}

// WkpiPredict runs `wkpi predict -json -model model files...` (go run of
// the repository's cmd/wkpi, the oracle of the app's and the worker's
// classifications) and returns its lines; a failure shows its stderr.
func WkpiPredict(tb testing.TB, model string, files ...string) []Prediction {
	tb.Helper()
	args := append([]string{"run", filepath.Join(RepoRoot(tb), "cmd", "wkpi"), "predict", "-json", "-model", model}, files...)
	cmd := exec.Command("go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("wkpi predict: %v\n%s", err, stderr.Bytes())
	}
	var preds []Prediction
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p Prediction
		if err := dec.Decode(&p); err != nil {
			tb.Fatalf("wkpi predict: %v", err)
		}
		preds = append(preds, p)
	}
	return preds
}

// BuildWkpi builds the repository's cmd/wkpi into a temporary directory
// and returns the binary's path, for tests that time it (go run would
// time the compiler too).
func BuildWkpi(tb testing.TB) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "wkpi")
	cmd := exec.Command("go", "build", "-o", bin, filepath.Join(RepoRoot(tb), "cmd", "wkpi"))
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build ./cmd/wkpi: %v\n%s", err, out)
	}
	return bin
}
