package eval

import (
	"reflect"
	"testing"

	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/kernel"
	"wkpi-web/core/learn"
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
