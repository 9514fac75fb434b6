package app

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// DataFile shows what a molecule table, SD file or GraphML collection
// offers (a worker's InspectData), lets the user pick the SMILES column
// and the target, and a threshold for a numeric target with the classes
// it makes counted as they type, and loads the file with those choices.
// When a Load failed on records that cannot be read, it lists them and
// offers to load the others.
type DataFile struct {
	app.Compo
	Name       string
	Inspection *protocol.DataInspection // nil while a worker reads the file
	// Values are the numeric columns' values (protocol.ColumnValues).
	Values                    map[string][]float64
	SMILES, Target, Threshold string
	Bad                       *protocol.BadRecords
	Busy                      bool   // a job on the file or a load runs
	Loaded                    string // the dataset loaded now, "" when none
	OnSMILES, OnTarget        func(column string)
	OnThreshold               func(text string)
	OnLoad                    func(skipBad bool)
}

// shownExample is how many characters of an example value are shown.
const shownExample = 40

// Render lays out the file's description, the columns, the choices and
// the bad records.
func (f *DataFile) Render() app.UI {
	in := f.Inspection
	if in == nil {
		return app.Section().ID("datafile").Class("card").Body(
			app.H2().Text("Your file: "+f.Name),
			app.P().ID("datafile-reading").Class("busy").Text("Reading "+f.Name+"…"),
		)
	}
	table := protocol.IsTable(in.Format)
	what := columnWord(in.Format, len(in.Columns))
	return app.Section().ID("datafile").Class("card").Body(
		app.H2().Text("Your file: "+f.Name),
		app.P().ID("datafile-what").Text(f.description()),
		// A region that may scroll sideways on a narrow screen: focusable,
		// so that the keyboard scrolls it too.
		app.Div().Class("scroll").TabIndex(0).Attr("role", "region").Aria("label", capitalise(what)+" of "+f.Name).Body(
			app.Table().ID("datafile-columns").Class("data-columns stack").Body(
				app.Caption().Text(fmt.Sprintf("The %d %s found, with %s first different values", len(in.Columns), what, plural(len(in.Columns), "its", "their"))),
				app.THead().Body(app.Tr().Body(
					app.Th().Scope("col").Text("Name"),
					app.Th().Scope("col").Text("Values"),
					app.Th().Scope("col").Text("Kind"),
					app.Th().Scope("col").Text("Examples"),
				)),
				app.TBody().Body(app.Range(in.Columns).Slice(func(i int) app.UI {
					c := in.Columns[i]
					return app.Tr().DataSet("column", c.Name).Body(
						app.Th().Scope("row").DataSet("label", "Name").Text(c.Name),
						app.Td().DataSet("label", "Values").Text(fmt.Sprintf("%d (%d different)", c.Values, c.Distinct)),
						app.Td().Class("kind").DataSet("label", "Kind").Text(kind(c)),
						app.Td().Class("examples").DataSet("label", "Examples").Text(examples(c.Examples)),
					)
				})),
			),
		),
		app.Div().Class("form-grid").Body(
			app.If(table, func() app.UI { return f.smilesMenu() }),
			f.targetMenu(),
			app.If(f.numericTarget(), func() app.UI { return f.thresholdField() }),
		),
		app.P().ID("data-classes").Class(f.classesClass()).Text(f.classes()),
		app.Div().Class("row").Body(
			app.Button().ID("data-load").Text("Load").Attr("disabled", flag(!f.ready())).
				OnClick(func(ctx app.Context, e app.Event) {
					if f.OnLoad != nil {
						f.OnLoad(false)
					}
				}),
		),
		app.If(f.Bad != nil, func() app.UI { return f.badRecords() }),
	)
}

// description says what the file is: its format and records, where the
// names come from, and how many molecules cannot be read.
func (f *DataFile) description() string {
	in := f.Inspection
	s := capitalise(protocol.FormatName(in.Format) + " of " + protocol.Count(in.Records, protocol.Unit(in.Format)))
	if in.Name != "" {
		s += "; the names come from " + in.Name
	}
	s += "."
	if in.Bad != nil {
		s += fmt.Sprintf(" Molecules that cannot be read: %s; Load lists %s.", in.Bad.Which(), plural(in.Bad.Count, "it", "them"))
	}
	if protocol.IsTable(in.Format) && in.SMILES == "" {
		s += " No column is named SMILES: pick the column that holds them."
	}
	return s
}

