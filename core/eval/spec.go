package eval

import (
	"fmt"
	"strings"

	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/kernel"
	"wkpi-web/core/learn"
	"wkpi-web/core/pimage"
	"wkpi-web/core/spec"
)

// Setup is a Spec made into the core's configuration: the one translator
// that the command line, the page's workers and the edge share.
type Setup struct {
	Spec spec.Spec
	// Features are the feature settings; in node-label mode without the
	// label vocabulary, which each training set fits (FeaturesFor).
	Features features.Settings
	// Config is the WKPI-SVM setting; with Spec.ChoosesSVM its SVM grid
	// chooses Gauss and C in every fold.
	Config Config
	// Grid is the grid of a search (Spec.Searches); zero otherwise.
	Grid Grid
}

// FromSpec validates s and translates it.
func FromSpec(s spec.Spec) (Setup, error) {
	if err := s.Validate(); err != nil {
		return Setup{}, err
	}
	u := Setup{Spec: s}

	f := features.Default(filtration.Kind(s.Descriptor))
	f.Channels = strings.Split(s.Channels, ",")
	for i := range f.Channels {
		f.Channels[i] = strings.TrimSpace(f.Channels[i])
	}
	f.Rows, f.Tau, f.TailCut, f.Weighting = s.Rows, s.Tau, s.TailCut, pimage.Weighting(s.Weighting)
	f.KeepZero, f.Normalize = s.KeepZero, !s.Raw
	if s.Persistence != "none" {
		f.Persistence = s.Persistence
	}
	f.Filtration.Rule, f.Filtration.EdgeValued = filtration.Rule(s.Rule), s.EdgeValued
	f.Filtration.Alpha = s.Alpha
	if f.Filtration.Kind == filtration.KindHKS {
		f.Filtration.HKSTime = s.HKSTime
	}
	extra, err := features.ExtraFor(f.Filtration.Kind, s.Labels, s.Extra)
	if err != nil {
		return u, fmt.Errorf("extra: %w", err)
	}
	// Every descriptor is computed as the main one is, but for its kind;
	// only a heat kernel signature has a time.
	for _, o := range extra {
		o.Rule, o.EdgeValued, o.Alpha = f.Filtration.Rule, f.Filtration.EdgeValued, s.Alpha
		if o.Kind == filtration.KindHKS && o.HKSTime == 0 {
			o.HKSTime = s.HKSTime
		}
		f.Extra = append(f.Extra, o)
	}
	u.Features = f

	o := learn.DefaultOptions()
	o.M, o.Init, o.Optimizer, o.Objective = s.M, s.Init, s.Optimizer, s.Objective
	o.Penalty, o.Prior, o.Contrast, o.Channels = s.Penalty, s.Prior, s.Contrast, s.ChannelScales
	o.BatchSize, o.MaxIter, o.Seed = s.Batch, s.Iterations, s.Seed
	u.Config = Config{Sigma: s.Sigma, C: s.C, Gauss: s.Gauss, Learn: o, Variant: kernel.WKPI, Nystrom: s.Nystrom}
	if s.Kernel == "alt" {
		u.Config.Variant = kernel.Alt
	}
	if s.ChoosesSVM() {
		u.Config.SVM = DefaultSVMGrid()
	}
	if s.Searches() {
		g, err := spec.ParseGrid(s.Grid)
		if err != nil {
			return u, fmt.Errorf("grid: %w", err)
		}
		u.Grid = Grid{Ms: g.M, Sigmas: g.Sigma, Cs: g.C}
	}
	return u, nil
}

// Plan is the cross-validation of repeat r (0 for the first): Spec.Folds
// folds split with seed Spec.Seed + r; with Spec.Split scaffold grouped
// by scaffold, which needs the graphs' groups in Plan.Groups (Groups):
// a grouped plan without them fails when it splits.
func (u Setup) Plan(r int) Plan {
	return Plan{Folds: u.Spec.Folds, Seed: u.Spec.Seed + int64(r), Grouped: u.Spec.Split == spec.SplitScaffold}
}

