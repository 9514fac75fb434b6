package dataset

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"wkpi-web/core/graph"
	"wkpi-web/core/graphfile"
	"wkpi-web/core/swc"
	"wkpi-web/core/tu"
	"wkpi-web/core/wire"
)

// Formats of a dataset besides graphfile's table, SD and GraphML ones.
const (
	FormatTU  = "tu"  // a TU Dortmund folder or zip
	FormatSWC = "swc" // a folder or zip of SWC neurons with a labels.csv
)

// MaxClasses is the most classes a target may have without a threshold:
// more is taken for a measurement rather than a class.
const MaxClasses = 100

// shownBad is how many bad records an error lists.
const shownBad = 3

// Options choose what a file's records become (wire.DatasetOptions,
// plain data the page links).
type Options = wire.DatasetOptions

// given lists the options set, for the formats that take none.
func given(o Options) []string {
	var out []string
	if o.SMILES != "" {
		out = append(out, "a SMILES column")
	}
	if o.Target != "" {
		out = append(out, "a target")
	}
	if o.Threshold != nil {
		out = append(out, "a threshold")
	}
	if o.SkipBad {
		out = append(out, "skipping bad records")
	}
	return out
}

// Report says how a file became a dataset.
type Report struct {
	Format string `json:"format"`           // a graphfile.Format that carries classes, FormatTU or FormatSWC
	SMILES string `json:"smiles,omitempty"` // the SMILES column read
	Target string `json:"target,omitempty"` // the column, property or key the classes came from
	// Records counts the records of the file, good and bad.
	Records int `json:"records"`
	// Skipped are the records left out under SkipBad.
	Skipped []Skipped `json:"skipped,omitempty"`
	// Numeric is true when every target value read is a number; Median is
	// then their median (the cut a page may suggest), else 0.
	Numeric bool    `json:"numeric"`
	Median  float64 `json:"median"`
}

// Skipped is one record that could not be read (wire.Skipped); its
// Problem names the file, the place and the problem.
type Skipped = wire.Skipped

// BadRecordsError reports records that cannot be read when SkipBad is
// off, or when no record can be read at all.
type BadRecordsError struct {
	File  string
	Unit  string // "rows", "records" or "graphs"
	Total int    // records in the file
	Bad   []Skipped
}

func (e *BadRecordsError) Error() string {
	var b strings.Builder
	switch {
	case e.Total == 1:
		fmt.Fprintf(&b, "%s: its only %s cannot be read: ", e.File, strings.TrimSuffix(e.Unit, "s"))
	case len(e.Bad) == e.Total:
		fmt.Fprintf(&b, "%s: none of the %d %s can be read: ", e.File, e.Total, e.Unit)
	default:
		fmt.Fprintf(&b, "%s: %d of %d %s cannot be read: ", e.File, len(e.Bad), e.Total, e.Unit)
	}
	for i, s := range e.Bad[:min(shownBad, len(e.Bad))] {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(strings.TrimPrefix(s.Problem, e.File+" "))
	}
	if len(e.Bad) > shownBad {
		fmt.Fprintf(&b, "; and %d more", len(e.Bad)-shownBad)
	}
	return b.String()
}

