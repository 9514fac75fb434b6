package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"wkpi-web/core/eval"
	"wkpi-web/core/features"
	"wkpi-web/core/graph"
	"wkpi-web/core/spec"
)

// settingsFlags is the one place where commands get their flags: every
// spec.Field of the groups a command asks for, its own flags (the data,
// the output, progress), and the translation to the core's configuration
// (eval.FromSpec), shared by eval, train, compare, the shards of eval and
// the check that slurm runs before it submits them.
type settingsFlags struct {
	name   string
	fs     *flag.FlagSet
	spec   spec.Spec
	preset string
	args   []string // as parse read them
	data   string
	// The data options of files of molecules (core/dataset.Options).
	smiles, target, threshold string
	skipBad                   bool
	stderr                    io.Writer // where skipped records are reported
	out                       string
	progress                  string
	profiles                  profiles
	// groupOf places each flag in a group of the help page, and order
	// lists the flags as they were registered.
	groupOf  map[string]spec.Group
	order    []string
	examples []string
	// autoConflicts are a command's own flags that fix what the
	// automatic image choice would choose (compare's -wkpi-grid).
	autoConflicts []string
}

// newSettingsFlags registers the data and output flags, and every setting
// of groups plus the settings named in more.
func newSettingsFlags(name string, stderr io.Writer, groups []spec.Group, more ...string) *settingsFlags {
	c := &settingsFlags{name: name, fs: flag.NewFlagSet(name, flag.ContinueOnError), spec: spec.Defaults(), groupOf: map[string]spec.Group{}, stderr: stderr}
	c.fs.SetOutput(stderr)
	c.fs.Usage = func() { c.usage(stderr) }
	c.own(spec.GroupData, func(fs *flag.FlagSet) {
		fs.StringVar(&c.data, "data", "", "the dataset: a CSV/TSV of SMILES, an SD file, a GraphML collection, a TU folder or .zip, or a folder or .zip of SWC neurons with a labels.csv (required)")
		fs.StringVar(&c.smiles, "smiles", "", "the SMILES column of a CSV/TSV (default: the column named smiles)")
		fs.StringVar(&c.target, "target", "", "the class: a CSV/TSV column, an SD property or a GraphML graph key (default: the first other column; the property or key named activity, class, label, target or y)")
		fs.StringVar(&c.threshold, "threshold", "", "cut a numeric target into the classes \"< X\" and \">= X\"")
		fs.BoolVar(&c.skipBad, "skip-bad", false, "leave out rows that cannot be read (bad SMILES, empty target) and count them on stderr, instead of failing")
	})
	c.own(spec.GroupOutput, func(fs *flag.FlagSet) {
		fs.StringVar(&c.out, "out", "", "output file (default: standard output)")
		fs.StringVar(&c.progress, "progress", "auto", "progress on stderr: on, off, or auto (on when stderr is a terminal)")
		fs.StringVar(&c.profiles.cpu, "cpuprofile", "", "write a CPU profile of the run to this file, for go tool pprof")
		fs.StringVar(&c.profiles.mem, "memprofile", "", "write a memory profile (allocations, and what is live at the end) to this file, for go tool pprof")
	})
	// Every command that reads data starts from a preset: molecules get
	// their own (presetFor).
	c.own(spec.GroupProtocol, func(fs *flag.FlagSet) {
		fs.StringVar(&c.preset, "preset", "", "start from a preset, then apply the other flags: molecules (chemistry-aware descriptors; the default for SMILES, SD files and TU datasets whose README names the atoms; on TU datasets with bare atom codes such as NCI1, descriptors of the most frequent atom types), default (structure only; the default for other graphs), paper (the paper's protocol) or size-aware")
	})
	for _, f := range spec.Fields() {
		if slices.Contains(groups, f.Group) || slices.Contains(more, f.Name) {
			c.fs.Var(fieldValue{f, &c.spec}, f.Name, f.Help)
			c.groupOf[f.Name] = f.Group
			c.order = append(c.order, f.Name)
		}
	}
	return c
}

// own registers a command's own flags in group g.
func (c *settingsFlags) own(g spec.Group, register func(*flag.FlagSet)) {
	before := map[string]bool{}
	c.fs.VisitAll(func(f *flag.Flag) { before[f.Name] = true })
	register(c.fs)
	c.fs.VisitAll(func(f *flag.Flag) {
		if !before[f.Name] {
			c.groupOf[f.Name] = g
			c.order = append(c.order, f.Name)
		}
	})
}

// fieldValue is a spec.Field as a flag.Value.
type fieldValue struct {
	f spec.Field
	s *spec.Spec
}

func (v fieldValue) String() string {
	if v.s == nil { // flag's zero-value probe
		return ""
	}
	return v.f.Get(v.s)
}

func (v fieldValue) Set(text string) error { return v.f.Set(v.s, text) }
func (v fieldValue) IsBoolFlag() bool      { return v.f.IsBool() }

// parse reads args: first -preset, then every other flag on top of it.
func (c *settingsFlags) parse(args []string) error {
	c.args = args
	if p := presetIn(args); p != "" {
		preset, ok := spec.Presets()[p]
		if !ok {
			names := slices.Sorted(maps.Keys(spec.Presets()))
			return fmt.Errorf("-preset %q: want %s", p, strings.Join(names, ", "))
		}
		c.spec = preset()
	}
	return c.fs.Parse(args)
}

