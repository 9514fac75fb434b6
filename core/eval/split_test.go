package eval

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"wkpi-web/core/crossval"
	"wkpi-web/core/spec"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

// TestPlanSplit: a plan's folds are StratifiedKFold's, or GroupKFold's
// when grouped; a grouped plan without groups fails, naming them.
func TestPlanSplit(t *testing.T) {
	labels := []int{0, 1, 0, 1, 0, 1, 0, 1, 1, 1}
	groups := []int{4, 4, 4, 1, 1, 2, 3, 3, 0, 0}
	got, err := Plan{Folds: 3, Seed: 2}.split(labels)
	want, _ := crossval.StratifiedKFold(labels, 3, 2)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("random: %v, %v, want %v", got, err, want)
	}
	got, err = Plan{Folds: 3, Seed: 2, Grouped: true, Groups: groups}.split(labels)
	want, _ = crossval.GroupKFold(labels, groups, 3, 2)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("grouped: %v, %v, want %v", got, err, want)
	}
	if _, err := (Plan{Folds: 3, Grouped: true}).split(labels); err == nil || !strings.Contains(err.Error(), "0 groups for 10 graphs") {
		t.Errorf("grouped without groups: %v", err)
	}
	if _, err := (Plan{Folds: 6, Grouped: true, Groups: groups}).split(labels); err == nil || !strings.Contains(err.Error(), "5 groups for 6 folds") {
		t.Errorf("too few groups: %v", err)
	}
	u, err := FromSpec(spec.Defaults())
	if err != nil || u.Plan(0).Grouped {
		t.Fatalf("default plan grouped: %v", err)
	}
	s := spec.Defaults()
	s.Split = spec.SplitScaffold
	if u, err = FromSpec(s); err != nil || !u.Plan(1).Grouped {
		t.Fatalf("scaffold plan not grouped: %v", err)
	}
}

// TestGroupedProtocols: every protocol's outer folds are the plan's
// grouped folds: the test graphs of each fold are GroupKFold's, whole
// groups, for a fixed configuration, the automatic choice and
// ByTrainingFolds.
func TestGroupedProtocols(t *testing.T) {
	_, w := toyWKPI(t)
	cfg := toyConfig()
	groups := make([]int, len(w.Labels))
	for i := range groups {
		groups[i] = i / 3
	}
	plan := Plan{Folds: 4, Seed: 3, Grouped: true, Groups: groups}
	folds, err := crossval.GroupKFold(w.Labels, groups, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	wantTrain, want := crossval.Split(indices(len(groups)), folds, 4)
	check := func(name string, rep Report) {
		t.Helper()
		if len(rep.Folds) != 4 {
			t.Fatalf("%s: %d folds", name, len(rep.Folds))
		}
		for _, f := range rep.Folds {
			if !reflect.DeepEqual(f.Test, want[f.Index]) {
				t.Errorf("%s: fold %d tests %v, want %v", name, f.Index, f.Test, want[f.Index])
			}
		}
	}
	ctx := context.Background()
	rep, err := w.CrossValidate(ctx, cfg, plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	check("fixed", rep)
	sized, err := SizeAware(w, cfg)
	if err != nil {
		t.Fatal(err)
	}
	rep, err = CrossValidateChosen(ctx, []Candidate{{W: w, Config: cfg}, sized}, plan, ChoiceOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	check("automatic choice", rep)
	prepare := func(train []int) (*WKPI, error) {
		if !slices.ContainsFunc(wantTrain, func(t []int) bool { return slices.Equal(t, train) }) {
			t.Errorf("by training folds: training set %v is none of the grouped folds'", train)
		}
		return w, nil
	}
	rep, err = ByTrainingFolds(ctx, w.Labels, w.Classes, plan, prepare, func(w *WKPI, p Plan) (Report, error) {
		return w.CrossValidate(ctx, cfg, p, nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	check("by training folds", rep)
}

// TestSetupGroups: split scaffold groups MUTAG and PTC_MR by scaffold
// through their README tables (numbered differently); codes without a
// table, or graphs that are not molecules, get an error saying what a
// scaffold split needs; split random needs no groups.
func TestSetupGroups(t *testing.T) {
	s := spec.Defaults()
	s.Split = spec.SplitScaffold
	u, err := FromSpec(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		groups int
	}{{"MUTAG", 46}, {"PTC_MR", 0}} {
		dir := testenv.Dataset(t, tc.name)
		ds, err := tu.Read(dir)
		if err != nil {
			t.Fatal(err)
		}
		nodes, edges, err := tu.ReadLabelNames(dir)
		if err != nil {
			t.Fatal(err)
		}
		groups, err := u.Groups(ds.Graphs, nodes, edges)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		n := slices.Max(groups) + 1
		if len(groups) != len(ds.Graphs) || (tc.groups > 0 && n != tc.groups) || n < 10 {
			t.Errorf("%s: %d groups for %d graphs", tc.name, n, len(groups))
		}
		if tc.name != "MUTAG" {
			continue
		}
		_, err = u.Groups(ds.Graphs, nil, edges)
		const want = "split scaffold needs molecules with element symbols as node labels: graph 0, node 0 is labelled \"0\" (no table names the node label codes"
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("codes without a table: %v", err)
		}
		// MUTAG's edge code 0 is aromatic: without the table it is no bond type.
		if _, err = u.Groups(ds.Graphs, nodes, nil); err == nil || !strings.HasPrefix(err.Error(), "split scaffold needs molecules with bond types as edge labels") {
			t.Errorf("bond codes without a table: %v", err)
		}
		r, _ := FromSpec(spec.Defaults())
		if groups, err := r.Groups(ds.Graphs, nil, nil); groups != nil || err != nil {
			t.Errorf("random split: %v, %v", groups, err)
		}
	}
}
