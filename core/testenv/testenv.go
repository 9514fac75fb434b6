package testenv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// RepoRoot walks up from the working directory to the folder with go.mod.
func RepoRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Dataset returns the folder of a TU dataset (MUTAG, PTC_MR, NCI1,
// PROTEINS) or of neurons-sample under data/, failing the test with a
// hint when `make data` has not run.
func Dataset(tb testing.TB, name string) string {
	tb.Helper()
	dir := filepath.Join(RepoRoot(tb), "data", name)
	if _, err := os.Stat(dir); err != nil {
		tb.Fatalf("dataset %s missing at %s: run `make data` first", name, dir)
	}
	return dir
}

// Python returns a python3 interpreter that imports every module named,
// preferring Debian's /usr/bin/python3 (where apt installs python3-numpy,
// -sklearn, -gudhi, -pot). When none does, the test is skipped with a
// message naming the missing packages, or fails under CI=true, where
// .ci/run must have installed them.
func Python(tb testing.TB, modules ...string) string {
	tb.Helper()
	check := "import " + strings.Join(modules, ", ")
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if err := exec.Command(py, "-c", check).Run(); err == nil {
			return py
		}
	}
	missing(tb, "oracle needs Python modules "+strings.Join(modules, ", ")+
		" (Debian: apt-get install python3-numpy python3-sklearn python3-gudhi python3-pot)")
	return ""
}

// Tool returns the path of the program name, or skips the test with a
// message saying how to install it (hint), or fails it under CI=true.
func Tool(tb testing.TB, name, hint string) string {
	tb.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		missing(tb, fmt.Sprintf("%s not found (%s)", name, hint))
	}
	return path
}

// GoWasm runs the go command with args for GOOS=js GOARCH=wasm in the
// test's directory (a build, a test binary, a listing) and returns its
// standard output; it fails the test with the command's output if the
// command fails.
func GoWasm(tb testing.TB, args ...string) string {
	tb.Helper()
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("GOOS=js GOARCH=wasm go %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.Bytes())
	}
	return string(out)
}

// missing skips the test for want of what msg names, or fails it under
// CI=true, where .ci/run must have installed it.
func missing(tb testing.TB, msg string) {
	tb.Helper()
	if os.Getenv("CI") != "" {
		tb.Fatal(msg)
	} else {
		tb.Skip("SKIPPED: " + msg)
	}
}

// rdkitShare is where Debian's rdkit-data installs RDKit's sample files.
const rdkitShare = "/usr/share/RDKit"

// RDKitPath returns the path of RDKit's sample file rel (such as
// "Data/NCI/first_200.props.sdf") under /usr/share/RDKit. When it is
// missing the test is skipped, or fails under CI=true.
func RDKitPath(tb testing.TB, rel string) string {
	tb.Helper()
	path := filepath.Join(rdkitShare, filepath.FromSlash(rel))
	if _, err := os.Stat(path); err != nil {
		missing(tb, fmt.Sprintf("RDKit sample file missing (%v); Debian: apt-get install rdkit-data", err))
	}
	return path
}

// RDKitData reads RDKit's sample file rel, as RDKitPath finds it.
func RDKitData(tb testing.TB, rel string) []byte {
	tb.Helper()
	data, err := os.ReadFile(RDKitPath(tb, rel))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// NCISmiles returns the SMILES column of RDKit's sample of the NCI
// database, Data/NCI/first_5K.smi: 4,999 lines "SMILES\tid", in Kekulé
// form.
func NCISmiles(tb testing.TB) []string {
	tb.Helper()
	data := RDKitData(tb, "Data/NCI/first_5K.smi")
	var out []string
	for line := range strings.SplitSeq(string(data), "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			out = append(out, f[0])
		}
	}
	return out
}

// ChEMBLTable returns n molecules evenly spaced in RDKit's ChEMBL series
// CHEMBL2321810 (Contrib/FreeWilson/data: 1,017 SMILES and their pAct)
// as a table a chemist brings: the header "smiles,name,act", then a line
// per molecule. Its median pAct, 6.44, splits it into two classes.
func ChEMBLTable(tb testing.TB, n int) string {
	tb.Helper()
	act := map[string]string{}
	for line := range strings.SplitSeq(string(RDKitData(tb, "Contrib/FreeWilson/data/CHEMBL2321810_act.csv")), "\n") {
		if name, value, ok := strings.Cut(strings.TrimSpace(line), ","); ok {
			act[name] = value
		}
	}
	smi := strings.Fields(string(RDKitData(tb, "Contrib/FreeWilson/data/CHEMBL2321810.smi"))) // SMILES, name, ...
	var b strings.Builder
	b.WriteString("smiles,name,act\n")
	for i := range n {
		k := 2 * (i * (len(smi) / 2) / n)
		fmt.Fprintf(&b, "%s,%s,%s\n", smi[k], smi[k+1], act[smi[k+1]])
	}
	return b.String()
}

// RunJSON runs py with args, writes in as JSON on its standard input and
// decodes its standard output into out; a failure shows the oracle's
// stderr.
func RunJSON(tb testing.TB, py string, args []string, in, out any) {
	tb.Helper()
	stdin, err := json.Marshal(in)
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(py, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		tb.Fatalf("oracle %s %s: %v\n%s", py, strings.Join(args, " "), err, stderr.String())
	}
	if err := json.Unmarshal(stdout, out); err != nil {
		tb.Fatalf("oracle %s: output is not the expected JSON: %v\n%.500s", strings.Join(args, " "), err, stdout)
	}
}