func (f *DataFile) smilesMenu() app.UI {
	in := f.Inspection
	var cols []string
	if in.SMILES != "" {
		cols = append(cols, in.SMILES)
	}
	for _, c := range in.Columns {
		cols = append(cols, c.Name)
	}
	return menu("data-smiles", "SMILES column", f.SMILES, cols, f.Busy, f.OnSMILES)
}

func (f *DataFile) targetMenu() app.UI {
	var cols []string
	for _, c := range f.Inspection.Columns {
		cols = append(cols, c.Name)
	}
	return menu("data-target", "Target: the class, or a number to cut", f.Target, cols, f.Busy, f.OnTarget)
}

// menu is a labelled select of cols with chosen selected, and a first
// entry asking for a choice when none is made.
func menu(id, label, chosen string, cols []string, busy bool, on func(string)) app.UI {
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		app.Select().ID(id).Attr("disabled", flag(busy)).
			OnChange(func(ctx app.Context, e app.Event) {
				// The options' values are the columns' places: go-app
				// leaves an empty value out and writes "true" bare.
				i, err := strconv.Atoi(ctx.JSSrc().Get("value").String())
				if on != nil && err == nil && i >= 0 && i < len(cols) {
					on(cols[i])
				}
			}).Body(
			// Always there, so that the options keep their places: go-app
			// sets an option's selected property only when its attribute
			// changes.
			app.Option().Value("none").Text("Choose…").Attr("selected", flag(chosen == "")).Attr("disabled", flag(true)),
			app.Range(cols).Slice(func(i int) app.UI {
				return app.Option().Value(strconv.Itoa(i)).Text(cols[i]).Attr("selected", flag(cols[i] == chosen))
			}),
		),
	)
}

func (f *DataFile) thresholdField() app.UI {
	_, ok, err := parseThreshold(f.Threshold)
	input := app.Input().ID("data-threshold").Type("text").Attr("inputmode", "decimal").Attr("autocomplete", "off").
		Value(f.Threshold).Aria("describedby", "data-classes").
		OnInput(func(ctx app.Context, e app.Event) {
			if f.OnThreshold != nil {
				f.OnThreshold(ctx.JSSrc().Get("value").String())
			}
		})
	if err != nil || f.oneSided() || !ok && f.notClasses() != "" {
		input = input.Aria("invalid", "true")
	}
	return app.Div().Class("field").Body(
		app.Label().For("data-threshold").Text("Threshold: classes < X and ≥ X"),
		input,
		app.Span().Class("field-help").Text(fmt.Sprintf("The median is %s. Empty: each value is a class.", number(f.column().Median))),
	)
}

// column is the target's column, nil when none is chosen.
func (f *DataFile) column() *protocol.DataColumn {
	if f.Inspection == nil || f.Target == "" {
		return nil
	}
	return f.Inspection.Column(f.Target)
}

func (f *DataFile) numericTarget() bool {
	c := f.column()
	return c != nil && c.Numeric
}

// cut reads the threshold: ok when one is typed and is a number.
func (f *DataFile) cut() (x float64, ok bool, err error) {
	if !f.numericTarget() {
		return 0, false, nil
	}
	return parseThreshold(f.Threshold)
}

// classes says what the classes would be, with the counts of a cut as
// the user types it, or what is missing to load.
func (f *DataFile) classes() string {
	in := f.Inspection
	c := f.column()
	switch {
	case protocol.IsTable(in.Format) && f.SMILES == "":
		return "Pick the SMILES column."
	case c == nil:
		return "Pick the target: the column whose values are the classes, or a number to cut in two."
	}
	x, ok, err := f.cut()
	if err != nil {
		return "The threshold " + err.Error() + "."
	}
	if !ok {
		if why := f.notClasses(); why != "" {
			return why
		}
		s := fmt.Sprintf("Each of the %d different values of %s is a class.", c.Distinct, c.Name)
		if c.Numeric && c.Distinct > 2 {
			s += " Give a threshold to cut them into two classes."
		}
		return s
	}
	values, known := f.Values[protocol.ColumnValues+c.Name]
	if !known {
		return fmt.Sprintf("Classes %s and %s.", cutName(c.Name, "<", x), cutName(c.Name, ">=", x))
	}
	below, above, none := cutCounts(values, x)
	s := fmt.Sprintf("Classes %s: %d and %s: %d.", cutName(c.Name, "<", x), below, cutName(c.Name, ">=", x), above)
	switch {
	case below == 0 || above == 0:
		s += " The threshold leaves one class: choose another."
	case none > 0:
		s += fmt.Sprintf(" %d without a value cannot be read.", none)
	}
	return s
}

