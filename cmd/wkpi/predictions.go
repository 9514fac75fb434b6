package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"strconv"

	"wkpi-web/core/eval"
	"wkpi-web/core/graph"
)

// graphName names graph i of ds in the predictions file: its name in
// the data (an SD title, a table's name column), else "graph i".
func graphName(ds *graph.Dataset, i int) string {
	if i < len(ds.Names) && ds.Names[i] != "" {
		return ds.Names[i]
	}
	return "graph " + strconv.Itoa(i)
}

// predictionScore is the score column of graph t of a fold: with two
// classes the decision value of the positive class (the second class,
// ds.Classes[1]; higher means more likely that class); with more classes
// the score of the predicted class (svm.Model.Scores: its one-vs-one
// votes plus its squashed summed decision values). Empty when the fold
// has no scores.
func predictionScore(scores [][]float64, t, predicted, classes int) string {
	if t >= len(scores) {
		return ""
	}
	c := predicted
	if classes == 2 {
		c = 1
	}
	return strconv.FormatFloat(scores[t][c], 'g', -1, 64)
}

// writePredictions writes the out-of-fold predictions of reports (one
// per repeat) as CSV: per repeat one block of one row per graph in
// dataset order, "index,name,fold,true,predicted,score" with the learned
// weight function's SVM, then baseline_predicted and baseline_score with
// the unlearned one; classes by their names, scores as
// predictionScore, written exactly (shortest round-trip form). With
// more than one repeat a first column "repeat" says which. Graphs that
// no fold tested (a part of a sharded run) have no row.
func writePredictions(path string, ds *graph.Dataset, reports []eval.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("-predictions: %w", err)
	}
	w := csv.NewWriter(f)
	header := []string{"index", "name", "fold", "true", "predicted", "score", "baseline_predicted", "baseline_score"}
	if len(reports) > 1 {
		header = append([]string{"repeat"}, header...)
	}
	w.Write(header)
	classes := len(ds.Classes)
	for r, rep := range reports {
		rows := make([][]string, len(ds.Labels))
		for _, fold := range rep.Folds {
			for t, i := range fold.Test {
				if i < 0 || i >= len(rows) || t >= len(fold.Predicted) || t >= len(fold.BaselinePredicted) {
					f.Close()
					return fmt.Errorf("-predictions: fold %d names graph %d of %d", fold.Index, i, len(rows))
				}
				p, b := fold.Predicted[t], fold.BaselinePredicted[t]
				rows[i] = []string{strconv.Itoa(i), graphName(ds, i), strconv.Itoa(fold.Index), ds.Classes[ds.Labels[i]],
					ds.Classes[p], predictionScore(fold.Scores, t, p, classes),
					ds.Classes[b], predictionScore(fold.BaselineScores, t, b, classes)}
				if len(reports) > 1 {
					rows[i] = append([]string{strconv.Itoa(r)}, rows[i]...)
				}
			}
		}
		for _, row := range rows {
			if row != nil {
				w.Write(row)
			}
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return fmt.Errorf("-predictions: %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("-predictions: %s: %w", path, err)
	}
	return nil
}
