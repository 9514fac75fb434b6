package graphfile

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
)

// parseSMILES reads one SMILES as a molecule (smiles.ParseMolecule),
// wrapping a syntax or chemistry error with the file, the place and the
// string.
func parseSMILES(name, where, s string) (*graph.Graph, error) {
	g, err := smiles.ParseMolecule(s)
	if err == nil {
		return g, nil
	}
	var se *smiles.SyntaxError
	var ce *smiles.ChemistryError
	switch {
	case errors.As(err, &se) && se.Pos > 0:
		return nil, fmt.Errorf("%s %s: SMILES %s: character %d: %s", name, where, quoteShort(s), se.Pos, se.Msg)
	case errors.As(err, &ce):
		return nil, fmt.Errorf("%s %s: SMILES %s: %v", name, where, quoteShort(s), err)
	}
	return nil, fmt.Errorf("%s %s: %v", name, where, err)
}

// quoteShort quotes s, cut to 60 bytes.
func quoteShort(s string) string {
	if len(s) > 60 {
		return strconv.Quote(s[:57]) + "..."
	}
	return strconv.Quote(s)
}

// parseSMILESLines reads a .smi file: per line a SMILES, then optionally
// white space and a name (the rest of the line), or a name and then a
// SMILES when the first token of most lines is no SMILES and the second
// is (RDKit's cdk2.smi, ZINC and ChEMBL exports: smilesSigns). Blank
// lines and lines starting with '#' are skipped, and so is a first line
// whose SMILES token is "smiles" (any case), a header.
func parseSMILESLines(name string, data []byte) (*File, error) {
	f := &File{Format: FormatSMILES}
	col, _, _, _ := smilesSigns(data, ' ')
	first := true
	for i, text := range splitLines(data) {
		line := i + 1
		text = strings.TrimSpace(text)
		if text == "" || text[0] == '#' {
			continue
		}
		s, rest := smiFields(text, col)
		if first {
			first = false
			if strings.EqualFold(s, "smiles") {
				continue
			}
		}
		where := fmt.Sprintf("line %d", line)
		r := Record{Index: line, Where: where, Name: rest, Molecule: s}
		if r.Name == "" {
			r.Name = where
		}
		if s == "" {
			r.Err = fmt.Errorf("%s %s: a name and no SMILES after it (most lines of the file are a name, then a SMILES)", name, where)
		} else {
			r.Graph, r.Err = parseSMILES(name, where, s)
		}
		f.Records = append(f.Records, r)
	}
	if len(f.Records) == 0 {
		return nil, fmt.Errorf("%s: empty file (no SMILES)", name)
	}
	return f, nil
}

// smiFields splits a trimmed line of SMILES lines into the token of
// column col (0 or 1, tokens split by white space) and the rest of the
// line, the record's name.
func smiFields(text string, col int) (token, rest string) {
	first, after, _ := strings.Cut(strings.ReplaceAll(text, "\t", " "), " ")
	after = strings.TrimSpace(after)
	if col == 0 {
		return first, after
	}
	token, after, _ = strings.Cut(after, " ")
	return token, strings.TrimSpace(first + " " + strings.TrimSpace(after))
}

// smilesLooking reports whether the SMILES column smilesSigns finds
// looks like SMILES.
func smilesLooking(data []byte, sep byte) bool {
	_, looks, _, _ := smilesSigns(data, sep)
	return looks
}

