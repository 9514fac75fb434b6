package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// Golden compares got with the golden file at path, after writing got
// there when update is set (a test's -update flag, for a change of
// figures that is meant), and fails the test showing both when they
// differ.
func Golden(tb testing.TB, path string, got []byte, update bool) {
	tb.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if string(got) != string(want) {
		tb.Errorf("now\n%.3000s\nwhere it gave (%s)\n%.3000s", got, path, want)
	}
}
