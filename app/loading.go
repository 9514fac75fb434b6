package app

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// dataState is the Data tab's: the dataset loaded and the graph picked,
// which the Explore tab shows too, and the molecule file being read.
type dataState struct {
	key     string // current dataset, as the Backend named it
	summary *protocol.Summary
	loading string // what is being loaded, "" when idle
	err     string
	graph   int // the graph picked
	drawing *protocol.Drawing
	x, y    []float64
	// picture is RDKit's drawing of the graph when it is a molecule (SVG
	// text), "" until drawn and for other graphs, which are drawn from
	// their layout.
	picture string
	drawErr string
	draw    slot       // the drawing of the graph picked
	file    *fileState // the molecule file given last; nil when none; set with setFile
	inspect slot       // the inspection of file
}

// fileState is a molecule table, SD file or GraphML collection the user
// gave: what a worker found in it (InspectData), the columns and the
// threshold chosen, and the records that made its last Load fail.
type fileState struct {
	file      protocol.File
	in        *protocol.DataInspection
	values    map[string][]float64 // Response.Arrays of the inspection
	smiles    string
	target    string
	threshold string // as typed
	bad       *protocol.BadRecords
}

func (r *Root) dataTab() app.UI {
	d := &r.data
	t := &DataTab{
		Summary: d.summary, Loading: d.loading, Error: d.err,
		Graph: d.graph, Drawing: d.drawing, X: d.x, Y: d.y, Picture: d.picture, DrawError: d.drawErr,
		OnDemo:   func(name string) { r.act(func(ctx app.Context) { r.demo(ctx, name) }) },
		OnUpload: func(files app.Value) { r.act(func(ctx app.Context) { r.upload(ctx, files) }) },
		OnGraph:  func(i int) { r.act(func(ctx app.Context) { r.pickGraph(ctx, i) }) },
	}
	if f := d.file; f != nil {
		t.File = &DataFile{
			Name: f.file.Name, Inspection: f.in, Values: f.values,
			SMILES: f.smiles, Target: f.target, Threshold: f.threshold, Bad: f.bad,
			Busy:     d.inspect.busy() || d.loading != "",
			OnSMILES: func(c string) { r.act(func(ctx app.Context) { r.pickSMILES(ctx, c) }) },
			OnTarget: func(c string) { r.act(func(ctx app.Context) { r.pickTarget(c) }) },
			OnThreshold: func(s string) {
				r.act(func(ctx app.Context) { f.threshold, f.bad = s, nil })
			},
			OnLoad: func(skipBad bool) { r.act(func(ctx app.Context) { r.loadFile(ctx, skipBad) }) },
		}
		if d.summary != nil {
			t.File.Loaded = d.summary.Name
		}
	}
	return t
}

func (r *Root) demo(ctx app.Context, name string) {
	if r.Backend == nil {
		return
	}
	r.data.loading, r.data.err = name, ""
	r.setFile(nil)
	r.Backend.Demo(name, func(key string, err error) {
		ctx.Dispatch(func(ctx app.Context) { r.loaded(ctx, key, err) })
	})
}

// upload reads the files the user gave (a JS array of File): one
// molecule file is inspected first, anything else (a TU dataset's files,
// a zip) loads at once.
func (r *Root) upload(ctx app.Context, files app.Value) {
	if r.Backend == nil {
		return
	}
	r.data.loading, r.data.err = "your files", ""
	r.Backend.ReadFiles(files, func(fs []protocol.File, err error) {
		ctx.Dispatch(func(ctx app.Context) { r.uploaded(ctx, fs, err) })
	})
}

// uploaded goes on with the files read by upload.
func (r *Root) uploaded(ctx app.Context, fs []protocol.File, err error) {
	d := &r.data
	if err != nil {
		d.loading, d.err = "", "Could not load the dataset: "+err.Error()
		return
	}
	var data []string
	for _, f := range fs {
		if protocol.IsDataFile(f.Name) {
			data = append(data, f.Name)
		}
	}
	switch {
	case len(data) == 1 && len(fs) == 1:
		d.loading, d.err = "", ""
		r.setFile(&fileState{file: fs[0]})
		r.inspectFile(ctx, "")
	case len(data) > 0:
		d.loading = ""
		d.err = fmt.Sprintf("Give one molecule table, SD file or GraphML file at a time, alone (not %s).", strings.Join(namesOf(fs), ", "))
	default:
		d.err = ""
		r.setFile(nil)
		r.load(ctx, r.Backend.Register(fs))
	}
}

