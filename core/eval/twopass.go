package eval

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"time"

	"wkpi-web/core/crossval"
	"wkpi-web/core/kernel"
	"wkpi-web/core/learn"
	"wkpi-web/core/progress"
)

// kernelJob is one weight function's kernels on one outer fold: its
// unlearned (initial) or its learned weight function.
type kernelJob struct {
	fold    int // index into the running folds
	learned bool
	weights []float64
}

// twoPasses says whether CrossValidate of cfg takes crossValidatePasses:
// the direct path (no pair table for cfg.Sigma), exact WKPI kernels and
// learning on the pair sums of all graphs.
func (w *WKPI) twoPasses(ctx context.Context, cfg Config, prog progress.Func) (bool, error) {
	if cfg.Variant != kernel.WKPI || cfg.Nystrom > 0 || cfg.Learn.BatchSize > 0 {
		return false, nil
	}
	p, err := w.pairsFor(ctx, cfg.Sigma, cfg.Variant, prog)
	if err != nil {
		return false, err
	}
	_, direct := p.(directPairs)
	return direct, nil
}

// crossValidatePasses is CrossValidate on the direct path in as few
// passes over the pairs of images as the memory budget allows, two when
// every fold's matrices fit at once (NCI1), where the general path
// (run, testFolds) takes three: the unlearned weight functions do not
// depend on learning, so the first pass computes every fold's unlearned
// kernels together with the pair sums that learning needs
// (kernel.SplitsVisit, learn.SumsVisitor), and every fold chooses its
// SVM's form and C and tests its unlearned SVM before the folds learn;
// the second pass computes the learned kernels. Every matrix, choice and
// prediction is the one the general path computes
// (TestCrossValidatePassesMatch). With plan.Final the final model joins
// the passes as one more fold, of every graph and no test graphs: Train's
// model but for the float32 rounding of its Gram matrices and the order
// of its pair sums (TestFinalInPasses).
func (w *WKPI) crossValidatePasses(ctx context.Context, cfg Config, plan Plan, prog progress.Func) (Report, error) {
	start := time.Now()
	labels := w.Labels
	folds, err := plan.split(labels)
	if err != nil {
		return Report{}, err
	}
	train, test := crossval.Split(indices(len(labels)), folds, plan.Folds)
	// fits are the running folds, then the final model when the plan asks
	// for it (Index finalIndex); trains[i] are fits[i]'s training graphs.
	var fits []Fold
	var trains [][]int
	var jobs []kernelJob
	for f := range plan.Folds {
		if plan.runs(f) {
			fits, trains = append(fits, Fold{Index: f, Config: cfg, Test: test[f]}), append(trains, train[f])
		}
	}
	var final *finalFit
	if plan.Final != nil {
		final = &finalFit{fold: len(fits)}
		fits, trains = append(fits, Fold{Index: finalIndex, Config: cfg}), append(trains, indices(len(labels)))
	}
	for i, f := range fits {
		init, err := w.Initial(trains[i], cfg.Learn)
		if err != nil {
			return Report{}, fmt.Errorf("eval: fold %d: %w", f.Index, err)
		}
		if final != nil && i == final.fold {
			final.init = init
		}
		jobs = append(jobs, kernelJob{fold: i, weights: w.weights(cfg, []kernel.Mixture{init}, nil)[0]})
	}
	visit, err := learn.NewSumsVisitor(len(labels), w.Set.Images[0].Len, labels, folds, plan.Folds)
	if err != nil {
		return Report{}, err
	}
	rep := Report{Protocol: "fixed"}
	var out []kernel.SplitKernels
	var scratch svmScratch // the unpacked Gram matrix, one at a time
	learned := false
	baselines := 0 // unlearned SVMs chosen and tested, reported as "baseline"
	for a := 0; a < len(jobs) || !learned; {
		b := a + w.jobsPerPass(jobs[a:], fits, trains)
		if learned && b == a {
			break
		}
		splits := make([]kernel.Split, b-a)
		for q, job := range jobs[a:b] {
			splits[q] = kernel.Split{Weights: [][]float64{job.weights}, Train: trains[job.fold], Test: fits[job.fold].Test}
		}
		var v kernel.PairVisitor
		if a == 0 {
			v = visit
		}
		// What came before (the features, what the last pass prepared of
		// the images, the SVMs' unpacked matrices) goes back to the
		// system first, as in testFolds.
		scratch = svmScratch{}
		debug.FreeOSMemory()
		if out, err = kernel.SplitsVisit(ctx, w.Set.Images, cfg.Sigma, cfg.Variant, splits, out, v, prog); err != nil {
			return Report{}, err
		}
		var sums *learn.PairSums
		if v != nil {
			// The sums now, and the visitor (with what it prepared of the
			// images) goes before the SVMs need memory.
			if sums, err = visit.Sums(); err != nil {
				return Report{}, err
			}
			prog.Report("pair sums", 1, 1)
			visit, v = nil, nil
		}
		// What the pass prepared of the images goes, and below every
		// fold's learning and SVMs leave their garbage (tens of MB each
		// on NCI1) beside the live matrices: collected at once, as the
		// heap would otherwise grow by as much as it holds live (NCI1:
		// 0.4 GB more at its peak).
		runtime.GC()
		if !learned {
			// Every fold learns once the pair sums are made (the first
			// pass), before the SVMs, so that the sums' memory goes
			// first; its learned kernels queue behind the unlearned ones
			// left, in order of folds. The final model learns on the sums
			// of every fold (finalIndex excludes none).
			for i := range fits {
				f := &fits[i]
				fold, mix, _, err := w.fitFixed(ctx, cfg, trains[i], sums, f.Index, prog)
				if err != nil {
					return Report{}, fmt.Errorf("eval: fold %d: %w", f.Index, err)
				}
				f.Trace, f.ChannelScales = fold.Trace, fold.ChannelScales
				if final != nil && i == final.fold {
					final.learned = mix
				}
				ws := w.weights(cfg, []kernel.Mixture{mix}, [][]float64{fold.ChannelScales})
				jobs = append(jobs, kernelJob{fold: i, learned: true, weights: ws[0]})
				runtime.GC()
			}
			learned, sums = true, nil
		}
		for q, job := range jobs[a:b] {
			f := &fits[job.fold]
			ks := &kernelSet{train: splits[q].Train, test: splits[q].Test, cross: out[q].Cross, packed: out[q].Gram, scratch: &scratch}
			switch {
			case f.Index == finalIndex && job.learned:
				if rep.Final, err = w.finalModel(ctx, *f, *final, ks, *plan.Final); err != nil {
					return Report{}, err
				}
			case f.Index == finalIndex:
				if err := w.chooseFinal(ctx, f, ks); err != nil {
					return Report{}, err
				}
				baselines++
				prog.Report("baseline", baselines, len(fits))
			case job.learned:
				if err := w.scoreLearned(ctx, f, ks); err != nil {
					return Report{}, err
				}
				rep.Folds = append(rep.Folds, *f)
				if plan.OnFold != nil {
					plan.OnFold(*f)
				}
				prog.Report("folds", len(rep.Folds), plan.Folds)
			default:
				if err := w.scoreBaseline(ctx, f, ks); err != nil {
					return Report{}, err
				}
				baselines++
				prog.Report("baseline", baselines, len(fits))
			}
			runtime.GC()
		}
		a = b
	}
	rep.Seconds = time.Since(start).Seconds()
	if len(plan.Only) > 0 {
		return rep, nil // a part: the caller merges
	}
	return Merge(w.Labels, w.Classes, rep)
}

