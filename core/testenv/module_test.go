package testenv_test

import (
	"os/exec"
	"testing"

	"wkpi-web/core/testenv"
)

// TestModuleTidy: go.mod and go.sum say exactly what the code imports
// (`go mod tidy -diff` prints nothing), so a requirement marked indirect
// is one no package of ours imports.
func TestModuleTidy(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	cmd := exec.Command(goTool, "mod", "tidy", "-diff")
	cmd.Dir = testenv.RepoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("go mod tidy -diff: %v\n%s", err, out)
	}
}