func namesOf(fs []protocol.File) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Name)
	}
	return out
}

// inspectFile has a worker list what the molecule file offers, its
// table read with SMILES column smiles ("" for the column named smiles).
func (r *Root) inspectFile(ctx app.Context, smiles string) {
	f := r.data.file
	file := f.file
	if smiles != "" {
		file.Options = &protocol.DataOptions{SMILES: smiles}
	}
	r.status = "Reading " + file.Name + "…"
	r.data.inspect.forget() // an inspection with another column
	r.run(ctx, &r.data.inspect, protocol.Request{Kind: protocol.InspectData, Inputs: []protocol.File{file}}, jobCalls{
		Done: func(ctx app.Context, resp protocol.Response) {
			in := resp.Inspection
			f.in, f.values, f.smiles, f.bad = in, resp.Arrays, in.SMILES, nil
			if f.target == "" || in.Column(f.target) == nil {
				f.target = in.Target
				f.threshold = suggestedThreshold(in, f.target, f.values)
			}
			r.status = fmt.Sprintf("Read %s: %s, %d %s.", file.Name, protocol.Count(in.Records, protocol.Unit(in.Format)), len(in.Columns), columnWord(in.Format, len(in.Columns)))
		},
		Fail: func(ctx app.Context, err error) {
			r.status = "Reading failed."
			r.data.err = err.Error()
			if !strings.HasPrefix(r.data.err, file.Name+":") {
				r.data.err = "Could not read " + file.Name + ": " + r.data.err
			}
			if f.in == nil {
				r.data.file = nil // nothing to show of it
			}
		},
	})
}

// setFile makes f (nil for none) the molecule file shown; an inspection
// of the one before no longer counts.
func (r *Root) setFile(f *fileState) {
	r.data.inspect.forget()
	r.data.file = f
}

// pickSMILES reads the table again with another SMILES column.
func (r *Root) pickSMILES(ctx app.Context, col string) {
	f := r.data.file
	if f == nil || col == "" || col == f.smiles {
		return
	}
	f.smiles, f.bad, r.data.err = col, nil, ""
	r.inspectFile(ctx, col)
}

// pickTarget takes column col for the classes, with the threshold
// suggested for it.
func (r *Root) pickTarget(col string) {
	f := r.data.file
	if f == nil || f.in == nil {
		return
	}
	f.target, f.bad, r.data.err = col, nil, ""
	f.threshold = suggestedThreshold(f.in, col, f.values)
}

// loadFile loads the molecule file with the choices made, leaving out
// the records that cannot be read when skipBad is set.
func (r *Root) loadFile(ctx app.Context, skipBad bool) {
	f := r.data.file
	if f == nil || f.in == nil || r.Backend == nil {
		return
	}
	o := protocol.DataOptions{Target: f.target, SkipBad: skipBad}
	if protocol.IsTable(f.in.Format) {
		o.SMILES = f.smiles
	}
	if x, ok, err := parseThreshold(f.threshold); err != nil {
		r.data.err = "The threshold " + err.Error()
		return
	} else if ok {
		o.Threshold = &x
	}
	file := f.file
	file.Options = &o
	f.bad, r.data.err, r.data.loading = nil, "", file.Name
	r.load(ctx, r.Backend.Register([]protocol.File{file}))
}

// suggestedThreshold is the cut the page proposes for a target: the
// median of a numeric column, unless its values are at most two whole
// numbers (classes already, such as 0 and 1); "" for a text column.
func suggestedThreshold(in *protocol.DataInspection, target string, values map[string][]float64) string {
	c := in.Column(target)
	if c == nil || !c.Numeric {
		return ""
	}
	whole := true
	for _, v := range values[protocol.ColumnValues+target] {
		if !math.IsNaN(v) && v != math.Trunc(v) {
			whole = false
		}
	}
	if whole && c.Distinct <= 2 {
		return ""
	}
	return strconv.FormatFloat(c.Median, 'g', -1, 64)
}

// parseThreshold reads a threshold as typed: ok is false for an empty
// one (no threshold).
func parseThreshold(s string) (x float64, ok bool, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false, nil
	}
	x, err = strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, false, fmt.Errorf("%q is not a number", s)
	}
	return x, true, nil
}