// jobsPerPass is how many of jobs (at least one, when there are any)
// share a pass over the pairs within the memory budget, as group bounds
// folds (trains[i] are fits[i]'s training graphs): their matrices (packed float32 Gram, float64 cross), the one
// unpacked Gram matrix an SVM needs at a time and what the pass prepares
// of the images within three quarters of it, in passes of about equal
// size.
func (w *WKPI) jobsPerPass(jobs []kernelJob, fits []Fold, trains [][]int) int {
	if len(jobs) == 0 {
		return 0
	}
	var worst, most int64
	for _, job := range jobs {
		nt, ne := int64(len(trains[job.fold])), int64(len(fits[job.fold].Test))
		worst = max(worst, 4*nt*(nt+1)/2+8*ne*nt)
		most = max(most, nt)
	}
	per := w.perPass(worst, most)
	passes := (len(jobs) + per - 1) / per
	return (len(jobs) + passes - 1) / passes
}

// scoreBaseline chooses the fold's SVM form and C (with an SVM grid) on
// its unlearned Gram matrix in ks, its only weight function, and tests
// the unlearned SVM on the fold: the unlearned half of score.
func (w *WKPI) scoreBaseline(ctx context.Context, fold *Fold, ks *kernelSet) error {
	if _, err := w.chooseFor(ctx, &fold.Config, &fold.InnerAccuracy, ks, fold.Config.Learn.Seed+int64(fold.Index)+1); err != nil {
		return fmt.Errorf("eval: fold %d: %w", fold.Index, err)
	}
	var err error
	if fold.BaselinePredicted, fold.BaselineScores, err = w.scored(ctx, ks, 0, fold.Config.C); err != nil {
		return fmt.Errorf("eval: fold %d: %w", fold.Index, err)
	}
	return nil
}

// scoreLearned tests the learned SVM, with the form and C the unlearned
// kernel chose (scoreBaseline), on the fold, whose metrics it then
// fills in: the learned half of score.
func (w *WKPI) scoreLearned(ctx context.Context, fold *Fold, ks *kernelSet) error {
	if fold.Config.Gauss > 0 {
		ks.toGaussian(0, fold.Config.Gauss)
	}
	var err error
	if fold.Predicted, fold.Scores, err = w.scored(ctx, ks, 0, fold.Config.C); err != nil {
		return fmt.Errorf("eval: fold %d: %w", fold.Index, err)
	}
	return w.metrics(fold)
}
