package eval

import (
	"math"

	"wkpi-web/core/kernel"
	"wkpi-web/core/progress"
)

// WorkJob is what Work needs to know of a job before it starts.
type WorkJob struct {
	Graphs int // graphs in the dataset
	// Folds is the CV's number of folds; Running how many of them this
	// job runs (Plan.Only), all when 0. A final training (Folds 0) fits
	// one model on every graph.
	Folds, Running int
	// Final says a CV's part trains the final model too (Plan.Final): in
	// its passes over the pairs, as one more fold of every graph.
	Final bool
	// Auto says the job makes the automatic image choice
	// (Spec.Automatic); Scores that it computes one candidate's kernels of
	// it only: the page measures each candidate in a job of its own
	// (ChoiceScores) and has it followed, on the same bar, by the folds
	// that take the scores, so both jobs plan the same stages.
	Auto, Scores bool
	ChoosesSVM   bool // every fold chooses its SVM (Spec.ChoosesSVM)
	Pixels       int  // pixels of a graph's images, all descriptors
	// TableBytes is the pair table's size (kernel.TableBytes), once the
	// images are known; 0 guesses it with a sixteenth of the pixels
	// shared by a pair (MUTAG's images: 6 % under the defaults, 5 % under
	// the molecules preset).
	TableBytes int64
	// MaxTableBytes is the pair table's budget (WKPI.MaxTableBytes); 0
	// takes DefaultMaxTableBytes, less than 0 builds no table.
	MaxTableBytes int64
}

// Costs of Work, in pair terms: the cost of one pair of images' kernel
// terms for the weight functions of every fold. Measured on MUTAG and
// on 300 ChEMBL molecules (recorded in testdata/progress): a graph's
// descriptors and diagrams cost about 8 pairs, its images 20; a
// candidate's kernels in the automatic choice 1 a pair of its sample,
// the pass that also sums the pairs for learning 1.1, the pass of the
// learned kernels 0.7, the pair table 1.5; a fold's learning 600 (it
// works on pair sums, whatever the dataset's size); a fold's SVMs 100
// and, when they choose their kernel and C, a hundredth of a pair per
// entry of their training Gram matrix (a tenth when its matrices come
// out of the pair table).
const (
	diagramCost  = 8
	imageCost    = 20
	sumsPassCost = 1.1
	passCost     = 0.7
	tableCost    = 1.5
	choiceCost   = 1
	learnCost    = 600
	svmFixedCost = 100
	svmCost      = 0.01
	svmTableCost = 0.1
)

