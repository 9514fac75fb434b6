//go:build unix

package eval

import (
	"context"
	"fmt"
	"math"
	"syscall"
	"testing"
	"time"

	"wkpi-web/core/crossval"
	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/kernel"
	"wkpi-web/core/learn"
	"wkpi-web/core/pimage"
	"wkpi-web/core/spec"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

// nci1Ricci is NCI1 with its Ricci features (defaults), which the
// benchmarks below take the first 600 graphs of.
func nci1Ricci(b *testing.B) (*graph.Dataset, *features.Set) {
	ds, err := tu.ReadDir(testenv.Dataset(b, "NCI1"))
	if err != nil {
		b.Fatal(err)
	}
	set, err := features.Compute(context.Background(), ds, features.Default(filtration.KindRicci), nil)
	if err != nil {
		b.Fatal(err)
	}
	return ds, set
}

// BenchmarkFamilyGramNCI1: the Gram matrices of two weight functions (one
// kernel.Family, as a CV fold computes its learned and initial kernels)
// on the Ricci images of 600 NCI1 graphs (~830 non-zero pixels each, 575
// in common per pair): the direct path that NCI1's CV takes (its pair
// table is over the memory budget). docs/benchmarks.md has the figures.
func BenchmarkFamilyGramNCI1(b *testing.B) {
	_, set := nci1Ricci(b)
	images, centres := set.Images[:600], features.Centres(set.Grid, set.Settings)
	m1 := kernel.Mixture{X: []float64{0.2, 0.6}, Y: []float64{0.1, 0.4}, Sigma: []float64{0.3, 0.2}, W: []float64{1, 0.5}}
	m2 := kernel.Mixture{X: []float64{0.5}, Y: []float64{0.3}, Sigma: []float64{0.5}, W: []float64{1}}
	fam := kernel.Family{Weights: [][]float64{m1.PixelWeights(centres), m2.PixelWeights(centres)}, Sigma: 0.01}
	for b.Loop() {
		if _, err := fam.Gram(context.Background(), images, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPairSumsNCI1: the metric learning's pair sums of 600 NCI1
// graphs' Ricci images over 10 folds, the one pass over all pairs a CV
// makes per kernel width before learning (direct path, as for NCI1).
func BenchmarkPairSumsNCI1(b *testing.B) {
	ds, set := nci1Ricci(b)
	images, labels := set.Images[:600], ds.Labels[:600]
	folds, err := crossval.StratifiedKFold(labels, 10, 1)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := learn.NewPairSums(context.Background(), images, labels, folds, 10, 0.01, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSplitsNCI1: the learned and initial kernels (Gram and cross
// matrices) of the 10 folds of a CV of 600 NCI1 graphs by kernel.Splits,
// in passes over the pairs of 10, 4 (as NCI1's whole CV under the
// default budget) and 1 fold each (one fold a pass costs what the
// per-fold kernel.Family path did). cpu-s/op is the process's CPU
// time (robust to other jobs' load; run with -test.cpu 1).
func BenchmarkSplitsNCI1(b *testing.B) {
	ds, set := nci1Ricci(b)
	images, labels, centres := set.Images[:600], ds.Labels[:600], features.Centres(set.Grid, set.Settings)
	folds, err := crossval.StratifiedKFold(labels, 10, 1)
	if err != nil {
		b.Fatal(err)
	}
	train, test := crossval.Split(indices(len(images)), folds, 10)
	var splits []kernel.Split
	for f := range 10 {
		m1 := kernel.Mixture{X: []float64{0.2, 0.6}, Y: []float64{0.1, 0.4 + 0.01*float64(f)}, Sigma: []float64{0.3, 0.2}, W: []float64{1, 0.5}}
		m2 := kernel.Mixture{X: []float64{0.5}, Y: []float64{0.3}, Sigma: []float64{0.5 + 0.01*float64(f)}, W: []float64{1}}
		splits = append(splits, kernel.Split{Weights: [][]float64{m1.PixelWeights(centres), m2.PixelWeights(centres)}, Train: train[f], Test: test[f]})
	}
	for _, per := range []int{10, 4, 1} {
		b.Run(fmt.Sprintf("folds-per-pass=%d", per), func(b *testing.B) {
			var out []kernel.SplitKernels
			cpu := cpuSeconds()
			for b.Loop() {
				for a := 0; a < len(splits); a += per {
					if out, err = kernel.Splits(context.Background(), images, 0.01, kernel.WKPI, splits[a:min(a+per, len(splits))], out, nil); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric((cpuSeconds()-cpu)/float64(b.N), "cpu-s/op")
		})
	}
}

// cpuSeconds is the process's user and system CPU time.
func cpuSeconds() float64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return math.NaN()
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()).Seconds()
}

// nci1Default is NCI1 with the default features (Ricci, HKS and degree:
// 9,600 pixels, about 1,980 of them non-zero per graph, 1,510 in common
// per pair).
func nci1Default(b *testing.B) (*graph.Dataset, *WKPI, Config) {
	ds, err := tu.ReadDir(testenv.Dataset(b, "NCI1"))
	if err != nil {
		b.Fatal(err)
	}
	u, err := FromSpec(spec.Defaults())
	if err != nil {
		b.Fatal(err)
	}
	s, err := u.FeaturesFor(ds.Graphs, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	set, err := features.Compute(context.Background(), ds, s, nil)
	if err != nil {
		b.Fatal(err)
	}
	w, err := NewWKPI(set, ds.Labels, len(ds.Classes))
	if err != nil {
		b.Fatal(err)
	}
	return ds, w, u.Config
}

// BenchmarkPassNCI1: one pass over the pairs of 600 NCI1 graphs (every
// 7th, both classes) with the default features, as crossValidatePasses
// makes them: the unlearned kernels of 10 folds (Gram and cross
// matrices, one weight function each) with the pair sums of all folds
// (sums), or without. cpu-s/op is the process's CPU time (run with
// -test.cpu 1).
func BenchmarkPassNCI1(b *testing.B) {
	_, w, cfg := nci1Default(b)
	var images [][]float64
	var labels []int
	for i := 0; i < len(w.Labels) && len(images) < 600; i += 7 {
		images, labels = append(images, w.Set.Images[i].Dense()), append(labels, w.Labels[i])
	}
	folds, err := crossval.StratifiedKFold(labels, 10, 1)
	if err != nil {
		b.Fatal(err)
	}
	train, test := crossval.Split(indices(len(images)), folds, 10)
	var splits []kernel.Split
	for f := range 10 {
		var pts [][2]float64
		for _, s := range train[f] {
			pts = append(pts, w.points[s*7]...)
		}
		init, err := learn.InitMixture(pts, w.domain, cfg.Learn)
		if err != nil {
			b.Fatal(err)
		}
		splits = append(splits, kernel.Split{Weights: w.weights(cfg, []kernel.Mixture{init}, nil), Train: train[f], Test: test[f]})
	}
	for _, sums := range []bool{true, false} {
		b.Run(fmt.Sprintf("sums=%v", sums), func(b *testing.B) {
			var out []kernel.SplitKernels
			cpu := cpuSeconds()
			for b.Loop() {
				var v kernel.PairVisitor
				if sums {
					if v, err = learn.NewSumsVisitor(len(images), len(images[0]), labels, folds, 10); err != nil {
						b.Fatal(err)
					}
				}
				if out, err = kernel.SplitsVisit(context.Background(), pimage.SparseAll(images), cfg.Sigma, cfg.Variant, splits, out, v, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuSeconds()-cpu)/float64(b.N), "cpu-s/op")
		})
	}
}
