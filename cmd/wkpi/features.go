package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/persistence"
	"wkpi-web/core/pimage"
	"wkpi-web/core/swc"
	"wkpi-web/core/tu"
)

// featureFlags are the flags shared by every command that reads a dataset.
type featureFlags struct {
	data, filtration, out string
	tau                   float64
	rows                  int
	channels              string
	raw                   bool
	rule, weighting       string
	alpha, hksTime        float64
	edgeValued, keepZero  bool
	progress              string
	extra                 descriptorList
	persistence           string
	labels                bool
	labelGroups           int
	labelTime             float64
}

func (f *featureFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.data, "data", "", "TU dataset: a folder or a .zip (required)")
	fs.StringVar(&f.filtration, "filtration", "ricci", "descriptor function: ricci, jaccard, degree, hks, or given (node values of SWC neurons and TU node attributes)")
	fs.StringVar(&f.out, "out", "", "output file (default: standard output)")
	fs.Float64Var(&f.tau, "tau", 0, "persistence image Gaussian width (0: one pixel)")
	fs.IntVar(&f.rows, "rows", 40, "persistence image rows")
	fs.StringVar(&f.rule, "rule", "min", "edge function to vertices: min (the paper) or mean")
	fs.BoolVar(&f.edgeValued, "edge-valued", false, "0-dim sublevel persistence with edges at their own value (paper footnote) instead of lower-star")
	fs.BoolVar(&f.keepZero, "keep-zero", false, "keep zero-persistence points")
	fs.StringVar(&f.weighting, "weighting", "constant", "persistence image weighting: constant or linear (in persistence)")
	fs.Float64Var(&f.alpha, "alpha", 0.5, "Ollivier-Ricci idleness alpha")
	fs.Float64Var(&f.hksTime, "hks-time", 10, "heat kernel signature time t")
	fs.StringVar(&f.progress, "progress", "auto", "progress on stderr: on, off, or auto (on when stderr is a terminal)")
	fs.BoolVar(&f.raw, "raw", false, "keep images unnormalised (default: unit L2 norm, as the authors' code)")
	fs.StringVar(&f.channels, "channels", "ord0+ext0,rel1+ext1", "images per graph, comma-separated unions of ord0, rel1, ext0, ext1")
	fs.StringVar(&f.persistence, "persistence", "none", "transform of the persistence axis before the image: none or sqrt")
	fs.BoolVar(&f.labels, "labels", false, "node-label mode: add the heat diffusion of each of the most frequent node labels (atom types) of the training graphs as a descriptor (default: structure only, the paper's protocol)")
	fs.IntVar(&f.labelGroups, "label-groups", features.DefaultLabelGroups, "node-label mode: labels with a group of their own; the rest share one \"other\" group")
	fs.Float64Var(&f.labelTime, "label-time", filtration.DefaultLabelTime, "node-label mode: diffusion time of the label indicators")
	fs.Var(&f.extra, "extra", "further descriptors, each adding its own channels: comma-separated ricci, jaccard, degree, hks, hks@t (HKS at time t), or none for the descriptor alone (default: hks,degree less the -filtration descriptor; none with -labels or -filtration given)")
}

func (f *featureFlags) settings() features.Settings {
	s := features.Default(filtration.Kind(f.filtration))
	s.Tau, s.Rows = f.tau, f.rows
	s.Channels = splitList(f.channels)
	s.Normalize = !f.raw
	s.KeepZero = f.keepZero
	s.Weighting = pimage.Weighting(f.weighting)
	s.Filtration.Rule = filtration.Rule(f.rule)
	s.Filtration.EdgeValued = f.edgeValued
	s.Filtration.Alpha, s.Filtration.HKSTime = f.alpha, f.hksTime
	if f.persistence != "none" {
		s.Persistence = f.persistence
	}
	extra, _ := features.ExtraFor(s.Filtration.Kind, f.labels, string(f.extra)) // Set checked the text
	for _, o := range extra {
		o.Rule, o.EdgeValued, o.Alpha = s.Filtration.Rule, s.Filtration.EdgeValued, f.alpha
		if o.HKSTime == 0 {
			o.HKSTime = f.hksTime
		}
		s.Extra = append(s.Extra, o)
	}
	return s
}

