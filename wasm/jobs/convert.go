package jobs

import (
	"math"

	"wkpi-web/core/crossval"
	"wkpi-web/core/eval"
	"wkpi-web/core/persistence"
	"wkpi-web/wasm/protocol"
)

// The protocol mirrors what the page needs of the core types with the
// same JSON; these functions convert between them field by field.

func foldOf(f eval.Fold) protocol.Fold {
	return protocol.Fold{
		Index: f.Index,
		Config: protocol.FoldConfig{Sigma: f.Config.Sigma, C: f.Config.C, Gauss: f.Config.Gauss,
			Learn: protocol.FoldLearn{M: f.Config.Learn.M}},
		Trace:    f.Trace,
		Accuracy: f.Accuracy, Baseline: f.Baseline,
		InnerAccuracy: f.InnerAccuracy, Cost: f.Cost, ChannelScales: f.ChannelScales, Candidate: f.Candidate,
		Test: f.Test, Predicted: f.Predicted, BaselinePredicted: f.BaselinePredicted,
		BalancedAccuracy: f.BalancedAccuracy, F1Macro: f.F1Macro, ROCAUC: metricOf(f.ROCAUC),
		BaselineBalancedAccuracy: f.BaselineBalancedAccuracy, BaselineF1Macro: f.BaselineF1Macro, BaselineROCAUC: metricOf(f.BaselineROCAUC),
		Scores: f.Scores, BaselineScores: f.BaselineScores,
	}
}

// metricOf is a metric as the protocol carries it: nil where undefined.
func metricOf(m crossval.Metric) *float64 {
	if math.IsNaN(float64(m)) {
		return nil
	}
	v := float64(m)
	return &v
}

// evalMetric is the inverse of metricOf.
func evalMetric(p *float64) crossval.Metric {
	if p == nil {
		return crossval.Metric(math.NaN())
	}
	return crossval.Metric(*p)
}

func summaryOf(s crossval.Summary) protocol.MetricSummary {
	out := protocol.MetricSummary{Mean: metricOf(s.Mean), Std: metricOf(s.Std), Undefined: s.Undefined}
	for _, m := range s.PerFold {
		out.PerFold = append(out.PerFold, metricOf(m))
	}
	return out
}

func evalSummary(s protocol.MetricSummary) crossval.Summary {
	out := crossval.Summary{Mean: evalMetric(s.Mean), Std: evalMetric(s.Std), Undefined: s.Undefined}
	for _, p := range s.PerFold {
		out.PerFold = append(out.PerFold, evalMetric(p))
	}
	return out
}

// evalFold is the inverse of foldOf on the fields the protocol keeps.
func evalFold(f protocol.Fold) eval.Fold {
	e := eval.Fold{
		Index:    f.Index,
		Accuracy: f.Accuracy, Baseline: f.Baseline,
		InnerAccuracy: f.InnerAccuracy, Cost: f.Cost, ChannelScales: f.ChannelScales, Candidate: f.Candidate,
		Test: f.Test, Predicted: f.Predicted, BaselinePredicted: f.BaselinePredicted,
		BalancedAccuracy: f.BalancedAccuracy, F1Macro: f.F1Macro, ROCAUC: evalMetric(f.ROCAUC),
		BaselineBalancedAccuracy: f.BaselineBalancedAccuracy, BaselineF1Macro: f.BaselineF1Macro, BaselineROCAUC: evalMetric(f.BaselineROCAUC),
		Scores: f.Scores, BaselineScores: f.BaselineScores,
	}
	e.Config.Sigma, e.Config.C, e.Config.Gauss, e.Config.Learn.M = f.Config.Sigma, f.Config.C, f.Config.Gauss, f.Config.Learn.M
	e.Trace.Cost, e.Trace.Iterations, e.Trace.Converged = f.Trace.Cost, f.Trace.Iterations, f.Trace.Converged
	return e
}

func resultOf(r crossval.Result) protocol.Result {
	return protocol.Result{Accuracy: r.Accuracy, Std: r.Std, PerFold: r.PerFold, Confusion: r.Confusion,
		Predictions: r.Predictions, Seconds: r.Seconds,
		ROCAUC: summaryOf(r.ROCAUC), BalancedAccuracy: summaryOf(r.BalancedAccuracy), F1Macro: summaryOf(r.F1Macro)}
}

func evalResult(r protocol.Result) crossval.Result {
	return crossval.Result{Accuracy: r.Accuracy, Std: r.Std, PerFold: r.PerFold, Confusion: r.Confusion,
		Predictions: r.Predictions, Seconds: r.Seconds,
		ROCAUC: evalSummary(r.ROCAUC), BalancedAccuracy: evalSummary(r.BalancedAccuracy), F1Macro: evalSummary(r.F1Macro)}
}

func reportOf(r eval.Report) protocol.Report {
	out := protocol.Report{Protocol: r.Protocol, Learned: resultOf(r.Learned), Baseline: resultOf(r.Baseline), Seconds: r.Seconds}
	if r.Folds != nil {
		out.Folds = make([]protocol.Fold, len(r.Folds))
		for i, f := range r.Folds {
			out.Folds[i] = foldOf(f)
		}
	}
	return out
}

func evalReport(r protocol.Report) eval.Report {
	out := eval.Report{Protocol: r.Protocol, Learned: evalResult(r.Learned), Baseline: evalResult(r.Baseline), Seconds: r.Seconds}
	if r.Folds != nil {
		out.Folds = make([]eval.Fold, len(r.Folds))
		for i, f := range r.Folds {
			out.Folds[i] = evalFold(f)
		}
	}
	return out
}

func pointsOf(ps []persistence.Point) []protocol.Point {
	if ps == nil {
		return nil
	}
	out := make([]protocol.Point, len(ps))
	for i, p := range ps {
		out[i] = protocol.Point{Birth: p.Birth, Death: p.Death}
	}
	return out
}

func diagramsOf(d persistence.Diagrams) protocol.Diagrams {
	return protocol.Diagrams{Ord0: pointsOf(d.Ord0), Rel1: pointsOf(d.Rel1), Ext0: pointsOf(d.Ext0), Ext1: pointsOf(d.Ext1)}
}
