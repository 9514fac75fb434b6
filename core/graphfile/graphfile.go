package graphfile

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"wkpi-web/core/graph"
)

// Record is one graph of a file with what the file says about it.
type Record struct {
	// Graph is nil when Err is set.
	Graph *graph.Graph
	// Name is the molecule's or graph's name: a table's name column, the
	// name after a SMILES, an SD record's title line (else its name-like
	// property), a GraphML graph's id; else the record's position
	// ("row 3", "line 7", "record 2", "graph 4"). Edge lists and JSON
	// graphs have no names ("").
	Name string
	// Index is the record's 1-based number: the data row of a table (the
	// header not counted), the line of a SMILES file, the record of an SD
	// file, the graph of a GraphML or JSON file.
	Index int
	// Where locates the record in messages: "row 3 (line 4)", "line 7",
	// "record 2 (line 40)", "graph 4 (line 61)".
	Where string
	// Molecule is the record's molecule as its file gives it, a SMILES or
	// an SD record's molfile (up to its "M  END"), for a chemistry
	// toolkit to draw with node i as atom i; "" for other formats.
	Molecule string
	// Props are a table's other columns, an SD record's data items and a
	// GraphML graph's graph-level <data>, in file order.
	Props []Property
	// Err says why the record cannot be read. Its message starts with the
	// file name and the record's line or row.
	Err error
}

// Property is one named value of a record.
type Property struct {
	Key   string // column header, SD data item name, GraphML key attr.name (else id)
	ID    string // the GraphML key id when it differs from Key; else ""
	Value string
	// Line is the 1-based line of an SD data item's value (the line after
	// its "> <NAME>" header), for messages about the value; 0 for the
	// other formats, whose record's Where locates it.
	Line int
}

// Prop returns the value of the property named key (or, for GraphML,
// whose key id is key).
func (r Record) Prop(key string) (string, bool) {
	p, ok := r.Property(key)
	return p.Value, ok
}

// Property returns the property named key (or, for GraphML, whose key
// id is key).
func (r Record) Property(key string) (Property, bool) {
	for _, p := range r.Props {
		if p.Key == key || p.ID == key && p.ID != "" {
			return p, true
		}
	}
	return Property{}, false
}

// File is what ReadFile found in one file.
type File struct {
	Format  Format   // one of the registry's formats (Formats)
	Records []Record // every record, good and bad, in file order
	// Columns is a table's header; nil for the other formats.
	Columns []string
	// SMILESColumn and NameColumn are the table columns that gave the
	// SMILES and the names ("" when no column is named like a name).
	SMILESColumn, NameColumn string
	// guess, when the content chose the format, says so in FirstError
	// (a format string with one %v for the record's error); name is the
	// file's name.
	guess, name string
}

// Options tune ReadFile.
type Options struct {
	// SMILESColumn names the SMILES column of a table. "" takes the column
	// named "smiles" (any case). When set, a .csv file is always read as
	// a table.
	SMILESColumn string
}

// Parse reads the graphs of one file, failing on the first record that
// cannot be read. The format comes from the file name's extension or,
// when that does not settle it, from the content (see ReadFile). Errors
// start with name and, where there is one, the line.
func Parse(name string, data []byte) ([]*graph.Graph, error) {
	f, err := ReadFile(name, data, Options{})
	if err != nil {
		return nil, err
	}
	if err := f.FirstError(); err != nil {
		return nil, err
	}
	graphs := make([]*graph.Graph, len(f.Records))
	for i, r := range f.Records {
		graphs[i] = r.Graph
	}
	return graphs, nil
}

// FirstError returns the error of the first record that cannot be read,
// nil when all can. When the content chose the format (no telling
// extension), the error says which formats were tried.
func (f *File) FirstError() error {
	for _, r := range f.Records {
		if r.Err == nil {
			continue
		}
		if f.guess != "" {
			return fmt.Errorf("%s: not a graph file in any format tried: %s", f.name, strings.Replace(f.guess, "%v", trimName(f.name, r.Err), 1))
		}
		return r.Err
	}
	return nil
}

// ReadFile reads every record of one file. A record that cannot be read
// (a bad SMILES, a broken molfile record, a GraphML graph naming an
// undeclared node) carries its own Err, so that a caller may skip it;
// an error returned concerns the whole file.
//
// The extension picks the format (Formats): .edges .edgelist .el (edge
// list), .graphml .xml, .sdf .sd (SD file), .mol (molfile), .json, .smi
// .smiles (SMILES lines), .tsv (SMILES table). A .csv file is a SMILES
// table when its header names a SMILES column (or Options.SMILESColumn
// is set), and an edge list otherwise, unless its first column reads as
// SMILES (most of its values parse, and all do or one has two atoms or
// a non-letter): then it is an error (a header is missing). A .txt file
// is an edge list unless the first token of most lines is a SMILES (or
// the second, after a name: parseSMILESLines). For
// other names the content decides, through the formats' sniffers in
// registry order: markup is GraphML, '{' or '[{' opens JSON, an SD file
// has V2000 or V3000 on line 4, a header with a SMILES column makes a
// table; other text is SMILES lines when the first (or second) token of
// most lines is a SMILES, else an edge list. Text that reads cleanly both as SMILES
// lines and as an edge list is an error, and so is content that does
// not read cleanly as the format guessed: the error names the formats
// tried (Parse reports record errors so too).
func ReadFile(name string, data []byte, o Options) (*File, error) {
	ext := strings.ToLower(filepath.Ext(name))
	e, known := ByExtension(ext)
	if err := notText(name, e.Name, data); err != nil {
		return nil, err
	}
	switch {
	case ext == ".csv":
		if _, ok := tableHeader(data, o.SMILESColumn); ok || o.SMILESColumn != "" {
			return ReadTable(name, data, o)
		}
		if _, looks, all, strong := smilesSigns(data, ','); looks && (all || strong) {
			return nil, fmt.Errorf("%s: the first column reads as SMILES, but no header row names a SMILES column: "+
				"add a header such as \"smiles,activity\" to read molecules, or name an edge list .edges", name)
		}
		return readEdgeList(name, data)
	case known:
		return e.Parse(name, data, o)
	case ext == ".txt":
		if !smilesLooking(data, ' ') {
			return readEdgeList(name, data)
		}
		return readText(name, data)
	}
	e, known = sniff(data, o)
	if !known {
		return readText(name, data)
	}
	f, err := e.Parse(name, data, o)
	if err != nil {
		return nil, fmt.Errorf("%s: not a graph file in any format tried: as %s (guessed from the content): %s", name, e.Display, trimName(name, err))
	}
	f.guess, f.name = "as "+e.Display+" (guessed from the content): %v", name
	return f, nil
}

