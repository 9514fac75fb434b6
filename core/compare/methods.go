package compare

import (
	"context"
	"fmt"
	"math"

	"wkpi-web/core/crossval"
	"wkpi-web/core/eval"
	"wkpi-web/core/graphstats"
	"wkpi-web/core/kernel"
	"wkpi-web/core/pdkernel"
	"wkpi-web/core/persistence"
	"wkpi-web/core/pimage"
	"wkpi-web/core/progress"
	"wkpi-web/core/wl"
)

// wkpiKey names a WKPI cross-validation by protocol and variant.
func (d *Data) wkpiKey(o Options, alt bool) string {
	return fmt.Sprintf("nested=%t alt=%t auto=%t folds=%d seed=%d", o.WKPIGrid != nil, alt, o.WKPIAuto, o.Folds, o.Seed)
}

// runWKPI cross-validates WKPI (or altWKPI) once per protocol and reads
// the learned or the initial weight function's folds from the report, so
// that WKPI and WKPI-init come from one run on the same folds. The time
// is that run's.
func (d *Data) runWKPI(ctx context.Context, name string, o Options, prog progress.Func) (crossval.Result, []string, float64, error) {
	alt := name == AltWKPI
	key := d.wkpiKey(o, alt)
	rep, ok := d.reports[key]
	if !ok {
		cfg := o.WKPI
		cfg.Variant = kernel.WKPI // the method names the variant, whatever o.WKPI says
		if alt {
			cfg.Variant = kernel.Alt
		}
		var err error
		src := d.wkpi.Source()
		if o.WKPIFeatures != nil {
			src = eval.Source{Labels: d.Labels, Classes: d.Classes, PerFold: true, Features: o.WKPIFeatures}
		}
		rep, err = eval.Run(ctx, src, o.wkpiProtocol(cfg, alt), eval.Plan{Folds: o.Folds, Seed: o.Seed}, prog)
		if err != nil {
			return crossval.Result{}, nil, 0, err
		}
		d.reports[key] = rep
	}
	var chosen []string
	for _, f := range rep.Folds {
		cell := fmt.Sprintf("C=%g m=%d sigma=%g", f.Config.C, f.Config.Learn.M, f.Config.Sigma)
		if f.Config.Gauss > 0 {
			cell += fmt.Sprintf(" gauss=%g", f.Config.Gauss)
		}
		chosen = append(chosen, cell)
	}
	if name == WKPIInit {
		return rep.Baseline, chosen, rep.Seconds, nil
	}
	return rep.Learned, chosen, rep.Seconds, nil
}

// wkpiProtocol is the protocol of WKPI's cross-validation under o: nested
// CV over WKPIGrid, the automatic choice of images (WKPIAuto, not for
// altWKPI), or cfg in every fold.
func (o Options) wkpiProtocol(cfg eval.Config, alt bool) eval.Protocol {
	switch {
	case o.WKPIGrid != nil:
		return eval.Nested{Config: cfg, Grid: *o.WKPIGrid, Inner: o.Inner}
	case o.WKPIAuto && !alt:
		return eval.Auto{Config: cfg}
	}
	return eval.Fixed{Config: cfg}
}

// majorityLearner predicts the most frequent class of its training set
// (the smallest such class on ties).
type majorityLearner struct {
	labels  []int
	classes int
}

// constant predicts one class for every sample and scores it 1, the
// other classes 0: every sample scores alike, so its ROC-AUC is 1/2.
type constant struct{ class, classes int }

func (l majorityLearner) Fit(_ context.Context, train []int) (crossval.Predictor, error) {
	count := map[int]int{}
	best := -1
	for _, s := range train {
		c := l.labels[s]
		count[c]++
		if best < 0 || count[c] > count[best] || (count[c] == count[best] && c < best) {
			best = c
		}
	}
	return constant{best, l.classes}, nil
}

func (c constant) Predict(ctx context.Context, test []int) ([]int, error) {
	out, _, err := c.Scores(ctx, test)
	return out, err
}

