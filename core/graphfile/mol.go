package graphfile

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
)

// parseMolfile reads an MDL molfile (V2000 or V3000) or an SD file of
// several "$$$$"-terminated records: atoms become nodes labelled by
// element symbol, bonds become edges labelled by bond type (1 single,
// 2 double, 3 triple, 4 aromatic, ...). Hydrogens are only those written
// as atoms. A record's data items ("> <NAME>" and value lines) become its
// Props; its name is its title line, else its first name-like data item.
// format is FormatMolfile or FormatMol, as the file is named.
func parseMolfile(name string, format Format, data []byte) (*File, error) {
	lines := splitLines(data)
	f := &File{Format: format}
	counted := false // some record has a counts line
	for start := 0; start < len(lines); {
		if blankFrom(lines, start) {
			break
		}
		end := start
		for end < len(lines) && strings.TrimSpace(lines[end]) != "$$$$" {
			end++
		}
		counted = counted || start+3 < end && isCountsLine(lines[start+3])
		f.Records = append(f.Records, molRecord(name, lines, start, end, len(f.Records)+1))
		start = end + 1
	}
	if len(f.Records) == 0 {
		return nil, fmt.Errorf("%s: empty file (no molecules)", name)
	}
	if !counted {
		return nil, noCountsLine(name, format, lines, f.Records)
	}
	return f, nil
}

// isCountsLine reports whether a record's fourth line is a counts line:
// V2000 or V3000, or (in molfiles older than V2000) the atom and bond
// counts alone.
func isCountsLine(line string) bool {
	_, counts := columns(line, 2)
	return counts || strings.Contains(line, "V2000") || strings.Contains(line, "V3000")
}

// noCountsLine says that a file whose records have no counts line is
// not in format (an SD file or a molfile), quoting the first record's
// fourth line.
func noCountsLine(name string, format Format, lines []string, records []Record) error {
	why := "it ends before line 4, where a molfile's counts line belongs"
	if len(records) > 1 {
		why = fmt.Sprintf("none of its %d records has a counts line on its fourth line", len(records))
	} else if len(lines) > 3 && strings.TrimSpace(lines[3]) != "$$$$" {
		l := lines[3]
		if utf8.RuneCountInString(l) > 40 {
			l = string([]rune(l)[:40]) + "…"
		}
		why = fmt.Sprintf("line 4, where a molfile's counts line belongs, is %q, with neither V2000 nor V3000 nor atom and bond counts", l)
	}
	return &NotFormatError{File: name, Format: format, Why: why, Expected: expected(format)}
}

// hasCountsLine reports whether the first record's fourth line is a
// counts line: V2000 or V3000, or (in molfiles older than V2000) the
// atom and bond counts alone.
func hasCountsLine(lines []string) bool {
	if len(lines) < 4 {
		return false
	}
	c := lines[3]
	_, counts := columns(c, 2)
	return counts || strings.Contains(c, "V2000") || strings.Contains(c, "V3000")
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

// molRecord reads the record lines[start:end] (end is its "$$$$" line or
// the end of the file).
func molRecord(name string, lines []string, start, end, index int) Record {
	rec := Record{Index: index, Where: fmt.Sprintf("record %d (line %d)", index, start+1)}
	g, props, err := molGraph(name, lines, start, end)
	rec.Graph, rec.Props, rec.Err = g, props, err
	rec.Molecule = molBlock(lines, start, end)
	if rec.Name = strings.TrimSpace(lines[start]); rec.Name == "" {
		if rec.Name = nameProp(props); rec.Name == "" {
			rec.Name = fmt.Sprintf("record %d", index)
		}
	}
	return rec
}

// molBlock is the record's molfile: its lines up to "M  END" (the data
// items after it are no part of the molecule).
func molBlock(lines []string, start, end int) string {
	for i := start; i < end; i++ {
		if strings.HasPrefix(lines[i], "M  END") {
			return strings.Join(lines[start:i+1], "\n") + "\n"
		}
	}
	return strings.Join(lines[start:end], "\n") + "\n"
}

// molGraph reads the connection table and the data items of one record.
func molGraph(name string, lines []string, start, end int) (*graph.Graph, []Property, error) {
	c := start + 3 // the counts line follows three header lines
	if c >= end {
		return nil, nil, lineError(name, end, "molfile record starting on line %d ends before its counts line", start+1)
	}
	var symbols, types []string
	var edges []graph.Edge
	var atoms []graph.Atom
	var next int
	var err error
	if strings.Contains(lines[c], "V3000") {
		symbols, edges, types, atoms, next, err = v3000(name, lines, c, end)
	} else {
		symbols, edges, types, next, err = v2000(name, lines, c, end)
		if err == nil {
			atoms = v2000Atoms(lines, c, next, end, len(symbols))
		}
	}
	if err != nil {
		return nil, nil, err
	}
	props, err := dataItems(name, lines, next, end)
	if err != nil {
		return nil, nil, err
	}
	g, err := graph.New(len(symbols), edges, types, symbols)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: molecule on line %d: %w", name, start+1, err)
	}
	g.Atoms = atoms
	smiles.Sanitize(g)
	if err := smiles.Check(g); err != nil {
		return nil, nil, fmt.Errorf("%s: molecule on line %d: %w", name, start+1, err)
	}
	return g, props, nil
}