// Read loads a labelled dataset from a path: a TU folder, a folder of
// SWC neurons with a labels.csv, or one file that Parse reads, a zip of
// either among them (errors name the file by its base name).
func Read(path string, o Options) (*graph.Dataset, *Report, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if info.IsDir() {
		if _, err := os.Stat(filepath.Join(path, "labels.csv")); err == nil {
			if err := noOptions(path, "a folder of SWC neurons", o); err != nil {
				return nil, nil, err
			}
			return swcReport(swc.ReadSample(path))
		}
		if err := noOptions(path, "a TU folder", o); err != nil {
			return nil, nil, err
		}
		return tuReport(tu.ReadDir(path))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return Parse(filepath.Base(path), data, o)
}

func tuReport(ds *graph.Dataset, err error) (*graph.Dataset, *Report, error) {
	if err != nil {
		return nil, nil, err
	}
	return ds, &Report{Format: FormatTU, Records: len(ds.Graphs)}, nil
}

func swcReport(ds *graph.Dataset, err error) (*graph.Dataset, *Report, error) {
	if err != nil {
		return nil, nil, err
	}
	return ds, &Report{Format: FormatSWC, Records: len(ds.Graphs)}, nil
}

// noOptions refuses options for a format that has no use for them.
func noOptions(name, what string, o Options) error {
	if g := given(o); len(g) > 0 {
		return fmt.Errorf("%s: %s takes no options (%s given): its classes are in its label file", name, what, strings.Join(g, ", "))
	}
	return nil
}

// Parse reads a labelled dataset from the bytes of one file named name:
// a table of SMILES (.csv, .tsv), an SD file (.sdf, .sd, .mol), a GraphML
// collection (.graphml, .xml), or a .zip: of SWC neurons when it holds a
// labels.csv (at its top or in one folder) and no TU edge file, else of a
// TU dataset. Another name is read by its content (graphfile.ReadFile),
// which must then be one of these. The classes come from the target
// (Options.Target), cut in two by Options.Threshold when set. Each graph
// gets its record's name.
func Parse(name string, data []byte, o Options) (*graph.Dataset, *Report, error) {
	if strings.EqualFold(filepath.Ext(name), ".zip") {
		return parseZip(name, data, o)
	}
	f, err := readFile(name, data, o.SMILES)
	if err != nil {
		return nil, nil, err
	}
	return fromRecords(name, f, o)
}

// readFile reads a file that may hold a dataset: tables by their
// extension, anything else by graphfile.ReadFile, refusing formats
// without classes.
func readFile(name string, data []byte, smilesColumn string) (*graphfile.File, error) {
	var f *graphfile.File
	var err error
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv", ".tsv":
		f, err = graphfile.ReadTable(name, data, graphfile.Options{SMILESColumn: smilesColumn})
	default:
		f, err = graphfile.ReadFile(name, data, graphfile.Options{SMILESColumn: smilesColumn})
	}
	if err != nil {
		return nil, err
	}
	e, _ := graphfile.Lookup(f.Format)
	switch {
	case !e.Classes:
		return nil, fmt.Errorf("%s: %s holds no classes: a dataset is a CSV or TSV table of SMILES with a class column, "+
			"an SD file with a class property, a GraphML file with a class per graph, a TU folder or zip, or a folder or zip of SWC neurons", name, e.Display)
	case !e.Table && smilesColumn != "":
		return nil, fmt.Errorf("%s: a SMILES column is given, but the file is %s, not a table", name, e.Display)
	}
	return f, nil
}

// Unit names the records of a format (Report.Format) in messages: rows,
// graphs or records.
func Unit(format string) string { return graphfile.Format(format).Unit() }

// fromRecords labels the records of f by their target.
func fromRecords(name string, f *graphfile.File, o Options) (*graph.Dataset, *Report, error) {
	if o.Threshold != nil && (math.IsNaN(*o.Threshold) || math.IsInf(*o.Threshold, 0)) {
		return nil, nil, fmt.Errorf("%s: the threshold %v is not a finite number", name, *o.Threshold)
	}
	target, err := chooseTarget(name, f, o.Target)
	if err != nil {
		return nil, nil, err
	}
	rep := &Report{Format: string(f.Format), SMILES: f.SMILESColumn, Target: target, Records: len(f.Records)}
	ds := &graph.Dataset{Name: strings.TrimSuffix(name, filepath.Ext(name))}
	var raw []string
	var where []string
	var bad []Skipped
	for _, r := range f.Records {
		err := r.Err
		var v string
		if err == nil {
			v, err = targetValue(name, f.Format, r, target, o.Threshold)
		}
		if err != nil {
			bad = append(bad, Skipped{Index: r.Index, Where: r.Where, Name: r.Name, Problem: err.Error()})
			continue
		}
		ds.Graphs = append(ds.Graphs, r.Graph)
		ds.Names = append(ds.Names, r.Name)
		ds.Molecules = append(ds.Molecules, r.Molecule)
		raw = append(raw, v)
		where = append(where, valueWhere(r, target))
	}
	if len(bad) > 0 && (!o.SkipBad || len(bad) == len(f.Records)) {
		return nil, nil, &BadRecordsError{File: name, Unit: f.Format.Unit(), Total: len(f.Records), Bad: bad}
	}
	rep.Skipped = bad
	values, numeric := numbers(raw)
	rep.Numeric = numeric
	if numeric {
		rep.Median = Median(values)
	}
	if o.Threshold != nil {
		ds.Labels, ds.Classes, err = cut(name, target, values, *o.Threshold)
	} else {
		ds.Labels, ds.Classes, err = classes(name, target, raw, where, values, numeric)
	}
	if err != nil {
		return nil, nil, err
	}
	return ds, rep, nil
}