// smilesSigns looks at the first 100 data lines' first token (up to sep,
// or up to white space when sep is ' ') and, for white space, their
// second: col is the second's (1) when most first tokens do not parse as
// a SMILES and most second ones do, one of them strong (below; an edge
// list "a b" would otherwise be a boron atom named a), else the first's
// (0); of that
// column, looks when most tokens parse as a SMILES, all when every one
// does, strong when one of them has two atoms or more, or a character
// other than a letter, which node names of edge lists seldom have.
func smilesSigns(data []byte, sep byte) (col int, looks, all, strong bool) {
	lines := 0
	var ok [2]int
	var strongAt [2]bool
	for _, text := range splitLines(data) {
		text = strings.TrimSpace(text)
		if text == "" || text[0] == '#' || text[0] == '%' {
			continue
		}
		var toks [2]string
		if sep == ' ' {
			toks[0], _ = smiFields(text, 0)
			toks[1], _ = smiFields(text, 1)
		} else {
			toks[0], _, _ = strings.Cut(text, string(sep))
			toks[0] = strings.TrimSpace(toks[0])
		}
		if lines == 0 && (strings.EqualFold(toks[0], "smiles") || strings.EqualFold(toks[1], "smiles")) {
			continue // a header
		}
		lines++
		for c, tok := range toks {
			if tok == "" {
				continue
			}
			if g, err := smiles.Parse(tok); err == nil {
				ok[c]++
				strongAt[c] = strongAt[c] || g.N > 1 || strings.Trim(tok, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") != ""
			}
		}
		if lines == 100 {
			break
		}
	}
	if 2*ok[0] <= lines && 2*ok[1] > lines && strongAt[1] {
		col = 1
	}
	return col, lines > 0 && 2*ok[col] > lines, lines > 0 && ok[col] == lines, strongAt[col]
}

// tableSeparators are the field separators a table's header is tried
// with.
func tableSeparators() []rune { return []rune{',', '\t', ';'} }

// tableHeader finds the separator under which the first non-blank line
// has a SMILES column: the column named column, or "smiles" (any case)
// when column is "".
func tableHeader(data []byte, column string) (rune, bool) {
	text := string(bytes.TrimPrefix(data, bom))
	for text != "" {
		var line string
		line, text, _ = strings.Cut(text, "\n")
		if strings.TrimSpace(line) == "" {
			continue
		}
		for _, sep := range tableSeparators() {
			for field := range strings.SplitSeq(line, string(sep)) {
				field = strings.Trim(strings.TrimSpace(field), `"`)
				if column == "" && strings.EqualFold(field, "smiles") || column != "" && strings.EqualFold(field, column) {
					return sep, true
				}
			}
		}
		return 0, false
	}
	return 0, false
}

// Rows is a delimited table split into trimmed fields, before any SMILES
// is read.
type Rows struct {
	Format  Format   // FormatCSV or FormatTSV
	Columns []string // the header
	Rows    []Row    // the data rows; blank rows are dropped
}

// Row is one data row of a table.
type Row struct {
	Index  int // 1-based, the header not counted
	Line   int // the row's first line in the file
	Fields []string
}

// Where locates the row in messages: "row 3 (line 4)".
func (r Row) Where() string { return fmt.Sprintf("row %d (line %d)", r.Index, r.Line) }

// ReadRows splits a table into its header and rows. Fields may be quoted
// (RFC 4180) and are trimmed of white space; blank rows are skipped. A
// .tsv file is tab separated; otherwise the separator is the one of
// comma, tab and semicolon under which the header names the SMILES
// column (smilesColumn, or "smiles" in any case when that is ""), else
// the one that splits the header into the most fields. Rows may have
// any number of fields. A header naming two columns alike is an error.
func ReadRows(name string, data []byte, smilesColumn string) (*Rows, error) {
	data = bytes.TrimPrefix(data, bom)
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: empty file", name)
	}
	format, sep := FormatCSV, ','
	if strings.EqualFold(filepath.Ext(name), ".tsv") {
		format = FormatTSV
	}
	if err := notText(name, format, data); err != nil {
		return nil, err
	}
	if format == FormatTSV {
		sep = '\t'
	} else if s, ok := tableHeader(data, smilesColumn); ok {
		sep = s
	} else {
		first, _, _ := strings.Cut(strings.TrimLeft(string(data), " \t\r\n"), "\n")
		most := 0
		for _, s := range tableSeparators() {
			if n := strings.Count(first, string(s)); n > most {
				most, sep = n, s
			}
		}
	}
	if sep == '\t' {
		format = FormatTSV
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = sep
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return nil, csvError(name, err)
	}
	t := &Rows{Format: format, Columns: header}
	seen := map[string]int{}
	for i := range header {
		header[i] = strings.TrimSpace(header[i])
		if j, dup := seen[header[i]]; dup && header[i] != "" {
			return nil, fmt.Errorf("%s line 1: the header names columns %d and %d both %q", name, j+1, i+1, header[i])
		}
		seen[header[i]] = i
	}
	for {
		fields, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(name, err)
		}
		line, _ := r.FieldPos(0)
		blank := true
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
			blank = blank && fields[i] == ""
		}
		if !blank {
			t.Rows = append(t.Rows, Row{Index: len(t.Rows) + 1, Line: line, Fields: fields})
		}
	}
	return t, nil
}