// Work is the stages of a default-protocol job (a CV's folds or a final
// training) with their costs, in the order they run, as the pipeline
// reports them: what a progress.Tracker needs for a determinate bar. The
// pair work goes through the pair table ("pairs") when it fits the
// budget, and through passes over the pairs ("gram", two for a CV)
// otherwise.
func Work(j WorkJob) []progress.Stage {
	n := float64(j.Graphs)
	pairs := n * (n - 1) / 2
	running := j.Running
	if running == 0 {
		running = j.Folds
	}
	k := float64(running)
	budget := j.MaxTableBytes
	if budget == 0 {
		budget = DefaultMaxTableBytes
	}
	size := j.TableBytes
	if size == 0 {
		size = int64(j.Pixels/16)*int64(j.Graphs-1)*6*int64(j.Graphs) + int64(pairs)*8
	}
	table := budget > 0 && size <= min(budget, tableCap)
	train := n
	if j.Folds > 0 {
		train = n * float64(j.Folds-1) / float64(j.Folds)
	}
	stages := []progress.Stage{
		{Name: "diagrams", Cost: diagramCost * n},
		{Name: "images", Cost: imageCost * n},
	}
	svm := svmCost
	if table {
		// Built at the choice's start, when the choice runs.
		svm = svmTableCost
		stages = append(stages, progress.Stage{Name: "pairs", Cost: tableCost * pairs})
	}
	// The choice's candidates' kernels (one from the table when it fits)
	// over a sample of about DefaultChoiceGraphs graphs at most: one of as
	// many stratified parts as that takes (chooseAll).
	s := n / math.Ceil(n/DefaultChoiceGraphs)
	sample := s * (s - 1) / 2
	switch {
	case j.Auto && (j.Scores || table):
		stages = append(stages, progress.Stage{Name: "choice", Cost: choiceCost * sample})
	case j.Auto:
		stages = append(stages, progress.Stage{Name: "choice", Cost: 2 * choiceCost * sample})
	}
	if j.Folds == 0 {
		if !table {
			stages = append(stages, progress.Stage{Name: "pair sums", Cost: pairs})
		}
		stages = append(stages, progress.Stage{Name: "learn", Cost: learnCost},
			progress.Stage{Name: "gram", Cost: pairs})
		return stages
	}
	choose := 0.0 // a fold's choice of its SVM
	if j.ChoosesSVM {
		choose = svm * train * train / 2
	}
	// The final model, when the job trains it too: a fold of every graph.
	finalSVM, finalRuns := 0.0, 0
	if j.Final {
		finalSVM, finalRuns = svmFixedCost, 1
		if j.ChoosesSVM {
			finalSVM += svm * n * n / 2
		}
	}
	if table {
		// The final model after the folds, on the table (WKPI.Train).
		return append(stages, progress.Stage{Name: "learn", Cost: k * learnCost, Runs: running},
			progress.Stage{Name: "folds", Cost: k*(svmFixedCost+choose) + float64(finalRuns)*learnCost + finalSVM, Total: running})
	}
	// A pass for the unlearned kernels and the pair sums, the folds
	// learn and choose their SVMs (silently, before the next pass), and
	// a pass for the learned kernels.
	return append(stages, progress.Stage{Name: "gram, pair sums", Cost: sumsPassCost * pairs},
		progress.Stage{Name: "learn", Cost: (k+float64(finalRuns))*learnCost + k*choose + finalSVM, Runs: running + finalRuns},
		progress.Stage{Name: "gram", Cost: passCost * pairs},
		progress.Stage{Name: "folds", Cost: k * svmFixedCost, Total: running})
}

// WorkKind is what a job of Setup.Work computes: a set of these.
type WorkKind uint8

// The parts of a job of Setup.Work.
const (
	// FoldsJob: a CV's folds (all, or Plan.Only).
	FoldsJob WorkKind = 1 << iota
	// FinalJob: the final model of every graph; with FoldsJob, in the
	// folds' passes (Plan.Final).
	FinalJob
	// ChoiceJob: the automatic choice of images, when the settings make
	// it.
	ChoiceJob
	// ScoresJob: one candidate's kernels of the automatic choice: a
	// ChoiceScores job, or the folds it hands the scores to (which then
	// take ChoiceOptions.Inner), planned alike (WorkJob.Scores).
	ScoresJob
)

// Work is Work for a job of u on graphs that computes kind: a CV's part
// that runs running of u.Spec.Folds (all when 0), the final model, the
// choice of images or one candidate's part of it, or several of them, with the
// images of w once they are known (nil before). It is nil where Work
// does not know the protocol's stages (grid searches, repeats, node
// labels): a bar then shows the stages' counters only.
func (u Setup) Work(graphs, running int, kind WorkKind, w *WKPI) []progress.Stage {
	s := u.Spec
	if s.Searches() || s.Labels || (kind&FoldsJob != 0 && s.Repeats > 1) {
		return nil
	}
	f := u.Features
	j := WorkJob{Graphs: graphs, Folds: s.Folds, Running: running, ChoosesSVM: s.ChoosesSVM(),
		Pixels: f.Rows * f.Rows * len(f.Channels) * (1 + len(f.Extra)),
		Auto:   s.Automatic() && kind&(ChoiceJob|ScoresJob) != 0, Scores: kind&ScoresJob != 0,
		Final: kind&(FoldsJob|FinalJob) == FoldsJob|FinalJob}
	if kind&FoldsJob == 0 {
		j.Folds, j.Running = 0, 0
	}
	if w != nil {
		j.TableBytes, j.MaxTableBytes = kernel.TableBytes(w.Set.Images), min(w.MaxTableBytes, -1)
		if w.MaxTableBytes > 0 {
			j.MaxTableBytes = w.MaxTableBytes
		}
	}
	return Work(j)
}
