package jobs

import (
	"context"
	"reflect"
	"testing"

	"wkpi-web/core/compare"
	"wkpi-web/core/features"
	"wkpi-web/core/tu"
	"wkpi-web/wasm/protocol"
)

// TestCompareJobs runs the comparison as the page does, one job per
// method on one worker and then a pairing job, and checks the folds
// against core/compare run natively on features computed apart, with
// the pairing against WKPI's folds.
func TestCompareJobs(t *testing.T) {
	ctx := context.Background()
	var w Worker
	job := protocol.CompareJob{Descriptor: "ricci", Folds: 4, Seed: 2}
	var got []protocol.CompareMethod
	for i, m := range []string{compare.WKPI, compare.Majority, compare.WL} {
		j := job
		j.Methods = []string{m}
		req := protocol.Request{Kind: protocol.Compare, Dataset: "m", Compare: &j}
		if i == 0 {
			req.Files = files(t, "../../data/MUTAG")
		}
		r := w.Run(ctx, req, nil, nil)
		if r.Event != protocol.Done || len(r.Compared) != 1 {
			t.Fatalf("%s: %s %+v", m, r.Error, r.Compared)
		}
		got = append(got, r.Compared[0])
	}
	j := job
	j.Pair = got
	r := w.Run(ctx, protocol.Request{Kind: protocol.Compare, Dataset: "m", Compare: &j}, nil, nil)
	if r.Event != protocol.Done || len(r.Compared) != 3 {
		t.Fatalf("pairing: %s %+v", r.Error, r.Compared)
	}

	ds, err := tu.Read("../../data/MUTAG")
	if err != nil {
		t.Fatal(err)
	}
	tr := Defaults()
	tr.Descriptor, tr.Folds, tr.Seed = job.Descriptor, job.Folds, job.Seed
	u, _, err := config(&tr)
	if err != nil {
		t.Fatal(err)
	}
	set, err := features.Compute(ctx, ds, u.Features, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := compare.NewData(ds, set)
	if err != nil {
		t.Fatal(err)
	}
	o := compare.DefaultOptions()
	o.Folds, o.Seed, o.WKPI.Learn.Seed, o.WKPIAuto = 4, 2, 2, true
	want, err := compare.Run(ctx, d, []string{compare.WKPI, compare.Majority, compare.WL}, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range want.Methods {
		g := r.Compared[i]
		if g.Name != m.Name || !reflect.DeepEqual(g.Folds, m.Folds) || g.Accuracy != m.Accuracy {
			t.Errorf("%s: jobs give %v, core/compare %v", m.Name, g.Folds, m.Folds)
		}
		if (m.Paired == nil) != (g.Paired == nil) || (m.Paired != nil && (g.Paired.WilcoxonP != m.Paired.WilcoxonP || !reflect.DeepEqual(g.Paired.Differences, m.Paired.Differences))) {
			t.Errorf("%s: paired %+v, core/compare %+v", m.Name, g.Paired, m.Paired)
		}
	}
	bad := protocol.CompareJob{Methods: []string{"GIN"}, Folds: 4}
	if r := w.Run(ctx, protocol.Request{Kind: protocol.Compare, Dataset: "m", Compare: &bad}, nil, nil); r.Event != protocol.Failed {
		t.Error("an unknown method was accepted")
	}
}