// presetFor starts the settings from the preset that suits ds when no
// -preset was given: molecules for molecules (features.AreMolecules:
// element symbols and bond types, or a TU README's tables naming them),
// default for other graphs. The other flags apply on top, as with
// -preset. An explicit -preset molecules on graphs whose atoms are typed
// by codes that no table names (NCI1) takes those codes as atom types
// (spec.AtomTypes).
func (c *settingsFlags) presetFor(ds *graph.Dataset) error {
	preset := presetIn(c.args)
	if (preset != "" && preset != spec.PresetMolecules) || !c.fs.Parsed() {
		return nil
	}
	nodes, edges, err := c.labelNames()
	if err != nil {
		return err
	}
	codes := &features.Codes{Nodes: nodes, Edges: edges}
	switch {
	case preset == "" && features.AreMolecules(ds.Graphs, codes):
		c.spec = spec.Molecules()
	case preset == spec.PresetMolecules && !features.AreMolecules(ds.Graphs, codes):
		types := features.AtomCodes(ds.Graphs, codes)
		if types == nil {
			return nil // the chemistry-aware descriptors say what is missing
		}
		c.spec = spec.AtomTypes(types)
	default:
		return nil
	}
	return c.fs.Parse(c.args)
}

// presetIn finds -preset's value in args, wherever it stands.
func presetIn(args []string) string {
	for i, a := range args {
		if a == "--" {
			break
		}
		name, value, has := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "preset" {
			continue
		}
		if has {
			return value
		}
		if i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// given are the names of the flags set on the command line.
func (c *settingsFlags) given() map[string]bool {
	given := map[string]bool{}
	c.fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return given
}

// setup turns the flags into the core's configuration. Flags given on
// the command line switch off the automatic choices that would override
// them (-C or -gauss fix the SVM); asking for such a choice explicitly
// and fixing what it chooses is an error.
func (c *settingsFlags) setup() (eval.Setup, error) {
	given := c.given()
	s := &c.spec
	if given["C"] || given["gauss"] {
		if given["svm-choice"] && s.SVMChoice {
			return eval.Setup{}, errors.New("-svm-choice does not combine with -C or -gauss, which fix what it chooses")
		}
		s.SVMChoice = false
	}
	if given["auto"] && s.Auto {
		var fixed []string
		for name, on := range map[string]bool{"raw": s.Raw, "labels": s.Labels, "kernel": s.Kernel != "wkpi", "grid": s.Grid != "", "select": s.Select != ""} {
			if on {
				fixed = append(fixed, "-"+name)
			}
		}
		for _, name := range c.autoConflicts {
			if given[name] {
				fixed = append(fixed, "-"+name)
			}
		}
		if len(fixed) > 0 {
			slices.Sort(fixed)
			return eval.Setup{}, fmt.Errorf("-auto does not combine with %s", strings.Join(fixed, ", "))
		}
	}
	u, err := eval.FromSpec(*s)
	if err != nil || !u.ReadsMolecules() || c.data == "" {
		return u, err
	}
	nodes, edges, err := c.labelNames()
	if err != nil {
		return u, err
	}
	return u.WithCodes(nodes, edges), nil
}

// usage prints the command's flags in groups, then examples.
func (c *settingsFlags) usage(w io.Writer) {
	fmt.Fprintf(w, "usage: wkpi %s -data PATH [flags]\n", c.name)
	for _, g := range spec.Groups() {
		var names []string
		for _, name := range c.order {
			if c.groupOf[name] == g {
				names = append(names, name)
			}
		}
		if len(names) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", g.Title())
		for _, name := range names {
			f := c.fs.Lookup(name)
			printFlag(w, f)
		}
	}
	if len(c.examples) > 0 {
		fmt.Fprintln(w, "\nExamples:")
		for _, e := range c.examples {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
	fmt.Fprintln(w, "\n`wkpi help GROUP` explains a group's settings (wkpi help settings lists the groups).")
}

// printFlag writes one flag: name, value type, default and help.
func printFlag(w io.Writer, f *flag.Flag) {
	kind, _ := flag.UnquoteUsage(f)
	if fv, ok := f.Value.(fieldValue); ok {
		kind = ""
		switch fv.f.Ref(&spec.Spec{}).(type) {
		case *int, *int64:
			kind = "n"
		case *float64:
			kind = "x"
		case *string:
			kind = "text"
			if len(fv.f.Choices) > 0 {
				kind = strings.Join(fv.f.Choices, "|")
				kind = strings.Replace(kind, "||", `|""|`, 1)
				if strings.HasPrefix(kind, "|") {
					kind = `""` + kind
				}
			}
		}
	}
	line := "  -" + f.Name
	if kind != "" {
		line += " " + kind
	}
	def := f.DefValue
	if def == "" && kind == "text" {
		def = `""`
	}
	if def != "" && def != "false" {
		line += fmt.Sprintf(" (default %s)", def)
	}
	fmt.Fprintf(w, "%s\n      %s\n", line, f.Usage)
}
