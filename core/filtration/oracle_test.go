package filtration

import (
	"path/filepath"
	"testing"
	"wkpi-web/core/testenv"
)

// runOracle feeds in as JSON to the Python script testdata/<script> and
// decodes its JSON answer into out.
func runOracle(t *testing.T, py, script string, in, out any) {
	t.Helper()
	testenv.RunJSON(t, py, []string{filepath.Join("testdata", script)}, in, out)
}
