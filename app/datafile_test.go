package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/jobs"
	"wkpi-web/wasm/protocol"
)

// molTable is a SMILES table: row 3's SMILES is bad, row 5 has no pIC50.
const molTable = `ID,SMILES,activity,pIC50
m1,CCO,inactive,4.5
m2,c1ccccc1[N+](=O)[O-],active,7.25
m3,C1CC,active,6
m4,CC(=O)O,inactive,5
m5,c1ccncc1,active,
m6,CCN,inactive,5.5
m7,OCCO,active,8
`

// run answers job j with a worker of package jobs, as the pool would:
// Done, or Fail with the response's *protocol.JobError.
func run(t *testing.T, w *jobs.Worker, j submitted, files []protocol.File) protocol.Response {
	t.Helper()
	req := j.req
	if req.Dataset != "" {
		req.Files = files
	}
	resp := w.Run(context.Background(), req, nil, nil)
	if err := resp.Err(); err != nil {
		j.h.Fail(err)
	} else {
		j.h.Done(resp)
	}
	return resp
}

// inspected is the DataFile of molTable as a worker inspects it.
func inspected(t *testing.T) *DataFile {
	t.Helper()
	var w jobs.Worker
	resp := w.Run(context.Background(), protocol.Request{Kind: protocol.InspectData, Inputs: []protocol.File{{Name: "mols.csv", Data: []byte(molTable)}}}, nil, nil)
	if resp.Event != protocol.Done {
		t.Fatal(resp.Error)
	}
	in := resp.Inspection
	return &DataFile{Name: "mols.csv", Inspection: in, Values: resp.Arrays, SMILES: in.SMILES, Target: in.Target}
}

// chosen is the column chosen in menu id of html, "" for none.
func chosen(t *testing.T, html, id string) string {
	t.Helper()
	c := selected(t, html, id)
	if len(c) != 1 {
		return fmt.Sprint(c)
	}
	if c[0] == "none" {
		return ""
	}
	var cols []string
	_, rest, _ := strings.Cut(html, `id="`+id+`"`)
	rest, _, _ = strings.Cut(rest, "</select>")
	for _, m := range regexp.MustCompile(`<option[^>]*>([^<]*)</option>`).FindAllStringSubmatch(rest, -1) {
		cols = append(cols, m[1])
	}
	for i, o := range elems(rest, "option") {
		if o["value"] == c[0] {
			return cols[i]
		}
	}
	return "(" + c[0] + ")"
}

func loadEnabled(html string) bool {
	tag := regexp.MustCompile(`<button[^>]*id="data-load"[^>]*>`).FindString(html)
	return tag != "" && !regexp.MustCompile(`\sdisabled[\s>=]`).MatchString(tag)
}

