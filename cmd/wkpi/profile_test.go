package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wkpi-web/core/testenv"
)

// TestProfiles: -cpuprofile and -memprofile write pprof files (gzipped
// protocol buffers) for a command that reads a dataset, are listed in
// the help's output group, and a profile that cannot be created is an
// error that names its flag.
func TestProfiles(t *testing.T) {
	dir := testenv.Dataset(t, "MUTAG")
	tmp := t.TempDir()
	cpu, mem := filepath.Join(tmp, "cpu.prof"), filepath.Join(tmp, "mem.prof")
	code, _, stderr := wkpi(t, "images", "-data", dir, "-extra", "none", "-rows", "10", "-out", filepath.Join(tmp, "images.json"), "-cpuprofile", cpu, "-memprofile", mem)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, path := range []string{cpu, mem} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
			t.Errorf("%s: %d bytes, not a gzipped profile", filepath.Base(path), len(data))
		}
	}
	code, _, stderr = wkpi(t, "images", "-data", dir, "-extra", "none", "-rows", "10", "-out", filepath.Join(tmp, "images.json"), "-cpuprofile", filepath.Join(tmp, "no", "cpu.prof"))
	if code != 1 || !strings.Contains(stderr, "-cpuprofile") {
		t.Errorf("profile in a missing folder: exit %d, stderr %q", code, stderr)
	}
	_, _, help := wkpi(t, "eval", "-h")
	out := help[strings.Index(help, "Output:"):]
	out = out[:strings.Index(out, "\n\n")]
	for _, flag := range []string{"-cpuprofile", "-memprofile"} {
		if !strings.Contains(out, flag) {
			t.Errorf("eval -h: %s not in the output group:\n%s", flag, out)
		}
	}
}
