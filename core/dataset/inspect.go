package dataset

import (
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"wkpi-web/core/graphfile"
	"wkpi-web/core/wire"
)

// Inspection is what a file offers before it is read as a dataset: the
// columns, SD properties or GraphML graph keys a page lets the user pick
// the SMILES and the target from, with what Parse would pick by default.
type Inspection struct {
	Format  string `json:"format"`  // as Report.Format
	Records int    `json:"records"` // data rows, SD records, GraphML graphs, TU graphs or neurons
	// Columns are a table's columns, or the SD properties or GraphML
	// graph-level keys in order of first appearance; nil for a zip.
	Columns []Column `json:"columns"`
	// SMILES is a table's SMILES column ("" when no column is named
	// smiles and Options.SMILES is not set: the user must pick one).
	SMILES string `json:"smiles,omitempty"`
	// Name is the column the names come from ("" when none).
	Name string `json:"name,omitempty"`
	// Target is the target Parse would read ("" when it would ask).
	Target string `json:"target,omitempty"`
	// Bad are the records whose graph cannot be read (a bad SMILES or
	// molfile record), whatever the target.
	Bad []Skipped `json:"bad,omitempty"`
}

// Column describes the values of one column or property (wire.Column).
type Column = wire.Column

// Inspect lists what the file named name offers as a dataset. Of o, only
// SMILES (the table's SMILES column) and Target (checked, and then
// reported) count. A table whose SMILES column is not found still lists
// its columns, so that the user can pick one.
func Inspect(name string, data []byte, o Options) (*Inspection, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".zip":
		_, rep, err := parseZip(name, data, Options{})
		if err != nil {
			return nil, err
		}
		return &Inspection{Format: rep.Format, Records: rep.Records}, nil
	case ".csv", ".tsv":
		f, err := graphfile.ReadTable(name, data, graphfile.Options{SMILESColumn: o.SMILES})
		if err != nil {
			// No SMILES column (or a bad one): list the columns anyway.
			t, rerr := graphfile.ReadRows(name, data, o.SMILES)
			if rerr != nil {
				return nil, rerr
			}
			in := &Inspection{Format: string(t.Format), Records: len(t.Rows)}
			for i, c := range t.Columns {
				var values []string
				for _, r := range t.Rows {
					if i < len(r.Fields) {
						values = append(values, r.Fields[i])
					}
				}
				in.Columns = append(in.Columns, describeColumn(c, values))
			}
			if n := t.NameColumn(-1); n >= 0 {
				in.Name = t.Columns[n]
			}
			return in, nil
		}
		return inspectFile(name, f, o)
	}
	f, err := readFile(name, data, o.SMILES)
	if err != nil {
		return nil, err
	}
	return inspectFile(name, f, o)
}

// inspectFile describes the records of a table, SD or GraphML file.
func inspectFile(name string, f *graphfile.File, o Options) (*Inspection, error) {
	in := &Inspection{Format: string(f.Format), Records: len(f.Records), SMILES: f.SMILESColumn, Name: f.NameColumn}
	keys := f.Columns
	if keys == nil {
		keys = propertyKeys(f.Records)
	}
	for _, k := range keys {
		if k == f.SMILESColumn {
			continue
		}
		var values []string
		for _, r := range f.Records {
			if v, ok := r.Prop(k); ok {
				values = append(values, v)
			}
		}
		in.Columns = append(in.Columns, describeColumn(k, values))
	}
	for _, r := range f.Records {
		if r.Err != nil {
			in.Bad = append(in.Bad, Skipped{Index: r.Index, Where: r.Where, Name: r.Name, Problem: r.Err.Error()})
		}
	}
	target, err := chooseTarget(name, f, o.Target)
	if err != nil && o.Target != "" {
		return nil, err
	}
	in.Target = target
	return in, nil
}

// describeColumn counts a column's values.
func describeColumn(name string, values []string) Column {
	c := Column{Name: name, Numeric: true, Examples: []string{}}
	seen := map[string]bool{}
	var nums []float64
	for _, v := range values {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		c.Values++
		if !seen[v] {
			seen[v] = true
			c.Distinct++
			if len(c.Examples) < 3 {
				c.Examples = append(c.Examples, v)
			}
		}
		if x, err := strconv.ParseFloat(v, 64); err == nil && !math.IsNaN(x) && !math.IsInf(x, 0) {
			nums = append(nums, x)
		} else {
			c.Numeric = false
		}
	}
	if c.Values == 0 {
		c.Numeric = false
	}
	if c.Numeric {
		c.Median = Median(nums)
	}
	return c
}
