package spec

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Group gathers settings for help pages and forms.
type Group string

// The groups, in the order help pages and forms show them. Data and
// Output hold the command line's own flags (files, progress), not Spec
// fields.
const (
	GroupData        Group = "data"
	GroupDescriptors Group = "descriptors"
	GroupImages      Group = "images"
	GroupLearning    Group = "learning"
	GroupSVM         Group = "svm"
	GroupProtocol    Group = "protocol"
	GroupOutput      Group = "output"
	GroupScale       Group = "scale"
)

// Groups lists the groups in display order.
func Groups() []Group {
	return []Group{GroupData, GroupDescriptors, GroupImages, GroupLearning, GroupSVM, GroupProtocol, GroupOutput, GroupScale}
}

// Title is a group's heading.
func (g Group) Title() string {
	switch g {
	case GroupSVM:
		return "SVM"
	case GroupLearning:
		return "Kernel and learning"
	}
	return strings.ToUpper(string(g[:1])) + string(g[1:])
}

// Field describes one setting: its name (the CLI flag and the JSON key
// both derive from it), group, plain-words label and help, and what it
// allows. Fields are the one table that flags, forms and Validate read.
type Field struct {
	Name  string // flag name, e.g. "sigma"
	Group Group
	Label string // a short label in plain words, for forms
	Help  string // one line in plain words
	// Choices lists the allowed values of a text setting with a fixed
	// set; empty for free text, numbers and switches.
	Choices []string
	// Min and Max bound a number; MinOpen excludes Min itself.
	Min, Max float64
	MinOpen  bool
	// Common marks the few settings most people change; forms show them
	// outside "Advanced".
	Common bool
	// check validates free text (Extra, Channels, Grid).
	check func(string) error
	// absent is the choice that an empty text stands for, for settings
	// saved before the field existed (a model file's); "" for none.
	absent string
	ref    func(*Spec) any // *string, *int, *int64, *float64 or *bool
}

// Ref returns a pointer to the field's value in s.
func (f Field) Ref(s *Spec) any { return f.ref(s) }

// Get formats the field's value in s as text, as Set reads it.
func (f Field) Get(s *Spec) string {
	switch p := f.ref(s).(type) {
	case *string:
		return *p
	case *int:
		return strconv.Itoa(*p)
	case *int64:
		return strconv.FormatInt(*p, 10)
	case *float64:
		return strconv.FormatFloat(*p, 'g', -1, 64)
	case *bool:
		return strconv.FormatBool(*p)
	}
	panic("spec: field " + f.Name + " has no known type")
}

// Set parses text into the field of s; the value is checked by Validate,
// not here, except that it must be of the field's type.
func (f Field) Set(s *Spec, text string) error {
	text = strings.TrimSpace(text)
	switch p := f.ref(s).(type) {
	case *string:
		*p = text
	case *int:
		v, err := strconv.Atoi(text)
		if err != nil {
			return &FieldError{Field: f.Name, Value: text, Want: "a whole number"}
		}
		*p = v
	case *int64:
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return &FieldError{Field: f.Name, Value: text, Want: "a whole number"}
		}
		*p = v
	case *float64:
		v, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return &FieldError{Field: f.Name, Value: text, Want: "a number"}
		}
		*p = v
	case *bool:
		v, err := strconv.ParseBool(text)
		if err != nil {
			return &FieldError{Field: f.Name, Value: text, Want: "true or false"}
		}
		*p = v
	}
	return nil
}

// IsBool says whether the field is a switch.
func (f Field) IsBool() bool {
	_, ok := f.ref(&Spec{}).(*bool)
	return ok
}

// Allowed says in words what the field takes.
func (f Field) Allowed() string {
	if len(f.Choices) > 0 {
		return "one of " + strings.Join(f.Choices, ", ")
	}
	switch f.ref(&Spec{}).(type) {
	case *bool:
		return "true or false"
	case *string:
		return ""
	case *int, *int64:
		return rangeText(f, "a whole number")
	}
	return rangeText(f, "a number")
}