// TestDataFileStates: the file's panel lists the columns with examples,
// the menus hold the choices, a numeric target gets a threshold field
// whose classes are counted as typed, and Load is offered only for
// choices that make two classes.
func TestDataFileStates(t *testing.T) {
	f := inspected(t)
	html := app.HTMLString(f)
	for _, want := range []string{
		"A CSV table of 7 rows; the names come from ID. Molecules that cannot be read: 1 of the 7 rows; Load lists it.",
		"The 3 columns found", `data-column="activity"`, `data-column="pIC50"`, "numbers, median 5.75", "inactive · active",
		"Each of the 2 different values of activity is a class.",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in\n%s", want, html)
		}
	}
	if chosen(t, html, "data-smiles") != "SMILES" || chosen(t, html, "data-target") != "activity" || strings.Contains(html, "data-threshold") || !loadEnabled(html) {
		t.Errorf("text target: menus %q %q, threshold field %v, Load %v", chosen(t, html, "data-smiles"), chosen(t, html, "data-target"),
			strings.Contains(html, "data-threshold"), loadEnabled(html))
	}

	f.Target, f.Threshold = "pIC50", "5.75"
	for _, tc := range []struct {
		threshold, want string
		load            bool
	}{
		{"5.75", "Classes pIC50 &lt; 5.75: 3 and pIC50 &gt;= 5.75: 2. 1 without a value cannot be read.", true},
		{"5", "Classes pIC50 &lt; 5: 1 and pIC50 &gt;= 5: 4.", true},
		{" 7.25 ", "Classes pIC50 &lt; 7.25: 3 and pIC50 &gt;= 7.25: 2.", true},
		{"9", "The threshold leaves one class: choose another.", false},
		{"1e", `The threshold &#34;1e&#34; is not a number.`, false},
		{"NaN", "is not a number", false},
		{"", "pIC50 holds real numbers: give a threshold to cut them into two classes.", false},
	} {
		f.Threshold = tc.threshold
		html := app.HTMLString(f)
		if !strings.Contains(html, tc.want) || loadEnabled(html) != tc.load {
			t.Errorf("threshold %q: Load %v, want %v; no %q in\n%s", tc.threshold, loadEnabled(html), tc.load, tc.want, html)
		}
		in := elems(html, "input")
		invalid := regexp.MustCompile(`<input[^>]*\saria-invalid[\s>]`).MatchString(html)
		if len(in) != 1 || in[0]["id"] != "data-threshold" || in[0]["value"] != tc.threshold || invalid != !tc.load {
			t.Errorf("threshold %q: field %v, marked invalid %v", tc.threshold, in, invalid)
		}
	}

	// Whole numbers are classes without a threshold; a single value is not.
	var w jobs.Worker
	resp := w.Run(context.Background(), protocol.Request{Kind: protocol.InspectData, Inputs: []protocol.File{{Name: "n.csv",
		Data: []byte("smiles,rings,same\nC,0,x\nCC,1,x\nC1CC1,1,x\nc1ccccc1,2,x\n")}}}, nil, nil)
	n := &DataFile{Name: "n.csv", Inspection: resp.Inspection, Values: resp.Arrays, SMILES: "smiles", Target: "rings"}
	n.Threshold = suggestedThreshold(n.Inspection, "rings", n.Values)
	if html := app.HTMLString(n); n.Threshold != "1" || !strings.Contains(html, "Classes rings &lt; 1: 1 and rings &gt;= 1: 3.") || !loadEnabled(html) {
		t.Errorf("rings: threshold %q\n%s", n.Threshold, html)
	}
	if n.Threshold = ""; !strings.Contains(app.HTMLString(n), "Each of the 3 different values of rings is a class. Give a threshold") || !loadEnabled(app.HTMLString(n)) {
		t.Errorf("rings without a threshold:\n%s", app.HTMLString(n))
	}
	if n.Target = "same"; !strings.Contains(app.HTMLString(n), "Every value of same is &#34;x&#34;: a classifier needs two classes.") || loadEnabled(app.HTMLString(n)) {
		t.Errorf("a single value:\n%s", app.HTMLString(n))
	}

	// A table whose SMILES column is not named smiles: pick it first.
	resp = w.Run(context.Background(), protocol.Request{Kind: protocol.InspectData, Inputs: []protocol.File{{Name: "p.csv", Data: []byte("id,structure,y\na,CCO,1\nb,CCN,2\n")}}}, nil, nil)
	g := &DataFile{Name: "p.csv", Inspection: resp.Inspection, Values: resp.Arrays}
	html = app.HTMLString(g)
	if !strings.Contains(html, "No column is named SMILES") || !strings.Contains(html, "Pick the SMILES column.") || chosen(t, html, "data-smiles") != "" ||
		chosen(t, html, "data-target") != "" || loadEnabled(html) {
		t.Errorf("no SMILES column: menus %q %q, Load %v\n%s", chosen(t, html, "data-smiles"), chosen(t, html, "data-target"), loadEnabled(html), html)
	}
	// While the worker reads the file.
	if html := app.HTMLString(&DataFile{Name: "big.sdf"}); !strings.Contains(html, "Reading big.sdf…") || strings.Contains(html, "data-load") {
		t.Errorf("reading: %s", html)
	}
	if f.Busy = true; loadEnabled(app.HTMLString(f)) {
		t.Error("Load is offered while a job runs")
	}
}

// TestBadRowsListed: a Load refused for records that cannot be read
// lists the first ShownBad with their problems and how many more, and
// offers to load the good ones when there are any.
func TestBadRowsListed(t *testing.T) {
	f := inspected(t)
	var first []protocol.BadRecord
	for i := range protocol.ShownBad {
		first = append(first, protocol.BadRecord{Index: i + 1, Where: fmt.Sprintf("row %d (line %d)", i+1, i+2), Problem: fmt.Sprintf("row %d (line %d): bad SMILES", i+1, i+2)})
	}
	f.Bad = &protocol.BadRecords{File: "mols.csv", Unit: "rows", Total: 25, Count: 12, First: first}
	f.Loaded = "MUTAG"
	html := app.HTMLString(f)
	for _, want := range []string{`role="alert"`, "12 of the 25 rows of mols.csv cannot be read, so nothing was loaded:", "row 10 (line 11): bad SMILES",
		"and 2 more", "Load the 13 good rows", "The dataset MUTAG is still loaded."} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in\n%s", want, html)
		}
	}
	if n := strings.Count(html, "<li"); n != protocol.ShownBad+1 {
		t.Errorf("%d list items, want %d and the rest counted", n, protocol.ShownBad+1)
	}
	f.Bad.Count, f.Bad.First = 25, first
	if html := app.HTMLString(f); strings.Contains(html, "load-good") || !strings.Contains(html, "25 of the 25 rows") {
		t.Errorf("no good row, yet:\n%s", html)
	}
}

