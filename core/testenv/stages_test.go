package testenv_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"wkpi-web/core/testenv"
)

// core is the import path prefix of the pipeline's packages.
const core = "wkpi-web/core/"

// stages orders the packages of core/ as data flows through them: graph
// -> filtration -> persistence -> image -> kernel/learning -> svm ->
// eval, with the leaves every stage may use first (progress; crossval:
// labels and sample indices only; spec: the user settings; wire: the
// plain result types the page shows) and the comparison with the
// baselines, which runs WKPI's evaluation among them, last. A package
// may import packages of its own stage or of earlier ones, never of a
// later one. A new package of core/ must be placed here.
var stages = [][]string{
	{"progress", "crossval", "testenv", "spec", "wire"},
	{"graph", "tu", "swc", "graphfile", "smiles", "dataset", "scaffold"},
	{"filtration"},
	{"persistence"},
	{"pimage", "features", "graphstats"},
	{"kernel", "learn", "pdkernel", "wl", "fingerprint"},
	{"svm", "model", "explain"},
	{"eval"},
	{"compare"},
}

// goList runs `go list args...` in the module root and returns its lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	goTool, err := exec.LookPath("go") // go test puts GOROOT/bin first in PATH
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	cmd := exec.Command(goTool, append([]string{"list"}, args...)...)
	cmd.Dir = testenv.RepoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if e, ok := err.(*exec.ExitError); ok {
			stderr = e.Stderr
		}
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return strings.Fields(string(out))
}

// coreDeps is the packages of core/ that pkg (a folder under core/)
// depends on, directly or not, itself left out.
func coreDeps(t *testing.T, pkg string) []string {
	var deps []string
	for _, p := range goList(t, "-deps", "./core/"+pkg) {
		if name, ok := strings.CutPrefix(p, core); ok && name != pkg {
			deps = append(deps, name)
		}
	}
	return deps
}

func TestStageOrder(t *testing.T) {
	stage := map[string]int{}
	for i, names := range stages {
		for _, n := range names {
			stage[n] = i
		}
	}
	// One line per package: its path, then its direct imports.
	lines := goList(t, "-f", `{{.ImportPath}}{{range .Imports}},{{.}}{{end}}`, "./core/...")
	seen := map[string]bool{}
	for _, line := range lines {
		fields := strings.Split(line, ",")
		pkg, ok := strings.CutPrefix(fields[0], core)
		if !ok {
			t.Fatalf("go list: %q is not under %s", fields[0], core)
		}
		seen[pkg] = true
		s, known := stage[pkg]
		if !known {
			t.Errorf("core/%s is in no stage: place it in stages", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			dep, ok := strings.CutPrefix(imp, core)
			if !ok {
				continue
			}
			if d, known := stage[dep]; known && d > s {
				t.Errorf("core/%s (stage %d) imports core/%s of the later stage %d", pkg, s, dep, d)
			}
		}
	}
	for n := range stage {
		if !seen[n] {
			t.Errorf("stages name core/%s, which go list does not find", n)
		}
	}
}

// crossval is a generic leaf: labels and sample indices only, so of core/
// it may use progress and the plain result types of wire alone (its
// doc.go says so).
func TestCrossvalIsALeaf(t *testing.T) {
	if deps := coreDeps(t, "crossval"); !slices.Equal(deps, []string{"progress", "wire"}) {
		t.Errorf("core/crossval depends on core/%v, want core/progress and core/wire alone", deps)
	}
}

// eval is WKPI's evaluation; compare runs it among the baselines, never
// the other way round.
func TestEvalDoesNotImportCompare(t *testing.T) {
	deps := coreDeps(t, "eval")
	if slices.Contains(deps, "compare") {
		t.Errorf("core/eval depends on core/compare (its core deps: %v)", deps)
	}
	if !slices.Contains(deps, "crossval") {
		t.Errorf("core/eval does not use core/crossval (its core deps: %v)", deps)
	}
}
