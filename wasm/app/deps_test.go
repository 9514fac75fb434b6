package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"wkpi-web/core/testenv"
)

// TestPageLinksNoPipeline: the page's binary (GOOS=js GOARCH=wasm) links
// the UI, the pool and the protocol's plain types, and nothing of the
// pipeline: no package of core (the workers run it) but the leaves (the
// settings spec, the result types and progress, of the standard library
// alone), and
// no gonum. Every first visit
// downloads this binary.
func TestPageLinksNoPipeline(t *testing.T) {
	touchSources(t)
	deps := strings.Fields(testenv.GoWasm(t, "list", "-deps", "."))
	var own, bad []string
	for _, p := range deps {
		if strings.HasPrefix(p, "wkpi-web/") {
			own = append(own, p)
		}
		if (strings.HasPrefix(p, "wkpi-web/core/") && !slices.Contains(leaves, p)) || strings.HasPrefix(p, "gonum.org/") {
			bad = append(bad, p)
		}
	}
	if len(bad) > 0 {
		t.Errorf("the page links %d packages of the pipeline: %s", len(bad), strings.Join(bad, " "))
	}
	// The list is not empty by accident: the page's own packages are in it.
	for _, want := range []string{"wkpi-web/app", "wkpi-web/wasm/protocol", "wkpi-web/wasm/pool", "wkpi-web/wasm/app", "wkpi-web/core/spec", "wkpi-web/core/wire"} {
		if !strings.Contains(" "+strings.Join(own, " ")+" ", " "+want+" ") {
			t.Errorf("%s is not among the page's packages %v", want, own)
		}
	}
}

// leaves are the packages of core/ that the page links: the settings spec,
// the plain result types, and progress (a job's stages and the monotone
// share and time left that the Train tab's bar shows, merged over its
// jobs).
var leaves = []string{"wkpi-web/core/spec", "wkpi-web/core/wire", "wkpi-web/core/progress"}

// TestLeavesAreLeaves: the packages of core/ the page links import the
// standard library alone.
func TestLeavesAreLeaves(t *testing.T) {
	for _, leaf := range leaves {
		for _, p := range strings.Fields(testenv.GoWasm(t, "list", "-f", `{{join .Imports " "}}`, leaf)) {
			if strings.Contains(p, ".") || strings.HasPrefix(p, "wkpi-web/") {
				t.Errorf("%s imports %s", leaf, p)
			}
		}
	}
}

// touchSources looks at every Go file and folder of the module: go test
// reuses a cached pass until a file the test opened changes, and it does
// not see what go list reads.
func touchSources(t *testing.T) {
	t.Helper()
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != "../.." && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "data" || name == "testdata") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(name, ".go") || name == "go.mod" || name == "go.sum" {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
