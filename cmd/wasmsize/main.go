// Command wasmsize tells what each Go package adds to a wasm binary: the
// bytes of its functions' code (from the binary's name section, so build
// without -ldflags=-s), raw and compressed with brotli 11 on their own,
// and the data segments in one line. `go tool nm` does not read wasm.
//
//	GOOS=js GOARCH=wasm go build -trimpath -o /tmp/worker.wasm ./wasm/worker
//	go run ./cmd/wasmsize -top 25 /tmp/worker.wasm
//
// The compressed column compresses each package's code apart from the
// rest, so it overstates a little what removing the package saves; the
// total line compresses the whole file.
package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/andybalholm/brotli"
)

func main() {
	top := flag.Int("top", 30, "packages to list, largest first (0: all)")
	quality := flag.Int("q", 11, "brotli quality for the compressed column")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-top N] [-q Q] file.wasm")
		os.Exit(2)
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err == nil {
		err = report(os.Stdout, b, *top, *quality)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
}

// module is what report needs of a wasm binary.
type module struct {
	imports int               // imported functions: they come first in the function index space
	bodies  [][]byte          // code section, one body per defined function
	names   map[uint32]string // function index -> name
	data    int               // bytes of the data section
}

func report(w io.Writer, b []byte, top, quality int) error {
	m, err := parse(b)
	if err != nil {
		return err
	}
	if len(m.names) == 0 {
		return errors.New("no function names: build without -ldflags=-s")
	}
	code := map[string]*bytes.Buffer{}
	for i, body := range m.bodies {
		pkg := packageOf(m.names[uint32(m.imports+i)])
		if code[pkg] == nil {
			code[pkg] = &bytes.Buffer{}
		}
		code[pkg].Write(body)
	}
	type row struct {
		pkg      string
		raw, brd int
	}
	var rows []row
	total := 0
	for pkg, buf := range code {
		rows = append(rows, row{pkg, buf.Len(), 0})
		total += buf.Len()
	}
	sort.Slice(rows, func(i, j int) bool {
		return rows[i].raw > rows[j].raw || rows[i].raw == rows[j].raw && rows[i].pkg < rows[j].pkg
	})
	if top > 0 && len(rows) > top {
		rows = rows[:top]
	}
	fmt.Fprintf(w, "%-50s %10s %10s\n", "package", "code B", "brotli B")
	for _, r := range rows {
		fmt.Fprintf(w, "%-50s %10d %10d\n", r.pkg, r.raw, brotliSize(code[r.pkg].Bytes(), quality))
	}
	fmt.Fprintf(w, "%-50s %10d\n", "all code", total)
	fmt.Fprintf(w, "%-50s %10d\n", "data segments", m.data)
	fmt.Fprintf(w, "%-50s %10d %10d\n", "whole file", len(b), brotliSize(b, quality))
	return nil
}

func brotliSize(b []byte, quality int) int {
	var buf bytes.Buffer
	bw := brotli.NewWriterLevel(&buf, quality)
	bw.Write(b)
	bw.Close()
	return buf.Len()
}

// packageOf cuts a function's name in the wasm name section to its
// package. The linker writes "/" and "-" as "_" there, so the result is
// mangled the same way: "wkpi_web_core_model.(*Model).Predict" ->
// "wkpi_web_core_model", "gonum.org_v1_gonum_mat.(*Dense).Mul" ->
// "gonum.org_v1_gonum_mat". Type equality and hash functions
// ("type_.eq.T") count as "type:eq".
func packageOf(sym string) string {
	switch {
	case sym == "":
		return "(unnamed)"
	case strings.HasPrefix(sym, "type_.eq.") || strings.HasPrefix(sym, "type_.hash."):
		return "type:eq"
	}
	// A module path's host ("gonum.org", "github.com") keeps its dot.
	from := 0
	if m := host.FindString(sym); m != "" {
		from = len(m)
	}
	if dot := strings.IndexByte(sym[from:], '.'); dot >= 0 {
		return sym[:from+dot]
	}
	return sym
}

// host matches a symbol's leading module host, as the linker writes it:
// "gonum.org_", "github.com_".
var host = regexp.MustCompile(`^[a-z0-9-]+\.[a-z]{2,}_`)

func parse(b []byte) (*module, error) {
	if len(b) < 8 || !bytes.Equal(b[:4], []byte("\x00asm")) {
		return nil, errors.New("not a wasm binary")
	}
	m := &module{names: map[uint32]string{}}
	r := &reader{b: b, off: 8}
	for r.off < len(b) {
		id := r.byte()
		size := int(r.uleb())
		if r.err != nil || r.off+size > len(b) {
			return nil, fmt.Errorf("section at %d: truncated", r.off)
		}
		sec := &reader{b: b[r.off : r.off+size]}
		switch id {
		case 0: // custom
			if sec.name() == "name" {
				parseNames(sec, m.names)
			}
		case 2: // imports
			for n := sec.uleb(); n > 0 && sec.err == nil; n-- {
				sec.name()
				sec.name()
				switch kind := sec.byte(); kind {
				case 0:
					sec.uleb()
					m.imports++
				case 1: // table: reftype, limits
					sec.byte()
					sec.limits()
				case 2:
					sec.limits()
				case 3: // global: valtype, mut
					sec.byte()
					sec.byte()
				}
			}
		case 10: // code
			for n := sec.uleb(); n > 0 && sec.err == nil; n-- {
				l := int(sec.uleb())
				m.bodies = append(m.bodies, sec.bytes(l))
			}
		case 11:
			m.data += size
		}
		if sec.err != nil {
			return nil, fmt.Errorf("section %d: %w", id, sec.err)
		}
		r.off += size
	}
	return m, r.err
}

func parseNames(r *reader, names map[uint32]string) {
	for r.off < len(r.b) && r.err == nil {
		sub := r.byte()
		size := int(r.uleb())
		end := r.off + size
		if sub == 1 {
			for n := r.uleb(); n > 0 && r.err == nil; n-- {
				idx := uint32(r.uleb())
				names[idx] = r.name()
			}
		}
		r.off = end
	}
}

type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) byte() byte {
	if r.off >= len(r.b) {
		r.err = io.ErrUnexpectedEOF
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

func (r *reader) uleb() uint64 {
	v, n := binary.Uvarint(r.b[min(r.off, len(r.b)):])
	if n <= 0 {
		r.err = io.ErrUnexpectedEOF
		return 0
	}
	r.off += n
	return v
}

func (r *reader) bytes(n int) []byte {
	if r.off+n > len(r.b) {
		r.err = io.ErrUnexpectedEOF
		return nil
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s
}

func (r *reader) name() string { return string(r.bytes(int(r.uleb()))) }

func (r *reader) limits() {
	if r.byte() == 1 {
		r.uleb()
	}
	r.uleb()
}
