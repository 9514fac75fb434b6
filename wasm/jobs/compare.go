package jobs

import (
	"context"
	"encoding/json"
	"fmt"

	"wkpi-web/core/compare"
	"wkpi-web/core/features"
	"wkpi-web/core/graph"
	"wkpi-web/core/progress"
	"wkpi-web/core/spec"
	"wkpi-web/wasm/protocol"
)

// compare runs a Compare job: the methods of job on the held dataset's
// features (computed once per worker and settings, like a CV's), with
// core/compare's default grids and WKPI at the data's default preset (as
// the Train tab opens), the same as `wkpi compare`; or, when job.Pair is set, pairs those methods
// with WKPI's folds.
func (w *Worker) compare(ctx context.Context, ds *graph.Dataset, job *protocol.CompareJob, report progress.Func) (protocol.Response, error) {
	if job == nil {
		return protocol.Response{}, fmt.Errorf("no comparison settings")
	}
	if len(job.Pair) > 0 {
		res := compare.Result{Dataset: ds.Name}
		if err := convert(job.Pair, &res.Methods); err != nil {
			return protocol.Response{}, err
		}
		if err := compare.Pair(&res); err != nil {
			return protocol.Response{}, err
		}
		return compared(res.Methods)
	}
	if err := compare.Check(job.Methods); err != nil {
		return protocol.Response{}, err
	}
	// The data's preset, as `wkpi compare` takes it: molecules for
	// molecules.
	t := Defaults()
	if features.AreMolecules(ds.Graphs, &features.Codes{Nodes: w.codes, Edges: w.edgeCodes}) {
		t.Spec = spec.Molecules()
	}
	t.Descriptor, t.Folds, t.Seed = job.Descriptor, job.Folds, job.Seed
	u, plan, err := w.setup(&t)
	if err != nil {
		return protocol.Response{}, err
	}
	cfg := u.Config
	e, err := w.wkpi(ctx, ds, u.Features, report)
	if err != nil {
		return protocol.Response{}, err
	}
	d, err := compare.NewData(ds, e.Set)
	if err != nil {
		return protocol.Response{}, err
	}
	o := compare.DefaultOptions()
	o.WKPI, o.Folds, o.Seed, o.WKPIAuto = cfg, plan.Folds, plan.Seed, u.Spec.Automatic() // as the Train tab runs it
	if t.Labels {
		// Each fold's label vocabulary from its training graphs, as the
		// Train tab's CV takes it.
		if o.WKPIFeatures, err = w.labelled(ctx, ds, u, report); err != nil {
			return protocol.Response{}, err
		}
	}
	o.NodeNames, o.EdgeNames = w.codes, w.edgeCodes // ecfp reads TU codes as atoms
	res, err := compare.Run(ctx, d, job.Methods, o, report)
	if err != nil {
		return protocol.Response{}, err
	}
	return compared(res.Methods)
}

func compared(ms []compare.Method) (protocol.Response, error) {
	var out []protocol.CompareMethod
	err := convert(ms, &out)
	return protocol.Response{Compared: out}, err
}

// convert copies between compare.Method and its protocol mirror through
// their common JSON.
func convert(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, to)
}