// Protocol is the protocol the settings name (spec.Spec.Protocol), with
// their Config and, for a search, their Grid and inner folds; sizeAware,
// when not nil, gives the automatic choice its size-aware candidates
// (Auto.SizeAware).
func (u Setup) Protocol(sizeAware func(w *WKPI, cfg Config) (Candidate, error)) Protocol {
	switch u.Spec.Protocol() {
	case "cost":
		return Cost{Config: u.Config, Grid: u.Grid}
	case "nested":
		return Nested{Config: u.Config, Grid: u.Grid, Inner: u.Spec.Inner}
	case "auto":
		return Auto{Config: u.Config, SizeAware: sizeAware}
	}
	return Fixed{Config: u.Config}
}

// RunID is the part of a run's identity the settings give: features,
// protocol and its settings, folds, repeats and seed. The caller adds the
// program and the dataset.
func (u Setup) RunID() RunID {
	p := u.Protocol(nil)
	id := RunID{Features: u.Features, NodeLabels: u.nodeLabels(), Protocol: p.Name(), Config: u.Config, Folds: u.Spec.Folds, Repeats: u.Spec.Repeats, Seed: u.Spec.Seed}
	if u.Spec.Searches() {
		id.Grid = &u.Grid
	}
	if n, ok := p.(Nested); ok {
		id.Inner = n.Inner
	}
	return id
}

// FeaturesFor returns the feature settings for a training set (indices
// into graphs; nil for all): in node-label mode with the vocabulary of
// those graphs' labels, shown by names (a TU README's code table; nil
// keeps codes), otherwise Features. FeaturesOf gives them for many
// training sets.
func (u Setup) FeaturesFor(graphs []*graph.Graph, train []int, names map[string]string) (features.Settings, error) {
	of, err := u.FeaturesOf(graphs, names)
	if err != nil {
		return u.Features, err
	}
	return of(train), nil
}

// FeaturesOf returns FeaturesFor of graphs as a function of the training
// set, reading the graphs' node labels once (features.LabelFit) for all
// the folds of a protocol.
func (u Setup) FeaturesOf(graphs []*graph.Graph, names map[string]string) (func(train []int) features.Settings, error) {
	if !u.Spec.Labels {
		return func([]int) features.Settings { return u.Features }, nil
	}
	fit, err := u.Features.FitLabels(graphs, u.Spec.LabelGroups, u.Spec.LabelTime, names, u.Spec.LabelBonding)
	if err != nil {
		return nil, fmt.Errorf("labels: %w", err)
	}
	return fit.For, nil
}

// ReadsMolecules says whether u reads its graphs as molecules: a
// chemistry-aware descriptor (features.Settings.Molecular) or node labels
// of bonding types.
func (u Setup) ReadsMolecules() bool {
	return u.Features.Molecular() || u.Spec.Labels && u.Spec.LabelBonding
}

// WithCodes returns u with a dataset's label code tables (a TU README's
// node and edge tables; nil when it has none) in its feature settings,
// where chemistry-aware descriptors and bonding types read atoms and
// bonds through them and models keep them. Settings that read no
// molecules need none and are returned as they are.
func (u Setup) WithCodes(nodes, edges map[string]string) Setup {
	if u.ReadsMolecules() && (nodes != nil || edges != nil) {
		u.Features.Codes = &features.Codes{Nodes: nodes, Edges: edges}
	}
	return u
}

// Mode names the feature mode for summaries (features.Settings.Mode),
// with node labels their groups and time.
func (u Setup) Mode() string { return modeName(u.Features, u.nodeLabels()) }

// nodeLabels is u's node-label setting, nil without node labels.
func (u Setup) nodeLabels() *NodeLabels {
	if !u.Spec.Labels {
		return nil
	}
	return &NodeLabels{Groups: u.Spec.LabelGroups, Time: u.Spec.LabelTime, Bonding: u.Spec.LabelBonding}
}

// modeName names the mode of features f with node labels l (nil for
// none).
func modeName(f features.Settings, l *NodeLabels) string {
	if l == nil {
		return f.Mode()
	}
	f.Labels = &features.Labels{Bonding: l.Bonding} // the vocabulary comes with each fold's training graphs
	kind := ""
	if l.Bonding {
		kind = " bonding types"
	}
	return fmt.Sprintf("%s: %d most frequent%s + other, t = %g", f.Mode(), l.Groups, kind, l.Time)
}
