package kernel

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"wkpi-web/core/testenv"
)

// TestVectorLoopsWasm runs the tests of the vector loops (TestSubTermsBits,
// TestCommonMatches, TestDivergencesBits, TestDots2Bits,
// TestDifferencesBits: each against the Go loop, bit for bit) compiled for WebAssembly with terms_wasm.wat's loops (-tags
// wkpisimd), under Node, loaded by public/kernel.js as the Web Worker
// loads them.
func TestVectorLoopsWasm(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary for WebAssembly")
	}
	node := testenv.Tool(t, "node", "Debian: apt-get install nodejs")
	wat := testenv.Tool(t, "wat2wasm", "Debian: apt-get install wabt")
	goTool := testenv.Tool(t, "go", "go test puts GOROOT/bin first in PATH")
	dir := t.TempDir()
	kernelWasm, testWasm := filepath.Join(dir, "kernel.wasm"), filepath.Join(dir, "kernel.test.wasm")
	run := func(cmd *exec.Cmd) string {
		t.Helper()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
		}
		return string(out)
	}
	run(exec.Command(wat, "terms_wasm.wat", "-o", kernelWasm))
	testenv.GoWasm(t, "test", "-c", "-tags", "wkpisimd", "-o", testWasm, ".")
	goroot := strings.TrimSpace(run(exec.Command(goTool, "env", "GOROOT")))
	out := run(exec.Command(node, "--stack-size=8192", "testdata/wasm_exec_kernel.js", filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"),
		kernelWasm, testWasm, "-test.v", "-test.run", "^(TestSubTermsBits|TestCommonMatches|TestDivergencesBits|TestDots2Bits|TestDifferencesBits)$"))
	t.Log(out)
	// Proof that the module's loops ran, not the Go loops beside them.
	if !strings.Contains(out, "vector unit: true") {
		t.Errorf("the WebAssembly build ran without its vector loops")
	}
	for _, name := range []string{"TestSubTermsBits", "TestCommonMatches", "TestDivergencesBits", "TestDots2Bits", "TestDifferencesBits"} {
		if !strings.Contains(out, "--- PASS: "+name+" ") {
			t.Errorf("%s did not pass under WebAssembly", name)
		}
	}
}
