package graphfile

import (
	"bytes"
	"strings"
)

// Format names a file format, as File.Format reports it and as the
// edge's ?format= takes it.
type Format string

// The formats of Formats, by name.
const (
	FormatEdgeList Format = "edgelist" // edge list
	FormatGraphML  Format = "graphml"  // GraphML, one or more <graph> elements
	FormatMol      Format = "mol"      // an MDL molfile (V2000 or V3000)
	FormatMolfile  Format = "sdf"      // an SD file: molfile records ended by $$$$
	FormatJSON     Format = "json"     // JSON graph objects
	FormatSMILES   Format = "smi"      // SMILES lines: SMILES, then optionally a name
	FormatCSV      Format = "csv"      // a table with a header and a SMILES column, comma or semicolon separated
	FormatTSV      Format = "tsv"      // the same, tab separated
)

// Entry is one format of the registry: what a person, the page and the
// edge are told about it, and how it is recognised and read.
type Entry struct {
	Name Format
	// Extensions are the lower-case file extensions that choose the
	// format. ".csv" may still be read as an edge list and ".txt",
	// which no format claims, as an edge list or SMILES lines (ReadFile).
	Extensions []string
	// MediaTypes are the Content-Types the edge reads as this format.
	MediaTypes []string
	// Display names a file of the format in messages: "an SD file".
	Display string
	// Shape says what such a file looks like, for a file that is not one.
	Shape string
	// Unit names its records in the plural: "rows", "records", "graphs".
	Unit string
	// Classes says that its records carry properties a class can be read
	// from, so that one file is a dataset (core/dataset).
	Classes bool
	// Table says that its records are rows under a header, one of whose
	// columns holds the SMILES.
	Table bool
	// Sniff reports whether content without a telling extension is in
	// this format; nil when the content alone never says so. Formats
	// sniff in registry order.
	Sniff func(data []byte, o Options) bool
	// Parse reads a file of the format; errors start with name.
	Parse func(name string, data []byte, o Options) (*File, error)
}