// targetKeys are the SD properties and GraphML keys taken for the class
// when no target is named, most preferred first (compared without case).
func targetKeys() []string { return []string{"activity", "class", "label", "target", "y"} }

// chooseTarget returns the column, property or key that holds the class.
func chooseTarget(name string, f *graphfile.File, want string) (string, error) {
	var keys []string
	what := "property"
	if f.Columns != nil {
		what = "column"
		for _, c := range f.Columns {
			if c != f.SMILESColumn {
				keys = append(keys, c)
			}
		}
	} else {
		if f.Format == graphfile.FormatGraphML {
			what = "graph-level key"
		}
		keys = propertyKeys(f.Records)
	}
	if want != "" {
		if want == f.SMILESColumn {
			return "", fmt.Errorf("%s: the target %q is the SMILES column", name, want)
		}
		if k, ok := match(keys, want); ok {
			return k, nil
		}
		if f.Format == graphfile.FormatGraphML {
			for _, r := range f.Records {
				for _, p := range r.Props {
					if p.ID == want {
						return p.Key, nil
					}
				}
			}
		}
		if len(keys) == 0 {
			return "", fmt.Errorf("%s: no %s %q: the file has none", name, what, want)
		}
		return "", fmt.Errorf("%s: no %s %q; the file has %s", name, what, want, list(keys))
	}
	if f.Columns != nil {
		for _, k := range keys {
			if k != f.NameColumn {
				return k, nil
			}
		}
		return "", fmt.Errorf("%s: no column holds classes: the columns are %s; add a class column", name, list(f.Columns))
	}
	for _, t := range targetKeys() {
		if k, ok := match(keys, t); ok && strings.EqualFold(k, t) {
			return k, nil
		}
	}
	var others []string
	for _, k := range keys {
		if graphfile.NameLike(k) == 0 {
			others = append(others, k)
		}
	}
	if len(others) == 1 {
		return others[0], nil
	}
	if len(keys) == 0 {
		if f.Format == graphfile.FormatGraphML {
			return "", fmt.Errorf("%s: no graph-level <data>: give each <graph> a <data key=...> holding its class", name)
		}
		return "", fmt.Errorf("%s: the records have no data items (> <NAME>) to take classes from", name)
	}
	return "", fmt.Errorf("%s: no %s is named activity, class, label, target or y: name the one holding the class; the file has %s", name, what, list(keys))
}

// match finds want among keys: exactly, else the one key equal to it
// without case.
func match(keys []string, want string) (string, bool) {
	if slices.Contains(keys, want) {
		return want, true
	}
	found := ""
	for _, k := range keys {
		if strings.EqualFold(k, want) {
			if found != "" {
				return "", false
			}
			found = k
		}
	}
	return found, found != ""
}

// propertyKeys lists the property names of the records in order of
// first appearance.
func propertyKeys(records []graphfile.Record) []string {
	var keys []string
	seen := map[string]bool{}
	for _, r := range records {
		for _, p := range r.Props {
			if !seen[p.Key] {
				seen[p.Key] = true
				keys = append(keys, p.Key)
			}
		}
	}
	return keys
}

// list quotes names for a message, at most 20 of them.
func list(names []string) string {
	q := make([]string, 0, min(len(names), 20))
	for _, n := range names[:min(len(names), 20)] {
		q = append(q, strconv.Quote(n))
	}
	s := strings.Join(q, ", ")
	if len(names) > 20 {
		s += fmt.Sprintf(" and %d more", len(names)-20)
	}
	return s
}

// valueWhere locates a record's target value in messages: an SD data
// item by its value's line ("record 3 (line 60)"), else the record.
func valueWhere(r graphfile.Record, target string) string {
	if p, ok := r.Property(target); ok && p.Line > 0 {
		return fmt.Sprintf("record %d (line %d)", r.Index, p.Line)
	}
	return r.Where
}