// Column returns the index of the column named col: exactly, else the
// one column whose name matches without case; -1 when none (or several)
// match.
func (t *Rows) Column(col string) int {
	for i, c := range t.Columns {
		if c == col {
			return i
		}
	}
	found := -1
	for i, c := range t.Columns {
		if strings.EqualFold(c, col) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// NameColumn returns the index of the most name-like column (see
// NameLike) other than skip, or -1.
func (t *Rows) NameColumn(skip int) int { return bestName(t.Columns, skip) }

// ReadTable reads a table of molecules (MoleculeNet style): a header row,
// then one molecule per row with its SMILES in the column
// o.SMILESColumn, or the column named "smiles" (any case); see ReadRows
// for the layout. Each row is a Record whose Props are the other columns;
// its name is the most name-like column (name, id, title, mol_id, ...,
// see NameLike). Rows are numbered from 1 after the header; errors give the row and its
// line in the file: "mols.csv row 3 (line 4): ...".
func ReadTable(name string, data []byte, o Options) (*File, error) {
	t, err := ReadRows(name, data, o.SMILESColumn)
	if err != nil {
		return nil, err
	}
	header := t.Columns
	smilesCol := -1
	if o.SMILESColumn != "" {
		smilesCol = t.Column(o.SMILESColumn)
	} else {
		for i, h := range header {
			if strings.EqualFold(h, "smiles") {
				if smilesCol >= 0 {
					return nil, fmt.Errorf("%s line 1: columns %d and %d are both named like \"smiles\": name the SMILES column", name, smilesCol+1, i+1)
				}
				smilesCol = i
			}
		}
	}
	if smilesCol < 0 {
		want := `no column is named "smiles"`
		if o.SMILESColumn != "" {
			want = fmt.Sprintf("no column is named %q", o.SMILESColumn)
		}
		msg := fmt.Sprintf("%s line 1: %s; the columns are %s", name, want, quoteList(header))
		if len(header) > 0 {
			if _, err := smiles.Parse(header[0]); err == nil {
				msg += " (the first row looks like data: is the header row missing?)"
			}
		}
		return nil, errors.New(msg)
	}
	if len(t.Rows) == 0 {
		return nil, fmt.Errorf("%s: no data rows after the header", name)
	}
	f := &File{Format: t.Format, Columns: header, SMILESColumn: header[smilesCol]}
	nameCol := t.NameColumn(smilesCol)
	if nameCol >= 0 {
		f.NameColumn = header[nameCol]
	}
	for _, row := range t.Rows {
		where := row.Where()
		rec := Record{Index: row.Index, Where: where, Name: fmt.Sprintf("row %d", row.Index)}
		fields := row.Fields
		if len(fields) != len(header) {
			rec.Err = fmt.Errorf("%s %s: %d fields, but the header has %d", name, where, len(fields), len(header))
			f.Records = append(f.Records, rec)
			continue
		}
		for i, v := range fields {
			if i != smilesCol {
				rec.Props = append(rec.Props, Property{Key: header[i], Value: v})
			}
		}
		if nameCol >= 0 && fields[nameCol] != "" {
			rec.Name = fields[nameCol]
		}
		if fields[smilesCol] == "" {
			rec.Err = fmt.Errorf("%s %s: empty SMILES in column %q", name, where, f.SMILESColumn)
		} else {
			rec.Graph, rec.Err = parseSMILES(name, where, fields[smilesCol])
			rec.Molecule = fields[smilesCol]
		}
		f.Records = append(f.Records, rec)
	}
	return f, nil
}

// csvError reports a malformed table at its line.
func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s line %d, column %d: %v", name, pe.Line, pe.Column, pe.Err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// quoteList quotes names and joins them with commas.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}