func (r *Root) loaded(ctx app.Context, key string, err error) {
	if err != nil {
		r.data.loading, r.data.err = "", "Could not load the dataset: "+err.Error()
		return
	}
	r.load(ctx, key)
}

// load parses dataset key in a worker and shows its summary and graph 0.
func (r *Root) load(ctx app.Context, key string) {
	what := r.data.loading
	r.status = "Reading " + what + "…"
	r.run(ctx, nil, protocol.Request{Kind: protocol.Load, Dataset: key}, jobCalls{
		Progress: func(ctx app.Context, stage string, done, total int) {
			r.status = fmt.Sprintf("%s %d/%d", stage, done, total)
		},
		Done: func(ctx app.Context, resp protocol.Response) {
			d := &r.data
			d.key, d.summary, d.loading, d.err = key, resp.Summary, "", ""
			r.Backend.Save(key)
			r.status = fmt.Sprintf("Loaded %s: %s.", resp.Summary.Name, protocol.Count(resp.Summary.Graphs, "graphs"))
			r.explore.clear()
			r.cancelCV("")
			r.train.cv = nil // its results belong to the previous dataset
			r.startSettings()
			if last := r.train.lastRun; last != nil && last.Key == key {
				r.showRun(ctx, last)
			}
			r.pickGraph(ctx, 0)
		},
		Fail: func(ctx app.Context, err error) {
			d := &r.data
			d.loading, r.status = "", "Loading failed."
			var je *protocol.JobError
			if errors.As(err, &je) && je.Bad != nil && d.file != nil && d.file.file.Name == je.Bad.File {
				// The file's panel lists the records and offers to
				// load the others.
				d.file.bad = je.Bad
				r.status = fmt.Sprintf("Loading failed: %s cannot be read.", je.Bad.Which())
				return
			}
			d.err = "Could not load " + what + ": " + err.Error()
			if d.summary != nil {
				d.err += "\nThe dataset " + d.summary.Name + " is still loaded."
			}
		},
	})
}

// depictGraph has RDKit draw the graph shown when it is a molecule; the
// graph's layout stands meanwhile and if RDKit cannot.
func (r *Root) depictGraph(ctx app.Context) {
	d := &r.data
	dr := d.drawing
	if dr == nil || dr.Molecule == "" {
		return
	}
	dep := Depiction{Molecule: dr.Molecule, LayOut: dr.LayOut, Nodes: dr.N, Width: moleculeSize, Height: moleculeSize}
	r.depict(ctx, dep, func(ctx app.Context, svg string, err error) {
		if d.drawing == dr && err == nil {
			d.picture = depictionSVG(svg, moleculeLabel(dr))
		}
	})
}

// moleculeSize is the side of RDKit's drawings of the Data and Explore
// tabs, in pixels: square, as the graphs' layouts are.
const moleculeSize = 400

// moleculeLabel names a molecule's drawing for screen readers.
func moleculeLabel(d *protocol.Drawing) string {
	return fmt.Sprintf("Graph %d (class %s) drawn by RDKit as a molecule: %d atoms, %d bonds", d.Graph, d.Class, d.N, len(d.Edges))
}

func (r *Root) pickGraph(ctx app.Context, i int) {
	d := &r.data
	if d.summary == nil || i < 0 || i >= d.summary.Graphs {
		return
	}
	if d.drawing != nil && d.drawing.Graph != i {
		d.drawing, d.x, d.y, d.picture = nil, nil, nil, "" // show "Drawing…", not the previous graph
	}
	d.graph, d.drawErr = i, ""
	// A drawing is quick: the one of the graph picked before runs on
	// rather than retire its worker (slot.forget).
	d.draw.forget()
	r.run(ctx, &d.draw, protocol.Request{Kind: protocol.Draw, Dataset: d.key, Graph: i}, jobCalls{
		Done: func(ctx app.Context, resp protocol.Response) {
			d.drawing, d.x, d.y, d.picture = resp.Drawing, resp.Arrays["x"], resp.Arrays["y"], ""
			r.depictGraph(ctx)
			r.depictExplored(ctx)
		},
		Fail: func(ctx app.Context, err error) { d.drawErr = err.Error() },
	})
	if r.current() == "explore" {
		r.startExplore(ctx)
	} else {
		r.explore.job.drop(r.Backend) // of another graph
		r.explore.clear()
	}
}