func (c constant) Scores(_ context.Context, test []int) ([]int, [][]float64, error) {
	out, scores := make([]int, len(test)), make([][]float64, len(test))
	for i := range out {
		out[i], scores[i] = c.class, make([]float64, c.classes)
		scores[i][c.class] = 1
	}
	return out, scores, nil
}

func (d *Data) runMajority(ctx context.Context, o Options, prog progress.Func) (crossval.Result, error) {
	folds, err := crossval.StratifiedKFold(d.Labels, o.Folds, o.Seed)
	if err != nil {
		return crossval.Result{}, err
	}
	return crossval.CrossValidate(ctx, d.Labels, folds, o.Folds, majorityLearner{d.Labels, d.Classes}, prog)
}

// cell is one point of a method's grid apart from C: its parameters and
// the kernel they give.
type cell struct {
	params crossval.Params
	src    source
}

// nested chooses a cell and C per outer fold by inner CV (crossval.Nested)
// and returns the outer folds' result and choices.
func (d *Data) nested(ctx context.Context, cells []cell, o Options, prog progress.Func) (crossval.Result, []string, error) {
	var grid []crossval.Params
	byKey := map[string]source{}
	for _, c := range cells {
		byKey[c.params.String()] = c.src
		for _, cv := range o.Cs {
			p := crossval.Params{"C": cv}
			for k, v := range c.params {
				p[k] = v
			}
			grid = append(grid, p)
		}
	}
	newLearner := func(p crossval.Params) crossval.Learner {
		rest := crossval.Params{}
		for k, v := range p {
			if k != "C" {
				rest[k] = v
			}
		}
		return svmLearner{labels: d.Labels, classes: d.Classes, c: p["C"], src: byKey[rest.String()]}
	}
	r, err := crossval.Nested(ctx, d.Labels, o.Folds, o.Inner, grid, newLearner, o.Seed, prog)
	if err != nil {
		return crossval.Result{}, nil, err
	}
	chosen := make([]string, len(r.Chosen))
	for i, p := range r.Chosen {
		chosen[i] = p.String()
	}
	return r.Result, chosen, nil
}

// cells builds a method's grid (without C) and the matrices it needs.
func (d *Data) cells(ctx context.Context, name string, o Options, prog progress.Func) ([]cell, error) {
	medians := &medianCache{}
	scaled := func(dist [][]float64, p crossval.Params) []cell {
		var out []cell
		for _, s := range o.Scales {
			q := crossval.Params{"scale": s}
			for k, v := range p {
				q[k] = v
			}
			out = append(out, cell{q, rbf(dist, s, medians)})
		}
		return out
	}
	switch name {
	case PIConst, PIPL:
		images := pimage.DenseAll(d.Set.Images)
		if name == PIPL {
			var err error
			if images, err = d.linearImages(ctx); err != nil {
				return nil, err
			}
		}
		dist, err := pdkernel.SquaredEuclidean(ctx, images, prog)
		if err != nil {
			return nil, err
		}
		return scaled(dist, nil), nil
	case PILinear:
		return []cell{{crossval.Params{}, fixedKernel(dots(pimage.DenseAll(d.Set.Images)))}}, nil
	case SW:
		var out []cell
		for _, m := range o.SWDirections {
			dist, err := d.perChannel(func(ch [][]persistence.Point) ([][]float64, error) {
				return pdkernel.SlicedWasserstein(ctx, ch, m, prog)
			})
			if err != nil {
				return nil, err
			}
			out = append(out, scaled(dist, crossval.Params{"directions": float64(m)})...)
		}
		return out, nil
	case PF:
		var out []cell
		for _, h := range o.PFBandwidths {
			dist, err := d.perChannel(func(ch [][]persistence.Point) ([][]float64, error) {
				return pdkernel.PersistenceFisher(ctx, ch, h*d.maxPers, prog)
			})
			if err != nil {
				return nil, err
			}
			out = append(out, scaled(dist, crossval.Params{"bandwidth": h})...)
		}
		return out, nil
	case PWGK:
		var out []cell
		for _, r := range o.PWGKRhos {
			p := pdkernel.PWGKParams{Rho: r * d.maxPers, C: math.Pow(d.medPers, -o.PWGKPower), P: o.PWGKPower}
			dist, err := d.perChannel(func(ch [][]persistence.Point) ([][]float64, error) {
				k, err := pdkernel.PWGKLinear(ctx, ch, p, prog)
				if err != nil {
					return nil, err
				}
				return pdkernel.SquaredDistances(k), nil
			})
			if err != nil {
				return nil, err
			}
			out = append(out, scaled(dist, crossval.Params{"rho": r})...)
		}
		return out, nil
	case TrainPWGK:
		tp := &trainedPWGK{d: d, o: o, rho: o.TrainRho * d.maxPers, capacity: o.Inner + 1}
		var out []cell
		for _, s := range o.Scales {
			out = append(out, cell{crossval.Params{"scale": s}, tp.source(s)})
		}
		return out, nil
	case WL:
		var out []cell
		for _, h := range o.WLIterations {
			vecs, err := wl.Features(d.Graphs, wl.Options{Iterations: h, NodeLabels: o.WLNodeLabels})
			if err != nil {
				return nil, err
			}
			k, err := wl.Gram(ctx, vecs, prog)
			if err != nil {
				return nil, err
			}
			out = append(out, cell{crossval.Params{"h": float64(h)}, fixedKernel(cosine(k))})
		}
		return out, nil
	case ECFP:
		k, err := ecfpGram(ctx, d.Graphs, o.NodeNames, o.EdgeNames, prog)
		if err != nil {
			return nil, err
		}
		return []cell{{crossval.Params{}, fixedKernel(k)}}, nil
	case Stats:
		x := graphstats.All(d.Graphs)
		var out []cell
		for _, s := range o.Scales {
			out = append(out, cell{crossval.Params{"scale": s}, statsSource(x, s)})
		}
		return out, nil
	}
	return nil, fmt.Errorf("compare: unknown method %q", name)
}

