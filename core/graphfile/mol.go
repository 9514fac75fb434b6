package graphfile

import (
	"fmt"
	"strconv"
	"strings"

	"wkpi-web/core/graph"
)

// parseMolfile reads an MDL molfile (V2000) or an SD file of several
// "$$$$"-terminated records: atoms become nodes labelled by element symbol,
// bonds become edges labelled by bond type (1 single, 2 double, 3 triple,
// 4 aromatic, ...). Hydrogens are only those written as atoms.
func parseMolfile(name string, data []byte) ([]*graph.Graph, error) {
	lines := splitLines(data)
	var graphs []*graph.Graph
	for start := 0; start < len(lines); {
		if blankFrom(lines, start) {
			break
		}
		g, next, err := molRecord(name, lines, start)
		if err != nil {
			return nil, err
		}
		graphs = append(graphs, g)
		start = next
	}
	if len(graphs) == 0 {
		return nil, fmt.Errorf("%s: empty file (no molecules)", name)
	}
	return graphs, nil
}

// blankFrom reports whether lines[i:] are all blank.
func blankFrom(lines []string, i int) bool {
	for _, l := range lines[i:] {
		if strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}

// molRecord reads the record whose header starts at lines[start] and
// returns the index of the line after its "$$$$" (or the end).
func molRecord(name string, lines []string, start int) (*graph.Graph, int, error) {
	c := start + 3 // the counts line follows three header lines
	if c >= len(lines) {
		return nil, 0, lineError(name, len(lines), "molfile record starting on line %d ends before its counts line", start+1)
	}
	counts := lines[c]
	if strings.Contains(counts, "V3000") {
		return nil, 0, lineError(name, c+1, "V3000 molfiles are not supported; save as V2000")
	}
	ints, ok := columns(counts, 2)
	if !ok {
		return nil, 0, lineError(name, c+1, "counts line %q does not start with atom and bond counts", counts)
	}
	atoms, bonds := ints[0], ints[1]
	if atoms < 0 || bonds < 0 {
		return nil, 0, lineError(name, c+1, "negative atom or bond count")
	}
	// Check the counts against the file before allocating anything (each
	// count alone first, so that the sum cannot overflow).
	if atoms > len(lines) || bonds > len(lines) || c+1+atoms+bonds > len(lines) {
		return nil, 0, lineError(name, c+1, "counts line promises %d atoms and %d bonds, but the file ends first", atoms, bonds)
	}
	symbols := make([]string, atoms)
	for i := range atoms {
		l := c + 1 + i
		s, ok := atomSymbol(lines[l])
		if !ok {
			return nil, 0, lineError(name, l+1, "atom line %q has no element symbol", lines[l])
		}
		symbols[i] = s
	}
	edges := make([]graph.Edge, bonds)
	types := make([]string, bonds)
	for i := range bonds {
		l := c + 1 + atoms + i
		b, ok := columns(lines[l], 3)
		if !ok {
			return nil, 0, lineError(name, l+1, "bond line %q does not start with two atom numbers and a type", lines[l])
		}
		for _, a := range b[:2] {
			if a < 1 || a > atoms {
				return nil, 0, lineError(name, l+1, "atom number %d out of range 1..%d", a, atoms)
			}
		}
		if b[0] == b[1] {
			return nil, 0, lineError(name, l+1, "bond from atom %d to itself", b[0])
		}
		edges[i] = graph.Edge{U: b[0] - 1, V: b[1] - 1}
		types[i] = strconv.Itoa(b[2])
	}
	g, err := graph.New(atoms, edges, types, symbols)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: molecule on line %d: %w", name, start+1, err)
	}
	next := c + 1 + atoms + bonds
	for next < len(lines) && strings.TrimSpace(lines[next]) != "$$$$" {
		next++
	}
	return g, next + 1, nil
}

// columns reads the first k integers of a line in the molfile's fixed
// 3-character fields, falling back to whitespace-separated fields for
// files that ignore the column layout. A 3-digit atom number fills its
// field, so "100101  1" must be read by columns.
func columns(line string, k int) ([]int, bool) {
	out := make([]int, k)
	if len(line) >= 3*k {
		ok := true
		for i := range k {
			v, err := strconv.Atoi(strings.TrimSpace(line[3*i : 3*i+3]))
			if err != nil {
				ok = false
				break
			}
			out[i] = v
		}
		if ok {
			return out, true
		}
	}
	f := strings.Fields(line)
	if len(f) < k {
		return nil, false
	}
	for i := range k {
		v, err := strconv.Atoi(f[i])
		if err != nil {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// atomSymbol reads the symbol in columns 32-34 of an atom line, falling
// back to the fourth whitespace-separated field.
func atomSymbol(line string) (string, bool) {
	if len(line) >= 34 {
		if s := strings.TrimSpace(line[31:34]); isSymbol(s) {
			return s, true
		}
	}
	if f := strings.Fields(line); len(f) >= 4 && isSymbol(f[3]) {
		return f[3], true
	}
	return "", false
}

// isSymbol accepts element symbols and the molfile's query atoms
// (A, Q, *, L, LP, R#).
func isSymbol(s string) bool {
	if s == "" || len(s) > 3 {
		return false
	}
	for i, r := range s {
		letter := r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z'
		if !letter && (i == 0 || r != '#') && r != '*' {
			return false
		}
	}
	return true
}