// Formats is the registry of the formats ReadFile reads, in the order
// their sniffers are tried. Each call builds a new table.
func Formats() []Entry {
	return []Entry{
		{Name: FormatGraphML, Extensions: []string{".graphml", ".xml"},
			MediaTypes: []string{"application/graphml+xml", "application/xml", "text/xml"},
			Display:    "a GraphML file", Unit: "graphs", Classes: true,
			Shape: "a GraphML file is XML text: a <graphml> element holding <graph> elements",
			Sniff: func(data []byte, _ Options) bool { return bytes.HasPrefix(trimmedHead(data), []byte("<")) },
			Parse: func(name string, data []byte, _ Options) (*File, error) { return parseGraphML(name, data) }},
		{Name: FormatJSON, Extensions: []string{".json"}, MediaTypes: []string{"application/json"},
			Display: "a JSON graph file", Unit: "graphs",
			Shape: "a JSON graph file is text: an object or an array of objects with \"nodes\" and \"edges\"",
			Sniff: sniffJSON,
			Parse: func(name string, data []byte, _ Options) (*File, error) { return parseJSON(name, data) }},
		{Name: FormatMolfile, Extensions: []string{".sdf", ".sd"}, MediaTypes: []string{"chemical/x-mdl-sdfile"},
			Display: "an SD file", Unit: "records", Classes: true,
			Shape: "an SD file is text: molfile records, each with its counts line (ending V2000 or V3000) on its fourth line, ended by a $$$$ line",
			Sniff: func(data []byte, _ Options) bool {
				lines := bytes.SplitN(data, []byte("\n"), 5)
				return len(lines) >= 4 && (bytes.Contains(lines[3], []byte("V2000")) || bytes.Contains(lines[3], []byte("V3000")))
			},
			Parse: func(name string, data []byte, _ Options) (*File, error) {
				return parseMolfile(name, FormatMolfile, data)
			}},
		{Name: FormatMol, Extensions: []string{".mol"}, MediaTypes: []string{"chemical/x-mdl-molfile"},
			Display: "a molfile", Unit: "records",
			Shape: "a molfile is text: a title, two header lines and a counts line (ending V2000 or V3000), then the atoms and bonds",
			Parse: func(name string, data []byte, _ Options) (*File, error) { return parseMolfile(name, FormatMol, data) }},
		{Name: FormatCSV, Extensions: []string{".csv"}, MediaTypes: []string{"text/csv"},
			Display: "a CSV table", Unit: "rows", Classes: true, Table: true,
			Shape: "a SMILES table is text: a header row naming a SMILES column, then one molecule per row",
			Sniff: func(data []byte, o Options) bool {
				sep, ok := tableHeader(data, o.SMILESColumn)
				return ok && sep != '\t'
			},
			Parse: ReadTable},
		{Name: FormatTSV, Extensions: []string{".tsv"}, MediaTypes: []string{"text/tab-separated-values"},
			Display: "a TSV table", Unit: "rows", Classes: true, Table: true,
			Shape: "a SMILES table is text: a header row naming a SMILES column, then one molecule per row",
			Sniff: func(data []byte, o Options) bool {
				sep, ok := tableHeader(data, o.SMILESColumn)
				return ok && sep == '\t'
			},
			Parse: ReadTable},
		{Name: FormatSMILES, Extensions: []string{".smi", ".smiles"}, MediaTypes: []string{"chemical/x-daylight-smiles"},
			Display: "a SMILES file", Unit: "lines",
			Shape: "a SMILES file is text: a SMILES per line, optionally followed by a name",
			Parse: func(name string, data []byte, _ Options) (*File, error) { return parseSMILESLines(name, data) }},
		{Name: FormatEdgeList, Extensions: []string{".edges", ".edgelist", ".el"},
			Display: "an edge list", Unit: "graphs",
			Shape: "an edge list is text, one edge (two node names) per line",
			Parse: func(name string, data []byte, _ Options) (*File, error) {
				g, err := parseEdgeList(name, data)
				if err != nil {
					return nil, err
				}
				return &File{Format: FormatEdgeList, Records: []Record{{Graph: g, Index: 1, Where: "graph 1"}}}, nil
			}},
	}
}

// Lookup returns the registry's entry for a format.
func Lookup(name Format) (Entry, bool) {
	for _, e := range Formats() {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// ByExtension returns the entry whose format a file extension (any case,
// with its dot) chooses.
func ByExtension(ext string) (Entry, bool) {
	ext = strings.ToLower(ext)
	for _, e := range Formats() {
		for _, x := range e.Extensions {
			if x == ext {
				return e, true
			}
		}
	}
	return Entry{}, false
}

// Display names a format in messages ("an SD file"); a name the
// registry lacks (core/dataset's folders) names itself.
func (f Format) Display() string {
	if e, ok := Lookup(f); ok {
		return e.Display
	}
	return string(f)
}

// Unit names the records of a format in the plural: "rows", "records",
// "graphs" or "lines"; "records" for a name the registry lacks.
func (f Format) Unit() string {
	if e, ok := Lookup(f); ok {
		return e.Unit
	}
	return "records"
}

// sniffJSON: '{' opens a JSON object, and '[' an array of them unless a
// bracket atom opens a SMILES.
func sniffJSON(data []byte, _ Options) bool {
	t := trimmedHead(data)
	if bytes.HasPrefix(t, []byte("{")) {
		return true
	}
	if !bytes.HasPrefix(t, []byte("[")) {
		return false
	}
	rest := bytes.TrimLeft(t[1:], " \t\r\n")
	return len(rest) == 0 || rest[0] == '{' || rest[0] == ']'
}

// trimmedHead is data without its byte-order mark and leading white space.
func trimmedHead(data []byte) []byte {
	return bytes.TrimLeft(bytes.TrimPrefix(data, bom), " \t\r\n")
}
