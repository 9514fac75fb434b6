package main

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

func TestPackageOf(t *testing.T) {
	for sym, want := range map[string]string{
		"wkpi_web_core_model.__Model_.Predict": "wkpi_web_core_model",
		"gonum.org_v1_gonum_mat.__Dense_.Mul":  "gonum.org_v1_gonum_mat",
		"github.com_syumai_workers.init.0":     "github.com_syumai_workers",
		"fmt.__pp_.printArg":                   "fmt",
		"runtime.mallocgc":                     "runtime",
		"type_.eq.runtime._panic":              "type:eq",
		"go_buildid":                           "go_buildid",
		"":                                     "(unnamed)",
	} {
		if got := packageOf(sym); got != want {
			t.Errorf("packageOf(%q) = %q, want %q", sym, got, want)
		}
	}
}

// TestReport reads a tiny module: one imported function, two defined
// ones in two packages, and their names.
func TestReport(t *testing.T) {
	section := func(id byte, body []byte) []byte {
		return append(binary.AppendUvarint([]byte{id}, uint64(len(body))), body...)
	}
	name := func(s string) []byte { return append(binary.AppendUvarint(nil, uint64(len(s))), s...) }
	imports := append([]byte{1}, append(append(name("go"), name("debug")...), 0, 0)...)
	code := []byte{2, 3, 0, 0, 0x0b, 5, 0, 0, 0, 0, 0x0b}
	var names []byte
	names = append(names, 3)
	for i, s := range []string{"go.debug", "main.main", "fmt.Println"} {
		names = append(names, byte(i))
		names = append(names, name(s)...)
	}
	custom := append(name("name"), section(1, names)...)
	mod := append([]byte("\x00asm\x01\x00\x00\x00"), section(2, imports)...)
	mod = append(mod, section(10, code)...)
	mod = append(mod, section(0, custom)...)
	var out bytes.Buffer
	if err := report(&out, mod, 0, 1); err != nil {
		t.Fatal(err)
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(out.String(), "\n") {
		lines[strings.Join(strings.Fields(l), " ")] = true
	}
	// Code bytes: main's body is 3 bytes, fmt's 5; brotli's sizes vary.
	for _, want := range []string{"all code 8", "data segments 0"} {
		if !lines[want] {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
	if !strings.Contains(out.String(), "\nfmt ") || !strings.Contains(out.String(), "\nmain ") {
		t.Errorf("no fmt and main rows in\n%s", out.String())
	}
	if err := report(&out, []byte("not wasm"), 0, 1); err == nil {
		t.Error("a file that is not wasm is read")
	}
}