func (f *DataFile) classesClass() string {
	if f.ready() || f.Inspection == nil {
		return "classes"
	}
	if _, ok, err := f.cut(); err != nil || f.oneSided() || !ok && f.notClasses() != "" {
		return "classes field-error"
	}
	return "classes"
}

// oneSided reports whether the threshold typed puts every value on one side.
func (f *DataFile) oneSided() bool {
	x, ok, err := f.cut()
	values, known := f.Values[protocol.ColumnValues+f.Target]
	if !ok || err != nil || !known {
		return false
	}
	below, above, _ := cutCounts(values, x)
	return below == 0 || above == 0
}

// ready reports whether the choices make a dataset to load.
func (f *DataFile) ready() bool {
	in := f.Inspection
	if in == nil || f.Busy || f.column() == nil || protocol.IsTable(in.Format) && f.SMILES == "" {
		return false
	}
	_, ok, err := f.cut()
	return err == nil && !f.oneSided() && (ok || f.notClasses() == "")
}

// notClasses says why the target's values, without a threshold, cannot
// be the classes (as core/dataset refuses them): a single value, or real
// numbers; "" when they may be.
func (f *DataFile) notClasses() string {
	c := f.column()
	switch {
	case c == nil:
		return ""
	case c.Distinct == 1:
		return fmt.Sprintf("Every value of %s is %q: a classifier needs two classes.", c.Name, c.Examples[0])
	case c.Numeric:
		for _, v := range f.Values[protocol.ColumnValues+c.Name] {
			if !math.IsNaN(v) && v != math.Trunc(v) {
				return fmt.Sprintf("%s holds real numbers: give a threshold to cut them into two classes.", c.Name)
			}
		}
	}
	return ""
}

// badRecords lists the records that made the last Load fail, and offers
// to load the others.
func (f *DataFile) badRecords() app.UI {
	b := f.Bad
	good := b.Total - b.Count
	return app.Div().ID("bad-rows").Class("error bad-rows").Attr("role", "alert").Body(
		app.P().ID("bad-rows-count").Text(fmt.Sprintf("%s of %s cannot be read, so nothing was loaded:", capitalise(b.Which()), b.File)),
		badList(b),
		app.If(good > 0, func() app.UI {
			return app.Button().ID("load-good").Attr("disabled", flag(f.Busy)).
				Text("Load the " + protocol.Count(good, "good "+b.Unit)).
				OnClick(func(ctx app.Context, e app.Event) {
					if f.OnLoad != nil {
						f.OnLoad(true)
					}
				})
		}),
		app.If(f.Loaded != "", func() app.UI {
			return app.P().Text("The dataset " + f.Loaded + " is still loaded.")
		}),
	)
}

// badList lists the first bad records and how many more there are.
func badList(b *protocol.BadRecords) app.UI {
	return app.Ul().Class("bad-list").Body(
		app.Range(b.First).Slice(func(i int) app.UI {
			return app.Li().Text(b.First[i].Problem)
		}),
		app.If(b.Count > len(b.First), func() app.UI {
			return app.Li().Class("more").Text(fmt.Sprintf("and %d more", b.Count-len(b.First)))
		}),
	)
}

// cutCounts counts the values below x and at or above it, and those
// without a value (NaN).
func cutCounts(values []float64, x float64) (below, above, none int) {
	for _, v := range values {
		switch {
		case math.IsNaN(v):
			none++
		case v < x:
			below++
		default:
			above++
		}
	}
	return below, above, none
}

// cutName names a class of target cut at x as core/dataset.CutClasses
// does.
func cutName(target, op string, x float64) string { return target + " " + op + " " + number(x) }

// columnWord names a format's columns: a table's columns, an SD file's
// properties, a GraphML collection's keys.
func columnWord(format string, n int) string {
	w := "column"
	switch format {
	case protocol.FormatSD:
		w = "property"
		if n != 1 {
			return "properties"
		}
	case protocol.FormatGraphML:
		w = "graph key"
	}
	if n != 1 {
		w += "s"
	}
	return w
}

// kind says whether a column holds numbers (with their median) or text.
func kind(c protocol.DataColumn) string {
	if c.Numeric {
		return "numbers, median " + number(c.Median)
	}
	return "text"
}

// examples joins example values, each cut to shownExample characters.
func examples(ex []string) string {
	out := make([]string, len(ex))
	for i, e := range ex {
		if utf8.RuneCountInString(e) > shownExample {
			e = string([]rune(e)[:shownExample]) + "…"
		}
		out[i] = e
	}
	return strings.Join(out, " · ")
}

func capitalise(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// number writes x in full, as core/dataset names the classes of a cut.
func number(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