// v2000Atoms reads the charges and isotopes of a V2000 record whose
// counts line is lines[c] and whose bond block ends before lines[props]:
// the charge field of the atom block (columns 37-39: 1 to 3 for +3 to +1,
// 5 to 7 for -1 to -3), replaced by the "M  CHG" lines if there are any,
// and the "M  ISO" lines. Malformed property entries are ignored, as the
// rest of a property block is.
func v2000Atoms(lines []string, c, props, end, n int) []graph.Atom {
	atoms := make([]graph.Atom, n)
	for i := range n {
		if l := lines[c+1+i]; len(l) >= 39 {
			if v, err := strconv.Atoi(strings.TrimSpace(l[36:39])); err == nil && v >= 1 && v <= 7 && v != 4 {
				atoms[i].Charge = 4 - v
			}
		}
	}
	chargeLines := false
	for i := props; i < end && !strings.HasPrefix(lines[i], "M  END"); i++ {
		key := ""
		if len(lines[i]) >= 6 {
			key = lines[i][:6]
		}
		if key != "M  CHG" && key != "M  ISO" {
			continue
		}
		if key == "M  CHG" && !chargeLines {
			// The first charge line overrides the atom block's charges.
			chargeLines = true
			for a := range atoms {
				atoms[a].Charge = 0
			}
		}
		f := strings.Fields(lines[i][6:])
		for k := 1; k+1 < len(f); k += 2 {
			a, errA := strconv.Atoi(f[k])
			v, errV := strconv.Atoi(f[k+1])
			if errA != nil || errV != nil || a < 1 || a > n {
				continue
			}
			if key == "M  CHG" {
				atoms[a-1].Charge = v
			} else {
				atoms[a-1].Isotope = v
			}
		}
	}
	return atoms
}

// v2000 reads the counts line lines[c] and the atom and bond blocks; next
// is the line after the bond block.
func v2000(name string, lines []string, c, end int) (symbols []string, edges []graph.Edge, types []string, next int, err error) {
	counts := lines[c]
	ints, ok := columns(counts, 2)
	if !ok {
		return nil, nil, nil, 0, lineError(name, c+1, "counts line %q does not start with atom and bond counts", counts)
	}
	atoms, bonds := ints[0], ints[1]
	if atoms < 0 || bonds < 0 {
		return nil, nil, nil, 0, lineError(name, c+1, "negative atom or bond count")
	}
	// Check the counts against the record before allocating anything
	// (each count alone first, so that the sum cannot overflow).
	if atoms > end || bonds > end || c+1+atoms+bonds > end {
		where := "the file ends first"
		if end < len(lines) {
			where = fmt.Sprintf("the record ends first (line %d)", end+1)
		}
		return nil, nil, nil, 0, lineError(name, c+1, "counts line promises %d atoms and %d bonds, but %s", atoms, bonds, where)
	}
	symbols = make([]string, atoms)
	for i := range atoms {
		l := c + 1 + i
		s, ok := atomSymbol(lines[l])
		if !ok {
			return nil, nil, nil, 0, lineError(name, l+1, "atom line %q has no element symbol", lines[l])
		}
		symbols[i] = s
	}
	edges = make([]graph.Edge, bonds)
	types = make([]string, bonds)
	for i := range bonds {
		l := c + 1 + atoms + i
		b, ok := columns(lines[l], 3)
		if !ok {
			return nil, nil, nil, 0, lineError(name, l+1, "bond line %q does not start with two atom numbers and a type", lines[l])
		}
		for _, a := range b[:2] {
			if a < 1 || a > atoms {
				return nil, nil, nil, 0, lineError(name, l+1, "atom number %d out of range 1..%d", a, atoms)
			}
		}
		if b[0] == b[1] {
			return nil, nil, nil, 0, lineError(name, l+1, "bond from atom %d to itself", b[0])
		}
		edges[i] = graph.Edge{U: b[0] - 1, V: b[1] - 1}
		types[i] = strconv.Itoa(b[2])
	}
	return symbols, edges, types, c + 1 + atoms + bonds, nil
}

// v3line is one logical "M  V30" line (continuations joined) and the
// file line it starts on.
type v3line struct {
	text string
	line int
}