// readEdgeList reads data as an edge list.
func readEdgeList(name string, data []byte) (*File, error) {
	e, _ := Lookup(FormatEdgeList)
	return e.Parse(name, data, Options{})
}

// sniff guesses the format from the content, trying the registry's
// sniffers in order; false for text that may be SMILES lines or an edge
// list.
func sniff(data []byte, o Options) (Entry, bool) {
	for _, e := range Formats() {
		if e.Sniff != nil && e.Sniff(data, o) {
			return e, true
		}
	}
	return Entry{}, false
}

// readText reads text that is either SMILES lines or an edge list: SMILES
// when the first (or second) token of most lines is a SMILES, else an
// edge list. Content that reads cleanly as both is an error unless such a
// token has two atoms or a non-letter (then it is SMILES), and so is
// content that reads cleanly as neither.
func readText(name string, data []byte) (*File, error) {
	s, serr := parseSMILESLines(name, data)
	if serr == nil {
		serr = firstError(s)
	}
	e, eerr := readEdgeList(name, data)
	col, looks, _, strong := smilesSigns(data, ' ')
	switch {
	case serr == nil && eerr == nil && !strong:
		return nil, fmt.Errorf("%s: cannot tell the format: the content reads both as SMILES lines and as an edge list; "+
			"name the file .smi or .edges", name)
	case looks && s != nil:
		// SMILES it is, bad lines and all: an edge list would take each
		// SMILES for a node name.
		s.guess = "as SMILES lines (the " + [2]string{"first", "second"}[col] + " token of most lines is a SMILES): %v; " +
			"not as an edge list, whose nodes would be named by SMILES"
		s.name = name
		return s, nil
	case eerr == nil:
		return e, nil
	}
	return nil, fmt.Errorf("%s: not a graph file in any format tried: as SMILES lines: %s; as an edge list: %s",
		name, trimName(name, serr), trimName(name, eerr))
}

// trimName drops the file name that starts an error message.
func trimName(name string, err error) string {
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, name+": "); ok {
		return rest
	}
	if rest, ok := strings.CutPrefix(msg, name+" "); ok {
		return rest
	}
	return msg
}

// firstError returns the error of the first bad record.
func firstError(f *File) error {
	for _, r := range f.Records {
		if r.Err != nil {
			return r.Err
		}
	}
	return nil
}

var bom = []byte("\xef\xbb\xbf")

// splitLines splits text into lines without their CR or LF.
func splitLines(data []byte) []string {
	text := strings.ReplaceAll(string(bytes.TrimPrefix(data, bom)), "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	return strings.Split(text, "\n")
}

// lineError formats an error at a 1-based line of a file.
func lineError(name string, line int, format string, args ...any) error {
	return fmt.Errorf("%s line %d: %s", name, line, fmt.Sprintf(format, args...))
}

// nameKeys are column and property names read as a record's name, most
// preferred first (compared without case); after them, any name ending
// in "_id" (NameLike).
func nameKeys() []string {
	return []string{"name", "id", "title", "mol_id", "molecule_id", "molecule_name", "compound_id", "compound_name",
		"cmpd_id", "chembl_id", "cid", "zinc_id"}
}

// NameLike ranks a column or property name as a source of record names:
// 1 for the most preferred (name), larger for less preferred, 0 for a
// name that is not name-like. Name-like are name, id, title, mol_id,
// molecule_id, molecule_name, compound_id, compound_name, cmpd_id,
// chembl_id, cid, zinc_id (in this order, any case) and then any name
// ending in "_id".
func NameLike(key string) int {
	for i, k := range nameKeys() {
		if strings.EqualFold(key, k) {
			return i + 1
		}
	}
	if len(key) > 3 && strings.EqualFold(key[len(key)-3:], "_id") {
		return len(nameKeys()) + 1
	}
	return 0
}

// bestName returns the index of the most name-like of keys (the first
// among equals) other than skip, or -1.
func bestName(keys []string, skip int) int {
	best, rank := -1, 0
	for i, k := range keys {
		if r := NameLike(k); i != skip && r > 0 && (rank == 0 || r < rank) {
			best, rank = i, r
		}
	}
	return best
}

// nameProp returns the value of the most name-like non-empty property.
func nameProp(props []Property) string {
	var keys []string
	for _, p := range props {
		key := p.Key
		if strings.TrimSpace(p.Value) == "" {
			key = "" // not a source of a name
		}
		keys = append(keys, key)
	}
	if i := bestName(keys, -1); i >= 0 {
		return strings.TrimSpace(props[i].Value)
	}
	return ""
}