// descriptorList is the text of -extra (see features.ExtraFor), checked
// when the flag is set.
type descriptorList string

func (d *descriptorList) String() string { return string(*d) }

func (d *descriptorList) Set(text string) error {
	if _, err := features.ExtraFor(filtration.KindRicci, false, text); err != nil {
		return err
	}
	*d = descriptorList(text)
	return nil
}

// dataset reads -data: a TU dataset (folder or zip), or a folder of SWC
// neurons with a labels.csv (whose descriptor is given: -filtration given).
func (f *featureFlags) dataset() (*graph.Dataset, error) {
	if f.data == "" {
		return nil, fmt.Errorf("-data is required")
	}
	if _, err := os.Stat(filepath.Join(f.data, "labels.csv")); err == nil {
		return swc.ReadSample(f.data)
	}
	return tu.Read(f.data)
}

// output opens -out (or wraps stdout) and returns a flush-and-close func.
func output(path string, stdout io.Writer) (*bufio.Writer, func() error, error) {
	if path == "" {
		w := bufio.NewWriter(stdout)
		return w, w.Flush, nil
	}
	file, err := os.Create(path)
	if err != nil {
		return nil, nil, err
	}
	w := bufio.NewWriter(file)
	return w, func() error {
		if err := w.Flush(); err != nil {
			file.Close()
			return err
		}
		return file.Close()
	}, nil
}

// parseDataset parses a command's flags -- the feature flags and those
// that more registers -- and reads its dataset.
func parseDataset(name string, args []string, stderr io.Writer, more func(*flag.FlagSet)) (*featureFlags, *graph.Dataset, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	ff := &featureFlags{}
	ff.register(fs)
	if more != nil {
		more(fs)
	}
	if err := fs.Parse(args); err != nil {
		return nil, nil, err
	}
	ds, err := ff.dataset()
	return ff, ds, err
}

func runDiagrams(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	ff, ds, err := parseDataset("diagrams", args, stderr, nil)
	if err != nil {
		return err
	}
	diags, err := features.Diagrams(ctx, ds.Graphs, ff.settings(), progressFor(ff.progress, stderr))
	if err != nil {
		return err
	}
	w, closeOut, err := output(ff.out, stdout)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	for i, d := range diags {
		rec := struct {
			Graph int    `json:"graph"`
			Label string `json:"label"`
			persistence.Diagrams
		}{i, ds.Classes[ds.Labels[i]], d}
		if err := enc.Encode(rec); err != nil {
			return err
		}
	}
	return closeOut()
}

func runImages(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	ff, ds, err := parseDataset("images", args, stderr, nil)
	if err != nil {
		return err
	}
	s, err := ff.labelSettings(ds, nil)
	if err != nil {
		return err
	}
	set, err := features.Compute(ctx, ds, s, progressFor(ff.progress, stderr))
	if err != nil {
		return err
	}
	w, closeOut, err := output(ff.out, stdout)
	if err != nil {
		return err
	}
	rec := struct {
		Dataset  string            `json:"dataset"`
		Settings features.Settings `json:"settings"`
		Grid     pimage.Grid       `json:"grid"`
		Labels   []string          `json:"labels"`
		Images   [][]float64       `json:"images"`
	}{ds.Name, set.Settings, set.Grid, labelTexts(ds), set.Images}
	if err := json.NewEncoder(w).Encode(rec); err != nil {
		return err
	}
	return closeOut()
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

func labelTexts(ds *graph.Dataset) []string {
	out := make([]string, len(ds.Labels))
	for i, l := range ds.Labels {
		out[i] = ds.Classes[l]
	}
	return out
}
