package eval

import (
	"context"
	"reflect"
	"testing"

	"wkpi-web/core/crossval"
	"wkpi-web/core/spec"
)

// withoutSeconds zeroes a report's timings, the only numbers two runs of
// one protocol may differ in.
func withoutSeconds(r Report) Report {
	r.Seconds, r.Learned.Seconds, r.Baseline.Seconds = 0, 0, 0
	return r
}

// TestRunEqualsItsMethod: Run of every protocol on features shared by all
// folds gives the report of the method the protocol names, called
// directly, with the protocol's name; the automatic choice asks its
// SizeAware for the candidate.
func TestRunEqualsItsMethod(t *testing.T) {
	ctx := context.Background()
	_, w := toyWKPI(t)
	cfg := toyConfig()
	grid := Grid{Ms: []int{2, 3}, Sigmas: []float64{0.05, 0.5}, Cs: []float64{1, 10}}
	plan := Plan{Folds: 3, Seed: 2}
	asked := 0
	counted := func(w *WKPI, cfg Config) (Candidate, error) { asked++; return SizeAware(w, cfg) }
	for _, tc := range []struct {
		p      Protocol
		direct func() (Report, error)
	}{
		{Fixed{Config: cfg}, func() (Report, error) { return w.CrossValidate(ctx, cfg, plan, nil) }},
		{Nested{Config: cfg, Grid: grid, Inner: 2}, func() (Report, error) { return w.Nested(ctx, cfg, grid, plan, 2, nil) }},
		{Cost{Config: cfg, Grid: grid}, func() (Report, error) { return w.SelectByCost(ctx, cfg, grid, plan, nil) }},
		{Auto{Config: cfg, SizeAware: counted}, func() (Report, error) {
			sized, err := SizeAware(w, cfg)
			if err != nil {
				return Report{}, err
			}
			return CrossValidateChosen(ctx, []Candidate{{W: w, Config: cfg}, sized}, plan, ChoiceOptions{}, nil)
		}},
	} {
		t.Run(tc.p.Name(), func(t *testing.T) {
			got, err := Run(ctx, w.Source(), tc.p, plan, nil)
			if err != nil {
				t.Fatal(err)
			}
			want, err := tc.direct()
			if err != nil {
				t.Fatal(err)
			}
			if got.Protocol != tc.p.Name() {
				t.Errorf("report of protocol %q, want %q", got.Protocol, tc.p.Name())
			}
			if !reflect.DeepEqual(withoutSeconds(got), withoutSeconds(want)) {
				t.Errorf("Run gives\n%+v\nthe method\n%+v", got.Learned, want.Learned)
			}
		})
	}
	if asked != 1 {
		t.Errorf("Auto asked its SizeAware %d times, want once", asked)
	}
}

// TestRunPerFold: with PerFold, Run asks Source.Features for every outer
// fold's training graphs (never for all graphs) and its report is
// ByTrainingFolds'; without, it asks once, for all graphs (nil).
func TestRunPerFold(t *testing.T) {
	ctx := context.Background()
	ds, w := toyWKPI(t)
	p := Fixed{Config: toyConfig()}
	plan := Plan{Folds: 4, Seed: 3}
	folds, err := crossval.StratifiedKFold(ds.Labels, plan.Folds, plan.Seed)
	if err != nil {
		t.Fatal(err)
	}
	train, _ := crossval.Split(indices(len(ds.Labels)), folds, plan.Folds)
	var asked [][]int
	src := Source{Labels: ds.Labels, Classes: 2, PerFold: true, Features: func(tr []int) (*WKPI, error) {
		asked = append(asked, tr)
		return w, nil
	}}
	got, err := Run(ctx, src, p, plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(asked, train) {
		t.Errorf("per fold: Features asked for %v, want the training sets %v", asked, train)
	}
	want, err := ByTrainingFolds(ctx, ds.Labels, 2, plan, func([]int) (*WKPI, error) { return w, nil }, func(w *WKPI, plan Plan) (Report, error) {
		return w.CrossValidate(ctx, p.Config, plan, nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(withoutSeconds(got), withoutSeconds(want)) {
		t.Errorf("per fold: Run gives %+v, ByTrainingFolds %+v", got.Learned, want.Learned)
	}
	asked = nil
	src.PerFold = false
	if _, err := Run(ctx, src, p, plan, nil); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || asked[0] != nil {
		t.Errorf("shared features: Features asked for %v, want once for all graphs (nil)", asked)
	}
}

// TestSetupProtocol: the settings' protocol (spec.Spec.Protocol) is the
// Protocol Setup gives, with the settings' Config, Grid and inner folds.
func TestSetupProtocol(t *testing.T) {
	for _, tc := range []struct {
		change func(*spec.Spec)
		want   func(u Setup) Protocol
	}{
		{func(s *spec.Spec) { s.Auto = false }, func(u Setup) Protocol { return Fixed{Config: u.Config} }},
		{func(s *spec.Spec) { s.Labels = true }, func(u Setup) Protocol { return Fixed{Config: u.Config} }},
		{func(s *spec.Spec) {}, func(u Setup) Protocol { return Auto{Config: u.Config} }},
		{func(s *spec.Spec) { s.Grid, s.Inner = "m=3;sigma=0.1;C=1,10", 4 }, func(u Setup) Protocol {
			return Nested{Config: u.Config, Grid: Grid{Ms: []int{3}, Sigmas: []float64{0.1}, Cs: []float64{1, 10}}, Inner: 4}
		}},
		{func(s *spec.Spec) { s.Select = spec.SelectCost }, func(u Setup) Protocol { return Cost{Config: u.Config, Grid: PaperGrid()} }},
	} {
		s := spec.Defaults()
		tc.change(&s)
		u, err := FromSpec(s)
		if err != nil {
			t.Fatal(err)
		}
		got, want := u.Protocol(nil), tc.want(u)
		if !reflect.DeepEqual(got, want) || got.Name() != s.Protocol() {
			t.Errorf("%s: %#v, want %#v", s.Protocol(), got, want)
		}
		id := u.RunID()
		if id.Protocol != s.Protocol() || (id.Grid != nil) != s.Searches() || (id.Inner != 0) != (s.Protocol() == "nested") {
			t.Errorf("%s: run identity %+v", s.Protocol(), id)
		}
	}
}
