package main

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"wkpi-web/core/testenv"
)

// TestLinksNoTraining: the classifier program (GOOS=js GOARCH=wasm) links
// no code of training, cross-validation or the baselines, which is what
// makes it a smaller download than the full worker. cmd/wasmsize reads
// the bytes of code per package from the binary's name section; a package
// the jobs import keeps its initialisation (about a kilobyte), so the
// bound is 4 KB. A type of the full Worker converted to an interface, for
// one, would bring the training code back (jobs.Serve says why).
func TestLinksNoTraining(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the classifier program")
	}
	bin := filepath.Join(t.TempDir(), "classifier.wasm")
	testenv.GoWasm(t, "build", "-trimpath", "-tags", "wkpisimd", "-o", bin, ".")
	out, err := exec.Command("go", "run", "../../cmd/wasmsize", "-top", "0", "-q", "1", bin).Output()
	if err != nil {
		t.Fatalf("wasmsize: %v", err)
	}
	code := map[string]int{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 3 {
			code[f[0]], _ = strconv.Atoi(f[1])
		}
	}
	for _, pkg := range []string{"wkpi_web_core_eval", "wkpi_web_core_learn", "wkpi_web_core_crossval", "wkpi_web_core_compare", "wkpi_web_core_pdkernel", "wkpi_web_core_wl", "gonum.org_v1_gonum_optimize"} {
		if code[pkg] > 4096 {
			t.Errorf("the classifier program links %d bytes of %s's code", code[pkg], pkg)
		}
	}
	// The table is read right: prediction and explanation are in it.
	for _, pkg := range []string{"wkpi_web_core_model", "wkpi_web_core_explain", "wkpi_web_core_kernel"} {
		if code[pkg] < 10_000 {
			t.Errorf("%s has %d bytes of code in the classifier program: is the table read right?\n%s", pkg, code[pkg], out)
		}
	}
}