// v3000 reads a V3000 connection table: the "M  V30" lines from after
// the counts line lines[c] to "M  END", of which the CTAB's COUNTS, ATOM
// and BOND blocks count; other blocks (SGROUP, COLLECTION, OBJ3D) are
// skipped. next is the line after "M  END".
func v3000(name string, lines []string, c, end int) (symbols []string, edges []graph.Edge, types []string, atoms []graph.Atom, next int, err error) {
	var logical []v3line
	next = -1
	for i := c + 1; i < end; i++ {
		t := lines[i]
		if strings.HasPrefix(t, "M  END") {
			next = i + 1
			break
		}
		if strings.TrimSpace(t) == "" {
			continue
		}
		body, ok := strings.CutPrefix(t, "M  V30 ")
		if !ok {
			return nil, nil, nil, nil, 0, lineError(name, i+1, "V3000 connection table line %q does not start with \"M  V30 \"", t)
		}
		body = strings.TrimRight(body, " ")
		if n := len(logical); n > 0 && strings.HasSuffix(logical[n-1].text, "-") {
			logical[n-1].text = strings.TrimSuffix(logical[n-1].text, "-") + body
			continue
		}
		logical = append(logical, v3line{body, i + 1})
	}
	if next < 0 {
		return nil, nil, nil, nil, 0, lineError(name, end, "V3000 connection table without \"M  END\"")
	}
	fail := func(l v3line, format string, args ...any) ([]string, []graph.Edge, []string, []graph.Atom, int, error) {
		return nil, nil, nil, nil, 0, lineError(name, l.line, format, args...)
	}
	block := "" // the block being read: ATOM, BOND, or one skipped
	ctabs := 0  // CTAB blocks begun
	nAtoms, bonds := -1, -1
	var countsAt v3line
	index := map[int]int{} // V3000 atom index -> node
	for _, l := range logical {
		f := v3fields(l.text)
		if len(f) == 0 {
			continue
		}
		if len(f) >= 2 && (strings.EqualFold(f[0], "BEGIN") || strings.EqualFold(f[0], "END")) {
			kind := strings.ToUpper(f[1])
			begin := strings.EqualFold(f[0], "BEGIN")
			switch {
			case kind == "CTAB" && begin:
				if ctabs++; ctabs > 1 {
					return fail(l, "a second CTAB block: R-group and template files are not supported")
				}
			case kind == "CTAB" && block != "":
				return fail(l, "END CTAB inside the %s block", block)
			case kind == "CTAB":
			case kind == "RGROUP" || kind == "TEMPLATE":
				return fail(l, "%s blocks are not supported", kind)
			case begin && block != "":
				return fail(l, "BEGIN %s inside the %s block", kind, block)
			case begin:
				block = kind
			case kind != block:
				return fail(l, "END %s closes the %s block", kind, block)
			default:
				block = ""
			}
			continue
		}
		switch block {
		case "":
			if strings.EqualFold(f[0], "COUNTS") {
				if len(f) < 3 {
					return fail(l, "COUNTS line %q lacks the atom and bond counts", l.text)
				}
				a, errA := strconv.Atoi(f[1])
				b, errB := strconv.Atoi(f[2])
				if errA != nil || errB != nil || a < 0 || b < 0 {
					return fail(l, "COUNTS line %q: want two counts >= 0", l.text)
				}
				nAtoms, bonds, countsAt = a, b, l
			}
		case "ATOM":
			if len(f) < 2 {
				return fail(l, "atom line %q lacks an index and a type", l.text)
			}
			idx, err := strconv.Atoi(f[0])
			if err != nil || idx < 1 {
				return fail(l, "atom index %q is not a number >= 1", f[0])
			}
			if _, dup := index[idx]; dup {
				return fail(l, "atom index %d given twice", idx)
			}
			sym := f[1]
			switch {
			case strings.EqualFold(sym, "NOT") || strings.HasPrefix(sym, "["):
				sym = "L" // an atom list, as V2000 writes it
			case !isSymbol(sym):
				return fail(l, "atom line %q has no element symbol", l.text)
			}
			index[idx] = len(symbols)
			symbols = append(symbols, sym)
			atoms = append(atoms, v3000Chemistry(f[2:]))
		case "BOND":
			if len(f) < 4 {
				return fail(l, "bond line %q does not hold an index, a type and two atoms", l.text)
			}
			var v [3]int
			for k := range 3 {
				n, err := strconv.Atoi(f[k+1])
				if err != nil {
					return fail(l, "bond line %q: %q is not a number", l.text, f[k+1])
				}
				v[k] = n
			}
			u, okU := index[v[1]]
			w, okW := index[v[2]]
			switch {
			case !okU:
				return fail(l, "bond to atom index %d, which the ATOM block does not define", v[1])
			case !okW:
				return fail(l, "bond to atom index %d, which the ATOM block does not define", v[2])
			case u == w:
				return fail(l, "bond from atom %d to itself", v[1])
			}
			edges = append(edges, graph.Edge{U: u, V: w})
			types = append(types, strconv.Itoa(v[0]))
		}
	}
	switch {
	case ctabs == 0:
		return nil, nil, nil, nil, 0, lineError(name, c+1, "V3000 molfile without a CTAB block")
	case block != "":
		return nil, nil, nil, nil, 0, lineError(name, next, "the %s block is not closed", block)
	case nAtoms < 0:
		return nil, nil, nil, nil, 0, lineError(name, c+1, "V3000 molfile without a COUNTS line")
	case nAtoms != len(symbols) || bonds != len(edges):
		return fail(countsAt, "COUNTS promises %d atoms and %d bonds, the blocks hold %d and %d", nAtoms, bonds, len(symbols), len(edges))
	}
	return symbols, edges, types, atoms, next, nil
}