// targetValue returns a record's target, or why it has none.
func targetValue(name string, format graphfile.Format, r graphfile.Record, target string, threshold *float64) (string, error) {
	v, ok := r.Prop(target)
	if !ok {
		if format == graphfile.FormatGraphML {
			return "", fmt.Errorf("%s %s: no <data> for the key %q", name, r.Where, target)
		}
		return "", fmt.Errorf("%s %s: no property <%s>", name, r.Where, target)
	}
	v = strings.TrimSpace(v)
	where := valueWhere(r, target)
	if v == "" {
		return "", fmt.Errorf("%s %s: empty target %q", name, where, target)
	}
	if threshold != nil {
		if x, err := strconv.ParseFloat(v, 64); err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return "", fmt.Errorf("%s %s: target %q is %q, not a number, which a threshold needs", name, where, target, v)
		}
	}
	return v, nil
}

// numbers parses the values; numeric is false when one is not a number.
func numbers(raw []string) (values []float64, numeric bool) {
	values = make([]float64, len(raw))
	for i, r := range raw {
		x, err := strconv.ParseFloat(r, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, false
		}
		values[i] = x
	}
	return values, len(raw) > 0
}

// Median returns the median of values (the mean of the middle two for an
// even count); 0 for none.
func Median(values []float64) float64 {
	if len(values) == 0 {
		return 0
	}
	s := slices.Clone(values)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	lo, hi := s[n/2-1], s[n/2]
	m := (lo + hi) / 2
	// The mean of the two middle values in its shortest decimal form
	// (6.44, not 6.4399999999999995), so that a proposed cut reads as a
	// person would write it; it splits the values as the mean does.
	for digits := 1; digits < 17; digits++ {
		r, err := strconv.ParseFloat(strconv.FormatFloat(m, 'g', digits, 64), 64)
		if err == nil && math.Abs(r-m) <= 1e-12*math.Abs(m) && (lo == hi || (lo < r && r <= hi)) {
			return r
		}
	}
	return m
}

// CutClasses names the two classes of target cut at the threshold x:
// "target < x" and "target >= x", so that the classes say what they
// mean wherever they appear (models, predictions, the page).
func CutClasses(target string, x float64) []string {
	t := strconv.FormatFloat(x, 'g', -1, 64)
	return []string{target + " < " + t, target + " >= " + t}
}

// cut labels values by the threshold x.
func cut(name, target string, values []float64, x float64) ([]int, []string, error) {
	names := CutClasses(target, x)
	labels := make([]int, len(values))
	counts := [2]int{}
	for i, v := range values {
		if v >= x {
			labels[i] = 1
		}
		counts[labels[i]]++
	}
	if counts[0] == 0 || counts[1] == 0 {
		lo, hi := slices.Min(values), slices.Max(values)
		side := "<"
		if counts[0] == 0 {
			side = ">="
		}
		return nil, nil, fmt.Errorf("%s: every value of %q is %s %g (the values run from %g to %g, median %g): "+
			"the threshold leaves one class", name, target, side, x, lo, hi, Median(values))
	}
	return labels, names, nil
}

// classes labels raw target texts, refusing what cannot be classes: a
// single class, real numbers, too many classes, and one number written
// two ways.
func classes(name, target string, raw, where []string, values []float64, numeric bool) ([]int, []string, error) {
	if numeric {
		first := map[float64]int{}
		for i, v := range values {
			if v != math.Trunc(v) {
				return nil, nil, fmt.Errorf("%s: the target %q holds real numbers (%q in %s): give a threshold to cut it into two classes (its median is %g)",
					name, target, raw[i], where[i], Median(values))
			}
			if j, ok := first[v]; ok && raw[j] != raw[i] {
				return nil, nil, fmt.Errorf("%s: the target %q writes one number two ways, %q in %s and %q in %s: write it alike",
					name, target, raw[j], where[j], raw[i], where[i])
			} else if !ok {
				first[v] = i
			}
		}
	}
	labels, classes := graph.ClassIndex(raw)
	switch {
	case len(classes) == 1:
		return nil, nil, fmt.Errorf("%s: all %d values of %q are %q: a classifier needs two classes", name, len(raw), target, classes[0])
	case len(classes) > MaxClasses && numeric:
		return nil, nil, fmt.Errorf("%s: the target %q has %d different values, more than %d classes: give a threshold to cut it into two (its median is %g)",
			name, target, len(classes), MaxClasses, Median(values))
	case len(classes) > MaxClasses:
		return nil, nil, fmt.Errorf("%s: the target %q has %d different values, more than %d classes: is it the class column?", name, target, len(classes), MaxClasses)
	}
	return labels, classes, nil
}
