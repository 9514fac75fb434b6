package protocol

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"wkpi-web/core/wire"
)

// The types of this file let the page offer the user's own molecule
// files as datasets (core/dataset) without linking core/dataset: its
// options, columns and bad records are plain data of core/wire, and
// what the page shows of an inspection and of a dataset's source.

// DataOptions say how a molecule table, an SD file or a GraphML
// collection becomes a dataset (core/dataset.Options).
type DataOptions = wire.DatasetOptions

// FileFormat describes a file format to the page: core/graphfile's
// registry (graphfile.Entry) without its readers, which formats.go
// copies (TestFormatTable writes it), and core/dataset's folder formats.
type FileFormat struct {
	Name       string   // graphfile.Format, FormatTU or FormatSWC
	Extensions []string // lower case, with the dot; none for a folder format
	MediaTypes []string // the Content-Types read as this format
	Display    string   // a file of the format in messages: "an SD file"
	Unit       string   // its records in the plural: "rows", "records", "graphs", "lines"
	Classes    bool     // one file is a dataset: its records carry their classes
	Table      bool     // its records are rows under a header, one column the SMILES
}

// FileFormats returns core/graphfile's formats, in its registry's order,
// then core/dataset's TU and SWC, which are folders or zips.
func FileFormats() []FileFormat {
	return append(graphFormats(),
		FileFormat{Name: FormatTU, Display: "a TU dataset", Unit: "graphs", Classes: true},
		FileFormat{Name: FormatSWC, Display: "SWC neurons", Unit: "graphs", Classes: true})
}

// fileFormat returns the format named name.
func fileFormat(name string) (FileFormat, bool) {
	for _, f := range FileFormats() {
		if f.Name == name {
			return f, true
		}
	}
	return FileFormat{}, false
}

// DataExtensions are the extensions of the files that are datasets on
// their own (FileFormat.Classes): the page inspects them before loading
// (IsDataFile).
func DataExtensions() []string {
	var out []string
	for _, f := range FileFormats() {
		if f.Classes {
			out = append(out, f.Extensions...)
		}
	}
	return out
}

// UploadAccept is the Data tab's file input's accept list: TU text files
// and zips (TU, or SWC neurons with a labels.csv), and the files that are
// datasets.
var UploadAccept = ".txt,.zip," + strings.Join(DataExtensions(), ",")

// GraphAccept is the Classify tab's file input's accept list: every
// format's extensions, and TU text files and zips.
var GraphAccept = func() string {
	accept := []string{".txt", ".zip"}
	for _, f := range FileFormats() {
		accept = append(accept, f.Extensions...)
	}
	return strings.Join(accept, ",")
}()

// IsDataFile reports whether name is a dataset on its own (a molecule
// table, an SD file or a GraphML file) by its extension: a file that is
// inspected first and loaded with DataOptions.
func IsDataFile(name string) bool {
	return slices.Contains(DataExtensions(), strings.ToLower(path.Ext(name)))
}

// Formats of DataInspection.Format and DataSource.Format that the page
// tells apart: core/graphfile's and core/dataset's names.
const (
	FormatCSV     = "csv"
	FormatTSV     = "tsv"
	FormatSD      = "sdf"
	FormatGraphML = "graphml"
	FormatTU      = "tu"
	FormatSWC     = "swc"
)

// FormatName names a format for the page: "an SD file".
func FormatName(format string) string {
	if f, ok := fileFormat(format); ok {
		return f.Display
	}
	return format
}

// IsTable reports whether format is a table, which has a SMILES column.
func IsTable(format string) bool {
	f, _ := fileFormat(format)
	return f.Table
}

// Unit names the records of a format in the plural: "rows" of a table,
// "graphs" of a GraphML file, "records" of an SD file.
func Unit(format string) string {
	if f, ok := fileFormat(format); ok {
		return f.Unit
	}
	return "records"
}

// Count writes n of a unit given in the plural ("rows", "records",
// "graphs"): "1 row", "3 rows".
func Count(n int, unit string) string {
	if n == 1 {
		unit = strings.TrimSuffix(unit, "s")
	}
	return fmt.Sprintf("%d %s", n, unit)
}