// v3000Chemistry reads an atom's charge and isotope from the CHG= and
// MASS= fields of its V3000 atom line (malformed values count as none).
func v3000Chemistry(fields []string) graph.Atom {
	var a graph.Atom
	for _, kv := range fields {
		k, v, ok := strings.Cut(kv, "=")
		x, err := strconv.Atoi(v)
		if !ok || err != nil {
			continue
		}
		switch strings.ToUpper(k) {
		case "CHG":
			a.Charge = x
		case "MASS":
			a.Isotope = x
		}
	}
	return a
}

// v3fields splits a V3000 line at spaces, keeping a double-quoted field
// (with "" for a quote) or a parenthesised list whole.
func v3fields(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if s[i] == ' ' {
			i++
			continue
		}
		j := i
		depth, quoted := 0, false
		for ; j < len(s); j++ {
			ch := s[j]
			switch {
			case quoted && ch == '"' && j+1 < len(s) && s[j+1] == '"':
				j++
			case ch == '"':
				quoted = !quoted
			case !quoted && ch == '(':
				depth++
			case !quoted && ch == ')' && depth > 0:
				depth--
			}
			if ch == ' ' && !quoted && depth == 0 {
				break
			}
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// dataItems reads the SD data items of lines[from:end]: property lines
// of the connection table up to "M  END" are skipped, then each item is
// a header line "> <NAME>" (anything else on it ignored) and value lines
// up to a blank line; a value of several lines is joined with "\n".
// Text outside an item is an error (a "$$$$" line may be missing between
// two molecules), and so is an item name given twice.
func dataItems(name string, lines []string, from, end int) ([]Property, error) {
	i := from
	for i < end && !strings.HasPrefix(lines[i], "M  END") && !isItemHeader(lines[i]) {
		i++
	}
	if i < end && strings.HasPrefix(lines[i], "M  END") {
		i++
	}
	var props []Property
	seen := map[string]int{}
	for i < end {
		t := lines[i]
		switch {
		case strings.TrimSpace(t) == "":
			i++
			continue
		case !isItemHeader(t):
			return nil, lineError(name, i+1, "unexpected %q after the connection table (is a \"$$$$\" line missing between two molecules?)", t)
		}
		key := itemName(t)
		if first, dup := seen[key]; dup {
			return nil, lineError(name, i+1, "data item <%s> given twice (lines %d and %d)", key, first, i+1)
		}
		seen[key] = i + 1
		i++
		line := i + 1
		var value []string
		for i < end && strings.TrimSpace(lines[i]) != "" && !isItemHeader(lines[i]) {
			value = append(value, strings.TrimRight(lines[i], " "))
			i++
		}
		props = append(props, Property{Key: key, Value: strings.Join(value, "\n"), Line: line})
	}
	return props, nil
}

// isItemHeader reports whether a line opens an SD data item: '>' and a
// name in angle brackets, or '>' and a field number ("> DT12").
func isItemHeader(t string) bool {
	if !strings.HasPrefix(t, ">") {
		return false
	}
	if open := strings.IndexByte(t, '<'); open >= 0 {
		return strings.IndexByte(t[open:], '>') > 0
	}
	rest := strings.TrimSpace(t[1:])
	return strings.HasPrefix(rest, "DT") && len(rest) > 2 && strings.Trim(rest[2:], "0123456789") == ""
}

// itemName is the name in angle brackets of a data item header, else
// its field number ("DT12").
func itemName(t string) string {
	if open := strings.IndexByte(t, '<'); open >= 0 {
		rest := t[open+1:]
		return rest[:strings.IndexByte(rest, '>')]
	}
	return strings.TrimSpace(t[1:])
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