// perChannel sums a distance-like matrix over the channels (the diagram
// kernels compare one diagram per graph; WKPI's channels, say dimension 0
// and dimension 1, are kept apart and their distances added).
func (d *Data) perChannel(f func(ch [][]persistence.Point) ([][]float64, error)) ([][]float64, error) {
	var sum [][]float64
	for _, ch := range d.channels {
		m, err := f(ch)
		if err != nil {
			return nil, err
		}
		if sum == nil {
			sum = m
			continue
		}
		for i := range m {
			for j := range m[i] {
				sum[i][j] += m[i][j]
			}
		}
	}
	return sum, nil
}

// dots is the linear kernel x_i . x_j.
func dots(x [][]float64) [][]float64 {
	out := make([][]float64, len(x))
	for i := range x {
		out[i] = make([]float64, len(x))
		for j := 0; j <= i; j++ {
			var s float64
			for k, v := range x[i] {
				s += v * x[j][k]
			}
			out[i][j], out[j][i] = s, s
		}
	}
	return out
}

// cosine normalises a Gram matrix to unit diagonal, K_ij / sqrt(K_ii
// K_jj) (0 where a diagonal entry is 0), so that one C grid serves every
// WL depth and dataset size.
func cosine(k [][]float64) [][]float64 {
	out := make([][]float64, len(k))
	for i := range k {
		out[i] = make([]float64, len(k))
		for j := range k {
			if n := k[i][i] * k[j][j]; n > 0 {
				out[i][j] = k[i][j] / math.Sqrt(n)
			}
		}
	}
	return out
}

// statsSource is the RBF kernel on graph statistics standardised with the
// training set's means and deviations, bandwidth scale times the median
// squared distance of training pairs.
func statsSource(x [][]float64, scale float64) source {
	return func(_ context.Context, train []int) (fitted, error) {
		sc, err := graphstats.Fit(x, train)
		if err != nil {
			return nil, err
		}
		z := make([][]float64, len(x))
		for i, r := range x {
			z[i] = sc.Apply(r)
		}
		d2 := func(i, j int) float64 {
			var s float64
			for k, x := range z[i] {
				s += (x - z[j][k]) * (x - z[j][k])
			}
			return s
		}
		t := 1 / (scale * crossval.Median(d2, train))
		return expOf(d2, t, train), nil
	}
}