// Which says which of a file's records cannot be read: "the only
// record" of a file of one, else "2 of the 7 rows".
func (b *BadRecords) Which() string {
	if b.Total == 1 {
		return "the only " + strings.TrimSuffix(b.Unit, "s")
	}
	return fmt.Sprintf("%d of the %d %s", b.Count, b.Total, b.Unit)
}

// DataInspection is what a molecule file offers as a dataset
// (core/dataset.Inspection): its columns, SD properties or GraphML keys,
// and the SMILES, name and target columns core/dataset would take.
type DataInspection struct {
	File    string `json:"file"`
	Format  string `json:"format"`
	Records int    `json:"records"`
	// Columns are the table's columns but the SMILES column (all of them
	// when SMILES is ""), or the SD properties or GraphML graph keys.
	Columns []DataColumn `json:"columns"`
	// SMILES is the table's SMILES column; "" when none is named smiles
	// and none was given: the user picks one.
	SMILES string `json:"smiles,omitempty"`
	Name   string `json:"name,omitempty"`   // the column the names come from
	Target string `json:"target,omitempty"` // the default target; "" when there is none
	// Bad are the records whose molecule or graph cannot be read,
	// whatever the target.
	Bad *BadRecords `json:"bad,omitempty"`
}

// Column returns the column named name, or nil.
func (in *DataInspection) Column(name string) *DataColumn {
	for i := range in.Columns {
		if in.Columns[i].Name == name {
			return &in.Columns[i]
		}
	}
	return nil
}

// DataColumn describes one column's values (core/dataset.Column).
type DataColumn = wire.Column

// ColumnValues prefixes the name of a numeric column in an InspectData
// response's Arrays: Arrays[ColumnValues+name] holds the column's value
// for each record whose molecule can be read, in file order, NaN where
// the record has none. The page counts the classes of a threshold from
// them as the user types it.
const ColumnValues = "column:"

// ShownBad is how many bad records a BadRecords lists.
const ShownBad = 10

// BadRecords are records of a file that cannot be read.
type BadRecords struct {
	File  string `json:"file"`
	Unit  string `json:"unit"`  // "rows", "records" or "graphs"
	Total int    `json:"total"` // records in the file
	Count int    `json:"count"` // records that cannot be read
	// First are the first ShownBad of them, each Problem beginning
	// with its Where (the file's name left out): `row 3 (line 4):
	// SMILES "C1CC": ...`.
	First []BadRecord `json:"first"`
}

// BadRecord is one record that cannot be read (core/dataset.Skipped).
type BadRecord = wire.Skipped

// DataSource says how a molecule file became a dataset (Summary.Source).
type DataSource struct {
	File    string      `json:"file"`
	Format  string      `json:"format"`
	Records int         `json:"records"` // records of the file, good and bad
	Options DataOptions `json:"options"` // as given, with the columns read filled in
	// Skipped are the records left out (Options.SkipBad).
	Skipped *BadRecords `json:"skipped,omitempty"`
}

// JobError is a failed job's error as pool.Handler.Fail receives it: the
// worker's message and, when a Load failed on records that cannot be
// read, which records (use errors.As).
type JobError struct {
	Message string
	Bad     *BadRecords
}

func (e *JobError) Error() string { return e.Message }

// Err returns a Failed response as a *JobError, and nil for other events.
func (r Response) Err() error {
	if r.Event != Failed {
		return nil
	}
	return &JobError{Message: r.Error, Bad: r.Bad}
}

// DatasetKey names the dataset of uploaded files for Request.Dataset: their
// names and sizes, and the options of molecule files, so that the same
// file loaded with another target is another dataset.
func DatasetKey(files []File) string {
	var b strings.Builder
	b.WriteString("upload:")
	for i, f := range files {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s:%d", f.Name, len(f.Data))
		if f.Options != nil {
			if o, err := json.Marshal(f.Options); err == nil {
				b.Write(o)
			} else { // a NaN threshold, which no job accepts either
				fmt.Fprintf(&b, "%+v", *f.Options)
			}
		}
	}
	return b.String()
}
