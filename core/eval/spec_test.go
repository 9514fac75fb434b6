package eval

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/kernel"
	"wkpi-web/core/learn"
	"wkpi-web/core/smiles"
	"wkpi-web/core/spec"
)

// TestFromSpecDefaults: the default spec gives the pipeline's documented
// defaults, built here by hand from the stages' own constructors.
func TestFromSpecDefaults(t *testing.T) {
	u, err := FromSpec(spec.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	o := learn.DefaultOptions()
	o.M, o.Objective = 5, learn.ObjectiveTC
	want := Config{Sigma: 0.01, C: 100, Learn: o, Variant: kernel.WKPI, SVM: DefaultSVMGrid()}
	if !reflect.DeepEqual(u.Config, want) {
		t.Errorf("config %+v\nwant %+v", u.Config, want)
	}
	f := features.Default(filtration.KindRicci)
	f.Filtration.Alpha, f.Filtration.Rule = 0.5, filtration.RuleMin
	f.Extra = []filtration.Options{
		{Kind: filtration.KindHKS, Alpha: 0.5, HKSTime: 10, Rule: filtration.RuleMin},
		{Kind: filtration.KindDegree, Alpha: 0.5, Rule: filtration.RuleMin},
	}
	if !reflect.DeepEqual(u.Features, f) {
		t.Errorf("features %+v\nwant %+v", u.Features, f)
	}
	if got := filtration.FormatList(u.Features.Extra); got != "hks@10,degree" {
		t.Errorf("extra descriptors %q", got)
	}
	if p := u.Plan(2); p.Folds != 10 || p.Seed != 3 {
		t.Errorf("plan of repeat 2: %+v", p)
	}
}

// TestFromSpecTranslates: every group reaches its stage.
func TestFromSpecTranslates(t *testing.T) {
	s := spec.Defaults()
	s.Descriptor, s.Extra, s.HKSTime = "degree", "hks@0.5,jaccard", 3
	s.Channels, s.Rows, s.Tau, s.Raw, s.Persistence, s.Weighting = "ord0+ext0+rel1+ext1", 20, 0.1, true, "sqrt", "linear"
	s.M, s.Sigma, s.Kernel, s.Init, s.Optimizer, s.Objective = 3, 2, "alt", "kmeans", "lbfgs", "cka"
	s.Prior, s.Contrast, s.Penalty, s.Batch, s.Iterations, s.ChannelScales = 0, 0.1, 2, 50, 7, true
	s.SVMChoice, s.C, s.Gauss, s.Nystrom, s.Seed = false, 3, 1, 20, 9
	u, err := FromSpec(s)
	if err != nil {
		t.Fatal(err)
	}
	f := u.Features
	if f.Filtration.Kind != filtration.KindDegree || len(f.Extra) != 2 || f.Extra[0].HKSTime != 0.5 || f.Extra[1].Kind != filtration.KindJaccard || f.Extra[1].HKSTime != 0 {
		t.Errorf("descriptors %+v", f)
	}
	if len(f.Channels) != 1 || f.Rows != 20 || f.Tau != 0.1 || f.Normalize || f.Persistence != features.PersistenceSqrt || f.Weighting != "linear" {
		t.Errorf("images %+v", f)
	}
	c := u.Config
	if c.Learn.M != 3 || c.Sigma != 2 || c.Variant != kernel.Alt || c.Learn.Init != "kmeans" || c.Learn.Optimizer != "lbfgs" || c.Learn.Objective != "cka" ||
		c.Learn.Prior != 0 || c.Learn.Contrast != 0.1 || c.Learn.Penalty != 2 || c.Learn.BatchSize != 50 || c.Learn.MaxIter != 7 || !c.Learn.Channels || c.Learn.Seed != 9 {
		t.Errorf("learning %+v", c)
	}
	if c.SVM != nil || c.C != 3 || c.Gauss != 1 || c.Nystrom != 20 {
		t.Errorf("svm %+v", c)
	}
	s = spec.Defaults()
	s.Select = spec.SelectCost
	if u, err = FromSpec(s); err != nil || !reflect.DeepEqual(u.Grid, PaperGrid()) || u.Config.SVM != nil {
		t.Errorf("select cost: grid %+v, svm %v, %v", u.Grid, u.Config.SVM, err)
	}
	s.Sigma = -1
	if _, err := FromSpec(s); err == nil {
		t.Error("a bad sigma passed")
	}
}

// TestFromSpecCarriesEveryValue: every numeric setting, at the smallest,
// a middle and the largest value Validate allows (a large one when the
// range is open above), reaches its stage unchanged, so that no stage
// reads an allowed value as "use the default". The descriptors are also
// computed, on one edge, where hand-worked values depend on the setting:
// Ollivier-Ricci curvature 1 - |2 alpha - 1| (each end keeps alpha of its
// mass and sends the rest across) and the heat kernel signature
// (1 + exp(-2t)) / 2 (the Laplacian's eigenvalues 0 and 2).
func TestFromSpecCarriesEveryValue(t *testing.T) {
	edge, err := graph.New(2, []graph.Edge{{U: 0, V: 1}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A path of 70 nodes, each with its own label: room for every
	// label-groups value.
	var path []graph.Edge
	names := make([]string, 70)
	for i := range names {
		names[i] = fmt.Sprintf("L%d", i)
		if i > 0 {
			path = append(path, graph.Edge{U: i - 1, V: i})
		}
	}
	labelled, err := graph.New(len(names), path, nil, names)
	if err != nil {
		t.Fatal(err)
	}
	descriptor := func(t *testing.T, o filtration.Options, want func(float64) float64, x float64) {
		t.Helper()
		f, err := filtration.Compute(edge, o)
		if err != nil {
			t.Fatal(err)
		}
		for v, got := range f.Vertex {
			if math.Abs(got-want(x)) > 1e-12 {
				t.Errorf("%s at %g: node %d has %g, want %g", o.Kind, x, v, got, want(x))
			}
		}
	}
	ricci := func(alpha float64) float64 { return 1 - math.Abs(2*alpha-1) }
	hks := func(time float64) float64 { return (1 + math.Exp(-2*time)) / 2 }
	extra := func(t *testing.T, u Setup, kind filtration.Kind) filtration.Options {
		t.Helper()
		for _, o := range u.Features.Extra {
			if o.Kind == kind {
				return o
			}
		}
		t.Fatalf("no %s among the descriptors %+v", kind, u.Features.Extra)
		return filtration.Options{}
	}
	withLabels := func(t *testing.T, u Setup) *features.Labels {
		t.Helper()
		f, err := u.FeaturesFor([]*graph.Graph{labelled}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return f.Labels
	}
	// arrives reads back, for each numeric setting, every value its
	// stages receive; labels turns node-label mode on first.
	type probe struct {
		labels  bool
		arrives func(t *testing.T, u Setup, x float64) []float64
	}
	probes := map[string]probe{
		"alpha": {arrives: func(t *testing.T, u Setup, x float64) []float64 {
			descriptor(t, u.Features.Filtration, ricci, x)
			return []float64{u.Features.Filtration.Alpha, extra(t, u, filtration.KindHKS).Alpha}
		}},
		"hks-time": {arrives: func(t *testing.T, u Setup, x float64) []float64 {
			o := extra(t, u, filtration.KindHKS)
			descriptor(t, o, hks, x)
			return []float64{o.HKSTime}
		}},
		"label-groups": {labels: true, arrives: func(t *testing.T, u Setup, x float64) []float64 {
			return []float64{float64(len(withLabels(t, u).Vocabulary))}
		}},
		"label-time": {labels: true, arrives: func(t *testing.T, u Setup, x float64) []float64 {
			return []float64{withLabels(t, u).Time}
		}},
		"rows":     {arrives: func(t *testing.T, u Setup, x float64) []float64 { return []float64{float64(u.Features.Rows)} }},
		"tau":      {arrives: func(t *testing.T, u Setup, x float64) []float64 { return []float64{u.Features.Tau} }},
		"tail-cut": {arrives: func(t *testing.T, u Setup, x float64) []float64 { return []float64{u.Features.TailCut} }},
		"m":        {arrives: func(t *testing.T, u Setup, x float64) []float64 { return []float64{float64(u.Config.Learn.M)} }},
		"sigma":    {arrives: func(t *testing.T, u Setup, x float64) []float64 { return []float64{u.Config.Sigma} }},
		"penalty":  {arrives: func(t *testing.T, u Setup, x float64) []float64 { return []float64{u.Config.Learn.Penalty} }},
		"prior":    {arrives: func(t *testing.T, u Setup, x float64) []float64 { return []float64{u.Config.Learn.Prior} }},
		"contrast": {arrives: func(t *testing.T, u Setup, x float64) []float64 { return []float64{u.Config.Learn.Contrast} }},
		"batch":    {arrives: func(t *testing.T, u Setup, x float64) []float64 { return []float64{float64(u.Config.Learn.BatchSize)} }},
		"iter":     {arrives: func(t *testing.T, u Setup, x float64) []float64 { return []float64{float64(u.Config.Learn.MaxIter)} }},
		"C":        {arrives: func(t *testing.T, u Setup, x float64) []float64 { return []float64{u.Config.C} }},
		"gauss":    {arrives: func(t *testing.T, u Setup, x float64) []float64 { return []float64{u.Config.Gauss} }},
		"folds":    {arrives: func(t *testing.T, u Setup, x float64) []float64 { return []float64{float64(u.Plan(0).Folds)} }},
		"seed": {arrives: func(t *testing.T, u Setup, x float64) []float64 {
			return []float64{float64(u.Plan(0).Seed), float64(u.Config.Learn.Seed)}
		}},
		// Read from the Setup's Spec by the commands and workers that repeat
		// the cross-validation and search grids.
		"repeats": {arrives: func(t *testing.T, u Setup, x float64) []float64 { return []float64{float64(u.Spec.Repeats)} }},
		"inner":   {arrives: func(t *testing.T, u Setup, x float64) []float64 { return []float64{float64(u.Spec.Inner)} }},
		"nystrom": {arrives: func(t *testing.T, u Setup, x float64) []float64 { return []float64{float64(u.Config.Nystrom)} }},
	}
	for _, f := range spec.Fields() {
		var whole bool
		switch f.Ref(&spec.Spec{}).(type) {
		case *float64:
		case *int, *int64:
			whole = true
		default:
			carriesText(t, f, labelled)
			continue
		}
		p, ok := probes[f.Name]
		if !ok {
			t.Errorf("%s: a numeric setting with no probe here", f.Name)
			continue
		}
		for _, x := range allowedValues(f, whole) {
			s := spec.Defaults()
			s.Labels = p.labels
			text := strconv.FormatFloat(x, 'g', -1, 64)
			if whole {
				text = strconv.FormatFloat(x, 'f', -1, 64)
			}
			if err := f.Set(&s, text); err != nil {
				t.Fatal(err)
			}
			u, err := FromSpec(s)
			if err != nil {
				t.Errorf("%s = %g: %v", f.Name, x, err)
				continue
			}
			for i, got := range p.arrives(t, u, x) {
				if got != x {
					t.Errorf("%s = %g: stage %d receives %g", f.Name, x, i, got)
				}
			}
		}
	}
}

// carriesText sends every allowed value of a text or switch setting f
// (every choice; true and false; for free text, values from its help,
// the empty default and extremes) through FromSpec and checks that its
// stage receives it, read back in the setting's own words: the settings
// and what they mean to the stages are spelled out here, apart from
// FromSpec.
func carriesText(t *testing.T, f spec.Field, labelled *graph.Graph) {
	t.Helper()
	on := strconv.FormatBool
	protocol := func(u Setup) string { return u.Protocol(nil).Name() }
	// reads gives what the stages of u receive of the setting; values
	// are the free-text settings' values, each with what arrives.
	reads := map[string]func(u Setup) string{
		"filtration": func(u Setup) string { return string(u.Features.Filtration.Kind) },
		"extra":      func(u Setup) string { return filtration.FormatList(u.Features.Extra) },
		"rule": func(u Setup) string {
			r := string(u.Features.Filtration.Rule)
			for _, o := range u.Features.Extra {
				if string(o.Rule) != r {
					return "extra " + string(o.Kind) + " " + string(o.Rule)
				}
			}
			return r
		},
		"edge-valued": func(u Setup) string {
			for _, o := range u.Features.Extra {
				if o.EdgeValued != u.Features.Filtration.EdgeValued {
					return "extra " + string(o.Kind) + " differs"
				}
			}
			return on(u.Features.Filtration.EdgeValued)
		},
		"labels": func(u Setup) string {
			s, err := u.FeaturesFor([]*graph.Graph{labelled}, nil, nil)
			if err != nil {
				return err.Error()
			}
			return on(s.Labels != nil)
		},
		// Ethanol with node labels on: its O is a hydroxyl's only when
		// the labels are bonding types.
		"label-bonding": func(u Setup) string {
			ethanol, err := graph.New(3, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, []string{"1", "1"}, []string{"C", "C", "O"})
			if err != nil {
				return err.Error()
			}
			u.Spec.Labels = true
			s, err := u.FeaturesFor([]*graph.Graph{ethanol}, nil, nil)
			if err != nil {
				return err.Error()
			}
			return on(slices.Contains(s.Labels.Vocabulary, smiles.BondingHydroxylO))
		},
		"channels":  func(u Setup) string { return strings.Join(u.Features.Channels, ",") },
		"weighting": func(u Setup) string { return string(u.Features.Weighting) },
		"persistence": func(u Setup) string {
			if u.Features.Persistence == "" { // features' identity
				return "none"
			}
			return u.Features.Persistence
		},
		"keep-zero": func(u Setup) string { return on(u.Features.KeepZero) },
		"raw":       func(u Setup) string { return on(!u.Features.Normalize) },
		"auto":      func(u Setup) string { return on(protocol(u) == "auto") },
		"kernel": func(u Setup) string {
			return map[kernel.Variant]string{kernel.WKPI: "wkpi", kernel.Alt: "alt"}[u.Config.Variant]
		},
		"init":           func(u Setup) string { return u.Config.Learn.Init },
		"optimizer":      func(u Setup) string { return u.Config.Learn.Optimizer },
		"objective":      func(u Setup) string { return u.Config.Learn.Objective },
		"channel-scales": func(u Setup) string { return on(u.Config.Learn.Channels) },
		"svm-choice":     func(u Setup) string { return on(u.Config.SVM != nil) },
		"split": func(u Setup) string {
			return map[bool]string{false: spec.SplitRandom, true: spec.SplitScaffold}[u.Plan(0).Grouped]
		},
		"grid": func(u Setup) string { return fmt.Sprint(protocol(u), u.Grid) },
		"select": func(u Setup) string {
			if protocol(u) == "cost" {
				return spec.SelectCost
			}
			return ""
		},
	}
	paper := PaperGrid()
	values := map[string][][2]string{
		"extra": {{"", "hks@10,degree"}, {spec.NoExtra, ""}, {"hks,hks@0.5,degree", "hks@10,hks@0.5,degree"}, {"jaccard", "jaccard"},
			{spec.MoleculesExtra, "hks@10,degree,bonds,bonds:C,bonds:~O,bonds:~N,bonds:~halogens,en"}},
		"channels": {{"ord0+ext0,rel1+ext1", "ord0+ext0,rel1+ext1"}, {"ord0", "ord0"}, {"ord0+rel1+ext0+ext1", "ord0+rel1+ext0+ext1"}, {"ext1,rel1,ext0,ord0", "ext1,rel1,ext0,ord0"}},
		"grid": {{"", fmt.Sprint("auto", Grid{})}, {spec.GridPaper, fmt.Sprint("nested", paper)},
			{"m=3,4;sigma=0.1,1;C=1,10", fmt.Sprint("nested", Grid{Ms: []int{3, 4}, Sigmas: []float64{0.1, 1}, Cs: []float64{1, 10}})}},
	}
	read, ok := reads[f.Name]
	if !ok {
		t.Errorf("%s: a text or switch setting with no probe here", f.Name)
		return
	}
	cases := values[f.Name]
	switch f.Ref(&spec.Spec{}).(type) {
	case *bool:
		cases = [][2]string{{"true", "true"}, {"false", "false"}}
	default:
		for _, c := range f.Choices {
			cases = append(cases, [2]string{c, c})
		}
	}
	if len(cases) == 0 {
		t.Errorf("%s: no values to send", f.Name)
	}
	for _, c := range cases {
		s := spec.Defaults()
		if err := f.Set(&s, c[0]); err != nil {
			t.Fatal(err)
		}
		u, err := FromSpec(s)
		if err != nil {
			t.Errorf("%s = %q: %v", f.Name, c[0], err)
			continue
		}
		if got := read(u); got != c[1] {
			t.Errorf("%s = %q: the stage receives %q, want %q", f.Name, c[0], got, c[1])
		}
	}
}

// allowedValues are the smallest value of f that Validate allows, one a
// third of the way up (so not the default of a setting whose default is
// the middle of its range, as alpha's is) and the largest; for a range
// open above a large value, and for whole numbers whole ones.
func allowedValues(f spec.Field, whole bool) []float64 {
	lo, hi := f.Min, f.Max
	if f.MinOpen {
		lo = math.Nextafter(lo, math.Inf(1))
		if whole {
			lo = math.Floor(f.Min) + 1
		}
	}
	if math.IsInf(lo, -1) {
		lo = -1e6
	}
	if math.IsInf(hi, 1) {
		hi = 1e6
	}
	mid := lo + (hi-lo)/3
	if whole {
		mid = math.Floor(mid)
	}
	return []float64{lo, mid, hi}
}
