package jobs

import (
	"errors"
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"

	"wkpi-web/core/dataset"
	"wkpi-web/core/graph"
	"wkpi-web/core/graphfile"
	"wkpi-web/core/tu"
	"wkpi-web/wasm/protocol"
)

// readDataset parses the files of a dataset: through core/dataset, one
// molecule table, SD file or GraphML collection (protocol.IsDataFile)
// with its options, or one zip (a TU dataset, or a folder of SWC neurons
// with a labels.csv); or the text files of a TU dataset. The source is
// nil but for a molecule file.
func readDataset(files []protocol.File) (*graph.Dataset, *protocol.DataSource, error) {
	if len(files) == 1 && protocol.IsDataFile(files[0].Name) {
		return readDataFile(files[0])
	}
	var names []string
	for _, f := range files {
		if protocol.IsDataFile(f.Name) {
			names = append(names, f.Name)
		}
	}
	if len(names) > 0 {
		return nil, nil, fmt.Errorf("%s: load one molecule table, SD file or GraphML file at a time, alone", strings.Join(names, ", "))
	}
	if len(files) == 1 && strings.EqualFold(path.Ext(files[0].Name), ".zip") {
		ds, _, err := dataset.Parse(files[0].Name, files[0].Data, coreOptions(files[0].Options))
		return ds, nil, err
	}
	for _, f := range files {
		if f.Options != nil {
			return nil, nil, fmt.Errorf("%s: a TU dataset takes no options: its classes are in its label file", f.Name)
		}
	}
	m := make(map[string][]byte, len(files))
	for _, f := range files {
		m[f.Name] = f.Data
	}
	ds, err := tu.ReadFiles(m)
	return ds, nil, err
}

// readDataFile reads a molecule file with its options (dataset.Parse).
func readDataFile(f protocol.File) (*graph.Dataset, *protocol.DataSource, error) {
	o := coreOptions(f.Options)
	ds, rep, err := dataset.Parse(f.Name, f.Data, o)
	if err != nil {
		return nil, nil, err
	}
	src := &protocol.DataSource{File: f.Name, Format: rep.Format, Records: rep.Records,
		Options: dataset.Options{SMILES: rep.SMILES, Target: rep.Target, Threshold: o.Threshold, SkipBad: o.SkipBad}}
	if len(rep.Skipped) > 0 {
		src.Skipped = badRecords(f.Name, protocol.Unit(rep.Format), rep.Records, rep.Skipped)
	}
	return ds, src, nil
}

// coreOptions returns the options of a file; nil is no option.
func coreOptions(o *protocol.DataOptions) dataset.Options {
	if o == nil {
		return dataset.Options{}
	}
	return *o
}

// badRecords lists the first protocol.ShownBad of bad, their problems
// without the file's name (the page names the file once).
func badRecords(file, unit string, total int, bad []dataset.Skipped) *protocol.BadRecords {
	b := &protocol.BadRecords{File: file, Unit: unit, Total: total, Count: len(bad), First: []protocol.BadRecord{}}
	for _, s := range bad[:min(len(bad), protocol.ShownBad)] {
		s.Problem = strings.TrimPrefix(s.Problem, file+" ")
		b.First = append(b.First, s)
	}
	return b
}

// failedRecords returns the bad records of a failure to read a molecule
// file, nil for other errors.
func failedRecords(err error) *protocol.BadRecords {
	var bad *dataset.BadRecordsError
	if !errors.As(err, &bad) {
		return nil
	}
	return badRecords(bad.File, bad.Unit, bad.Total, bad.Bad)
}

// inspectData describes the one file of req.Inputs (dataset.Inspect),
// with the values of its numeric columns for the page to count the
// classes of a threshold.
func inspectData(req protocol.Request) (protocol.Response, error) {
	if len(req.Inputs) != 1 {
		return protocol.Response{}, fmt.Errorf("inspect one file at a time, not %d", len(req.Inputs))
	}
	f := req.Inputs[0]
	if !protocol.IsDataFile(f.Name) {
		return protocol.Response{}, fmt.Errorf("%s: not a molecule table, SD file or GraphML file (%s)", f.Name, strings.Join(protocol.DataExtensions(), " "))
	}
	o := coreOptions(f.Options)
	in, err := dataset.Inspect(f.Name, f.Data, dataset.Options{SMILES: o.SMILES, Target: o.Target})
	if err != nil {
		return protocol.Response{}, err
	}
	// Columns are [], not null, for a zip, as the page has always had them.
	out := &protocol.DataInspection{File: f.Name, Format: in.Format, Records: in.Records, Columns: append([]protocol.DataColumn{}, in.Columns...),
		SMILES: in.SMILES, Name: in.Name, Target: in.Target}
	if len(in.Bad) > 0 {
		out.Bad = badRecords(f.Name, protocol.Unit(in.Format), in.Records, in.Bad)
	}
	arrays, err := columnValues(f, in)
	if err != nil {
		return protocol.Response{}, err
	}
	return protocol.Response{Inspection: out, Arrays: arrays}, nil
}

// columnValues reads, for each numeric column of in, its value in each
// record whose molecule can be read (NaN where it has none), as
// dataset.Parse reads the file. A table whose SMILES column is not known
// yet has none.
func columnValues(f protocol.File, in *dataset.Inspection) (map[string][]float64, error) {
	var numeric []string
	for _, c := range in.Columns {
		if c.Numeric {
			numeric = append(numeric, c.Name)
		}
	}
	table := protocol.IsTable(in.Format)
	if len(numeric) == 0 || table && in.SMILES == "" {
		return nil, nil
	}
	o := graphfile.Options{SMILESColumn: in.SMILES}
	var gf *graphfile.File
	var err error
	if table {
		gf, err = graphfile.ReadTable(f.Name, f.Data, o)
	} else {
		gf, err = graphfile.ReadFile(f.Name, f.Data, graphfile.Options{})
	}
	if err != nil {
		return nil, err
	}
	out := make(map[string][]float64, len(numeric))
	for _, name := range numeric {
		var v []float64
		for _, r := range gf.Records {
			if r.Err != nil {
				continue
			}
			x := math.NaN()
			if s, ok := r.Prop(name); ok {
				if y, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil && !math.IsInf(y, 0) {
					x = y
				}
			}
			v = append(v, x)
		}
		out[protocol.ColumnValues+name] = v
	}
	return out, nil
}