func rangeText(f Field, kind string) string {
	lo, hi := !math.IsInf(f.Min, -1), !math.IsInf(f.Max, 1)
	op := ">="
	if f.MinOpen {
		op = ">"
	}
	switch {
	case lo && hi:
		if f.MinOpen {
			return fmt.Sprintf("%s > %g and <= %g", kind, f.Min, f.Max)
		}
		return fmt.Sprintf("%s from %g to %g", kind, f.Min, f.Max)
	case lo:
		return fmt.Sprintf("%s %s %g", kind, op, f.Min)
	case hi:
		return fmt.Sprintf("%s <= %g", kind, f.Max)
	}
	return "a finite " + strings.TrimPrefix(kind, "a ")
}

// Lookup returns the field named name.
func Lookup(name string) (Field, bool) {
	for _, f := range Fields() {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

var inf = math.Inf(1)

// Fields lists every setting of Spec, grouped, in display order.
func Fields() []Field {
	return []Field{
		{Name: "filtration", Group: GroupDescriptors, Common: true, Label: "Descriptor",
			Help:    "the function on the nodes that persistence sweeps: Ollivier-Ricci curvature, Jaccard index, degree, heat kernel signature, bond orders, electronegativity or partial charges (molecules), or the values the data gives",
			Choices: []string{"ricci", "jaccard", "degree", "hks", "bonds", "en", "charge", "given"},
			ref:     func(s *Spec) any { return &s.Descriptor }},
		{Name: "extra", Group: GroupDescriptors, Common: true, Label: "Further descriptors",
			Help:  `more descriptors, each with its own images: empty for the default (hks,degree), none, or a list such as hks,hks@0.5,degree`,
			check: checkExtra, ref: func(s *Spec) any { return &s.Extra }},
		{Name: "alpha", Group: GroupDescriptors, Label: "Ricci idleness", Help: "Ollivier-Ricci curvature: the probability that the random walk stays put",
			// Open at 0: the descriptor stage (filtration.Options) reads
			// idleness 0 as its default, 0.5, so 0 would run as 0.5.
			Min: 0, MinOpen: true, Max: 1, ref: func(s *Spec) any { return &s.Alpha }},
		{Name: "hks-time", Group: GroupDescriptors, Label: "Heat kernel time", Help: "heat kernel signature: the diffusion time t",
			Min: 0, MinOpen: true, Max: inf, ref: func(s *Spec) any { return &s.HKSTime }},
		{Name: "rule", Group: GroupDescriptors, Label: "Edge values to nodes", Help: "how an edge descriptor reaches the nodes: the smallest incident edge (the paper) or the mean",
			Choices: []string{"min", "mean"}, ref: func(s *Spec) any { return &s.Rule }},
		{Name: "edge-valued", Group: GroupDescriptors, Label: "Edges at their own value", Help: "0-dim sublevel persistence with edges entering at their own value (the paper's footnote)",
			ref: func(s *Spec) any { return &s.EdgeValued }},
		{Name: "labels", Group: GroupDescriptors, Common: true, Label: "Use node labels", Help: "add the heat diffusion of each frequent node label (atom type) as a descriptor; off is structure only, the paper's protocol",
			ref: func(s *Spec) any { return &s.Labels }},
		{Name: "label-groups", Group: GroupDescriptors, Label: "Label groups", Help: "node labels: how many of the most frequent labels get a group of their own; the rest share one",
			Min: 1, Max: 64, ref: func(s *Spec) any { return &s.LabelGroups }},
		{Name: "label-time", Group: GroupDescriptors, Label: "Label diffusion time", Help: "node labels: the diffusion time of the label indicators",
			Min: 0, MinOpen: true, Max: inf, ref: func(s *Spec) any { return &s.LabelTime }},
		{Name: "label-bonding", Group: GroupDescriptors, Label: "Label N and O by bonding", Help: "node labels of molecules: nitrogen and oxygen by their bonds and hydrogens (aromatic in a six- or a five-membered ring, double-bonded, amide, amine with or without H; carbonyl, S=O or N=O, hydroxyl of an alcohol or of an acid or phenol, ether) instead of by element alone",
			ref: func(s *Spec) any { return &s.LabelBonding }},

		{Name: "channels", Group: GroupImages, Label: "Images per graph", Help: "which diagrams make each image: comma-separated unions (+) of ord0, rel1, ext0, ext1",
			check: checkChannels, ref: func(s *Spec) any { return &s.Channels }},
		{Name: "rows", Group: GroupImages, Label: "Image resolution", Help: "rows (and columns) of each persistence image",
			Min: 2, Max: 400, ref: func(s *Spec) any { return &s.Rows }},
		{Name: "tau", Group: GroupImages, Label: "Image blur", Help: "width of each point's Gaussian in the image; 0 takes one pixel",
			Min: 0, Max: inf, ref: func(s *Spec) any { return &s.Tau }},
		{Name: "tail-cut", Group: GroupImages, Label: "Image zeros below", Help: "pixels under this fraction of their descriptor's largest become 0; 0 takes 1/1000, 0.01 runs about a third faster and moves accuracy by up to a point",
			Min: 0, Max: 1, ref: func(s *Spec) any { return &s.TailCut }},
		{Name: "weighting", Group: GroupImages, Label: "Point weighting", Help: "how much a point counts in the image: the same for all, or growing with its persistence",
			Choices: []string{"constant", "linear"}, ref: func(s *Spec) any { return &s.Weighting }},
		{Name: "persistence", Group: GroupImages, Label: "Persistence axis", Help: "transform of the persistence axis before the image",
			Choices: []string{"none", "sqrt"}, ref: func(s *Spec) any { return &s.Persistence }},
		{Name: "keep-zero", Group: GroupImages, Label: "Keep zero persistence", Help: "keep points born and dying at the same value",
			ref: func(s *Spec) any { return &s.KeepZero }},
		{Name: "raw", Group: GroupImages, Label: "Size-aware images", Help: "keep images unnormalised, so that graph size counts (default: unit length)",
			ref: func(s *Spec) any { return &s.Raw }},
		{Name: "auto", Group: GroupImages, Label: "Choose images per fold", Help: "choose unit or size-aware images in every fold by inner cross-validation on its training graphs",
			ref: func(s *Spec) any { return &s.Auto }},

		{Name: "m", Group: GroupLearning, Label: "Gaussians", Help: "number of Gaussians of the learned weight function",
			Min: 1, Max: 100, ref: func(s *Spec) any { return &s.M }},
		{Name: "sigma", Group: GroupLearning, Label: "Kernel width", Help: "width sigma of the WKPI kernel: k = sum_s w_s exp(-(I_s - I'_s)^2 / (2 sigma^2))",
			Min: 0, MinOpen: true, Max: inf, ref: func(s *Spec) any { return &s.Sigma }},
		{Name: "kernel", Group: GroupLearning, Label: "Kernel", Help: "the WKPI kernel, or altWKPI (the weight outside the Gaussian)",
			Choices: []string{"wkpi", "alt"}, ref: func(s *Spec) any { return &s.Kernel }},
		{Name: "init", Group: GroupLearning, Label: "Starting Gaussians", Help: "where the weight function's Gaussians start: spread over the diagram points (k-center), their k-means, or at random",
			Choices: []string{"kcenter", "kmeans", "random"}, ref: func(s *Spec) any { return &s.Init }},
		{Name: "optimizer", Group: GroupLearning, Label: "Optimizer", Help: "gradient descent with backtracking, or L-BFGS",
			Choices: []string{"gd", "lbfgs"}, ref: func(s *Spec) any { return &s.Optimizer }},
		{Name: "objective", Group: GroupLearning, Label: "Learning objective", Help: "what learning minimises: the paper's total cost (tc) or kernel-target alignment (cka)",
			Choices: []string{"tc", "cka"}, ref: func(s *Spec) any { return &s.Objective }},
		{Name: "penalty", Group: GroupLearning, Label: "Weight penalty", Help: "keeps the Gaussians' weights from vanishing: c in c * sum exp(-w)",
			Min: 0, Max: inf, ref: func(s *Spec) any { return &s.Penalty }},
		{Name: "prior", Group: GroupLearning, Label: "Stay near the start", Help: "how strongly learning keeps the Gaussians near where they started (0: the paper's objective)",
			Min: 0, Max: inf, ref: func(s *Spec) any { return &s.Prior }},
		{Name: "contrast", Group: GroupLearning, Label: "Keep graphs apart", Help: "how strongly learning keeps the kernel from calling all graphs alike (0: the paper's objective)",
			Min: 0, Max: inf, ref: func(s *Spec) any { return &s.Contrast }},
		{Name: "channel-scales", Group: GroupLearning, Label: "Learn image scales", Help: "also learn one scale per image block (channel and descriptor) by kernel-target alignment",
			ref: func(s *Spec) any { return &s.ChannelScales }},
		{Name: "batch", Group: GroupLearning, Label: "Mini-batch size", Help: "graphs per learning step; 0 uses the whole training set",
			Min: 0, Max: inf, ref: func(s *Spec) any { return &s.Batch }},
		{Name: "iter", Group: GroupLearning, Label: "Learning steps", Help: "the most iterations learning may take",
			Min: 1, Max: 100000, ref: func(s *Spec) any { return &s.Iterations }},

		{Name: "svm-choice", Group: GroupSVM, Common: true, Label: "Choose SVM per fold", Help: "choose the SVM's kernel (WKPI or the Gaussian of its distance) and C from 1, 10, 100, 1000 in every fold by inner cross-validation",
			ref: func(s *Spec) any { return &s.SVMChoice }},
		{Name: "C", Group: GroupSVM, Label: "SVM C", Help: "the SVM's C when it is fixed: larger fits the training graphs more closely",
			Min: 0, MinOpen: true, Max: inf, ref: func(s *Spec) any { return &s.C }},
		{Name: "gauss", Group: GroupSVM, Label: "SVM kernel", Help: "the SVM's kernel when fixed: 0 the WKPI kernel, s > 0 the Gaussian of the WKPI distance exp(-D^2 / (s m)), m the median D^2 of training pairs",
			Min: 0, Max: inf, ref: func(s *Spec) any { return &s.Gauss }},

		{Name: "folds", Group: GroupProtocol, Common: true, Label: "Folds", Help: "cross-validation folds",
			Min: 2, Max: 100, ref: func(s *Spec) any { return &s.Folds }},
		{Name: "seed", Group: GroupProtocol, Common: true, Label: "Seed", Help: "random seed of the folds, the learning's start and its batches",
			Min: math.Inf(-1), Max: inf, ref: func(s *Spec) any { return &s.Seed }},
		{Name: "repeats", Group: GroupProtocol, Label: "Repeats", Help: "repeat the cross-validation with seeds seed, seed+1, ...",
			Min: 1, Max: 100, ref: func(s *Spec) any { return &s.Repeats }},
		{Name: "split", Group: GroupProtocol, Label: "Fold split", Help: "how graphs are dealt into folds: random (stratified by class), or scaffold: molecules sharing a ring scaffold (Bemis-Murcko) stay in one fold, so that each test fold holds chemistry its training folds lack; needs element symbols as node labels",
			Choices: []string{SplitRandom, SplitScaffold}, absent: SplitRandom, ref: func(s *Spec) any { return &s.Split }},
		{Name: "grid", Group: GroupProtocol, Label: "Grid search", Help: "choose m, sigma and C in every fold over a grid: paper, or m=3,4;sigma=0.1,1;C=1,10 (empty: none)",
			check: checkGrid, ref: func(s *Spec) any { return &s.Grid }},
		{Name: "select", Group: GroupProtocol, Label: "Grid choice by", Help: "how the grid's cell is chosen: empty for nested cross-validation, cost for the smallest training cost (the paper's second protocol)",
			Choices: []string{"", "cost"}, ref: func(s *Spec) any { return &s.Select }},
		{Name: "inner", Group: GroupProtocol, Label: "Inner folds", Help: "inner folds of the grid search",
			Min: 2, Max: 100, ref: func(s *Spec) any { return &s.Inner }},

		{Name: "nystrom", Group: GroupScale, Label: "Nyström landmarks", Help: "approximate the SVMs' kernel matrices from this many landmark training graphs (0: exact)",
			Min: 0, Max: inf, ref: func(s *Spec) any { return &s.Nystrom }},
	}
}