// TestOwnDataFlow: a molecule file dropped on the Data tab is inspected
// by a worker, its target and threshold picked, and loaded; a load
// refused for bad rows lists them and keeps the dataset loaded before,
// and "Load the good rows" loads the others with their names and the
// rows left out. The jobs are answered by package jobs, as in a worker.
func TestOwnDataFlow(t *testing.T) {
	b := newFakeBackend()
	r, e := mount(t, b)
	var w jobs.Worker

	// A TU dataset first: its files load at once.
	var star []protocol.File
	for _, name := range []string{"STAR_A.txt", "STAR_graph_indicator.txt", "STAR_graph_labels.txt"} {
		data, err := os.ReadFile(filepath.Join("..", "wasm", "jobs", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		star = append(star, protocol.File{Name: name, Data: data})
	}
	r.act(func(ctx app.Context) { r.uploaded(ctx, star, nil) })
	e.ConsumeAll()
	if len(b.of(protocol.InspectData)) != 0 || len(b.registered) != 1 || len(b.of(protocol.Load)) != 1 {
		t.Fatalf("TU files: %d inspections, %d datasets, %d loads", len(b.of(protocol.InspectData)), len(b.registered), len(b.of(protocol.Load)))
	}
	run(t, &w, b.of(protocol.Load)[0], star)
	e.ConsumeAll()
	if r.data.summary == nil || r.data.summary.Name != "STAR" || r.data.file != nil {
		t.Fatalf("after the TU upload: %+v, file %v", r.data.summary, r.data.file)
	}
	starKey := r.data.key

	// Two molecule files at once are refused before any job.
	jobCount := len(b.jobs)
	r.act(func(ctx app.Context) {
		r.uploaded(ctx, []protocol.File{{Name: "a.csv", Data: []byte("x")}, {Name: "b.sdf", Data: []byte("y")}}, nil)
	})
	e.ConsumeAll()
	if !strings.Contains(r.data.err, "one molecule table, SD file or GraphML file at a time") || len(b.jobs) != jobCount {
		t.Fatalf("two molecule files: error %q, %d jobs", r.data.err, len(b.jobs))
	}

	// The table: inspected, not loaded.
	table := protocol.File{Name: "mols.csv", Data: []byte(molTable)}
	r.act(func(ctx app.Context) { r.uploaded(ctx, []protocol.File{table}, nil) })
	e.ConsumeAll()
	ins := b.of(protocol.InspectData)
	if len(ins) != 1 || len(b.registered) != 1 || r.data.err != "" || !strings.Contains(app.HTMLString(r.dataTab()), "Reading mols.csv") {
		t.Fatalf("%d inspections, %d datasets, error %q", len(ins), len(b.registered), r.data.err)
	}
	run(t, &w, ins[0], nil)
	e.ConsumeAll()
	f := r.data.file
	if f.in == nil || f.smiles != "SMILES" || f.target != "activity" || f.threshold != "" {
		t.Fatalf("inspected: %+v", f)
	}
	html := app.HTMLString(r.dataTab())
	if !strings.Contains(html, `id="datafile"`) || !strings.Contains(html, `id="summary"`) || !strings.Contains(html, ">STAR<") {
		t.Errorf("the Data tab shows the file and still the loaded dataset:\n%s", html)
	}

	// The numeric target gets its median as the threshold.
	r.act(func(ctx app.Context) { r.pickTarget("pIC50") })
	e.ConsumeAll()
	if f.target != "pIC50" || f.threshold != "5.75" {
		t.Fatalf("target %q, threshold %q", f.target, f.threshold)
	}
	r.act(func(ctx app.Context) { r.loadFile(ctx, false) })
	e.ConsumeAll()
	loads := b.of(protocol.Load)
	if len(b.registered) != 2 || len(loads) != 2 {
		t.Fatalf("%d datasets, %d loads", len(b.registered), len(loads))
	}
	sent := b.registered[1]
	x := 5.75
	if want := (protocol.DataOptions{SMILES: "SMILES", Target: "pIC50", Threshold: &x}); len(sent) != 1 || !reflect.DeepEqual(*sent[0].Options, want) ||
		loads[1].req.Dataset != protocol.DatasetKey(sent) {
		t.Fatalf("registered %+v with options %+v; load of %q", sent, sent[0].Options, loads[1].req.Dataset)
	}
	// Refused: row 3's SMILES and row 5's empty pIC50.
	run(t, &w, loads[1], sent)
	e.ConsumeAll()
	if f.bad == nil || f.bad.Count != 2 || r.data.key != starKey || r.data.summary.Name != "STAR" || r.data.loading != "" {
		t.Fatalf("refused load: bad %+v, dataset %q", f.bad, r.data.key)
	}
	html = app.HTMLString(r.dataTab())
	for _, want := range []string{"2 of the 7 rows of mols.csv cannot be read", `row 3 (line 4): SMILES &#34;C1CC&#34;: character 2: ring bond 1 is never closed`,
		`row 5 (line 6): empty target &#34;pIC50&#34;`, "Load the 5 good rows", "The dataset STAR is still loaded."} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in\n%s", want, html)
		}
	}

	// The good rows.
	r.act(func(ctx app.Context) { r.loadFile(ctx, true) })
	e.ConsumeAll()
	loads = b.of(protocol.Load)
	if len(loads) != 3 || !b.registered[2][0].Options.SkipBad {
		t.Fatalf("%d loads; options %+v", len(loads), b.registered[2][0].Options)
	}
	run(t, &w, loads[2], b.registered[2])
	e.ConsumeAll()
	s := r.data.summary
	if s == nil || s.Name != "mols" || r.data.key != loads[2].req.Dataset || f.bad != nil ||
		!reflect.DeepEqual(s.Classes, []protocol.Class{{Label: "pIC50 < 5.75", Count: 3}, {Label: "pIC50 >= 5.75", Count: 2}}) {
		t.Fatalf("loaded %+v", s)
	}
	html = app.HTMLString(r.dataTab())
	for _, want := range []string{"mols.csv: a CSV table of 7 rows, the SMILES from the column &#34;SMILES&#34;", "pIC50, cut at 5.75", "2 of the 7 rows, which cannot be read:",
		"pIC50 &lt; 5.75 × 3", "pIC50 &gt;= 5.75 × 2", `id="data-graph-name"`, ">m1<"} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in\n%s", want, html)
		}
	}
	// A target that cannot be cut: a plain error, the dataset stays.
	r.act(func(ctx app.Context) { f.threshold = "1"; r.loadFile(ctx, true) })
	e.ConsumeAll()
	run(t, &w, b.of(protocol.Load)[3], b.registered[3])
	e.ConsumeAll()
	if !strings.Contains(r.data.err, "the threshold leaves one class") || !strings.Contains(r.data.err, "The dataset mols is still loaded.") ||
		r.data.summary != s || f.bad != nil {
		t.Errorf("error %q, summary %v", r.data.err, r.data.summary.Name)
	}
}