// trainedPWGK is trainPWGK: for each training set, the PWGK weight
// function is learned by pdkernel.LearnPWGK (WKPI's total cost, started
// from WKPI's initial mixture of that training set), on the union of the
// channels' points (one weight function for all channels, like WKPI;
// channels lie on opposite sides of the diagonal). The kernel is the
// Gaussian of the learned PWGK's RKHS distance, bandwidth scale times the
// training median. Learned weights and linear Gram blocks are kept for
// the last `capacity` training sets, the inner folds and the refit of
// one outer fold.
type trainedPWGK struct {
	d        *Data
	o        Options
	rho      float64
	capacity int
	entries  []*pwgkEntry
	medians  medianCache
}

type pwgkEntry struct {
	key    uint64
	train  []int
	params pdkernel.PWGKParams
	self   []float64
	dist   [][]float64 // squared RKHS distances, train x train
	cross  map[uint64][][]float64
}

func (tp *trainedPWGK) entry(ctx context.Context, train []int) (*pwgkEntry, error) {
	key := trainKey(train)
	for _, e := range tp.entries {
		if e.key == key {
			return e, nil
		}
	}
	init, err := tp.d.wkpi.Initial(train, tp.o.WKPI.Learn)
	if err != nil {
		return nil, err
	}
	diags, labels := make([][]persistence.Point, len(train)), make([]int, len(train))
	for i, s := range train {
		diags[i], labels[i] = tp.d.union[s], tp.d.Labels[s]
	}
	mix, _, err := pdkernel.LearnPWGK(ctx, diags, labels, tp.rho, init, tp.o.WKPI.Learn, nil)
	if err != nil {
		return nil, err
	}
	p := pdkernel.PWGKParams{Rho: tp.rho, Weight: pdkernel.MixtureWeight(mix)}
	lin, err := pdkernel.PWGKLinear(ctx, diags, p, nil)
	if err != nil {
		return nil, err
	}
	e := &pwgkEntry{key: key, train: train, params: p, dist: pdkernel.SquaredDistances(lin), cross: map[uint64][][]float64{}}
	e.self = make([]float64, len(lin))
	for i := range lin {
		e.self[i] = lin[i][i]
	}
	if len(tp.entries) == tp.capacity {
		tp.entries = tp.entries[1:]
	}
	tp.entries = append(tp.entries, e)
	return e, nil
}

func (tp *trainedPWGK) source(scale float64) source {
	return func(ctx context.Context, train []int) (fitted, error) {
		e, err := tp.entry(ctx, train)
		if err != nil {
			return nil, err
		}
		local := make([]int, len(train))
		for i := range local {
			local[i] = i
		}
		t := 1 / (scale * tp.medians.get(e.dist, local))
		return pwgkFitted{tp: tp, e: e, t: t}, nil
	}
}

type pwgkFitted struct {
	tp *trainedPWGK
	e  *pwgkEntry
	t  float64
}

func (f pwgkFitted) gram() [][]float64 { return pdkernel.Exp(f.e.dist, f.t) }

func (f pwgkFitted) cross(ctx context.Context, test []int) ([][]float64, error) {
	key := trainKey(test)
	d, ok := f.e.cross[key]
	if !ok {
		rows, cols := make([][]persistence.Point, len(test)), make([][]persistence.Point, len(f.e.train))
		for i, s := range test {
			rows[i] = f.tp.d.union[s]
		}
		for j, s := range f.e.train {
			cols[j] = f.tp.d.union[s]
		}
		lin, err := pdkernel.PWGKLinearCross(ctx, rows, cols, f.e.params, nil)
		if err != nil {
			return nil, err
		}
		self, err := pdkernel.PWGKSelf(ctx, rows, f.e.params)
		if err != nil {
			return nil, err
		}
		if d, err = pdkernel.SquaredDistancesCross(lin, self, f.e.self); err != nil {
			return nil, err
		}
		f.e.cross[key] = d
	}
	return pdkernel.Exp(d, f.t), nil
}