// TestNotAnSDFile: a PNG named x.sdf is not shown as an SD file of one
// unreadable record: the Data tab says it is not an SD file, once, and
// what one is.
func TestNotAnSDFile(t *testing.T) {
	png, err := os.ReadFile(filepath.Join("..", "core", "graphfile", "testdata", "icon.png"))
	if err != nil {
		t.Fatal(err)
	}
	b := newFakeBackend()
	r, e := mount(t, b)
	var w jobs.Worker
	r.act(func(ctx app.Context) { r.uploaded(ctx, []protocol.File{{Name: "x.sdf", Data: png}}, nil) })
	e.ConsumeAll()
	ins := b.of(protocol.InspectData)
	if len(ins) != 1 {
		t.Fatalf("%d inspections", len(ins))
	}
	run(t, &w, ins[0], nil)
	e.ConsumeAll()
	html := app.HTMLString(r.dataTab())
	want := "x.sdf: this is not an SD file: it is a PNG image; an SD file is text: molfile records, each with its counts line (ending V2000 or V3000) on its fourth line"
	if !strings.HasPrefix(r.data.err, want) || r.data.file != nil || !strings.Contains(html, `id="load-error"`) || strings.Contains(html, "1 records") {
		t.Errorf("error %q, file %v, tab\n%s", r.data.err, r.data.file, html)
	}
}

// TestOneRecordAgrees: an SD file of one record and one property reads
// "1 record", "the 1 property found, with its", "the only record".
func TestOneRecordAgrees(t *testing.T) {
	in := &protocol.DataInspection{File: "one.sdf", Format: protocol.FormatSD, Records: 1,
		Columns: []protocol.DataColumn{{Name: "pAct", Values: 1, Distinct: 1, Numeric: true, Median: 6, Examples: []string{"6"}}},
		Bad:     &protocol.BadRecords{File: "one.sdf", Unit: "records", Total: 1, Count: 1}}
	html := app.HTMLString(&DataFile{Name: "one.sdf", Inspection: in})
	for _, want := range []string{"An SD file of 1 record.", "Molecules that cannot be read: the only record; Load lists it.",
		"The 1 property found, with its first different values"} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in\n%s", want, html)
		}
	}
	if strings.Contains(html, "1 records") || strings.Contains(html, "1 properties") {
		t.Errorf("a plural after 1 in\n%s", html)
	}
}
