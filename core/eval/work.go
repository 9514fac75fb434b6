package eval

import (
	"fmt"
	"math"

	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/kernel"
	"wkpi-web/core/pimage"
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
	// its passes over the pairs, as one more fold of every graph, or, with
	// FinalApart, after the folds in passes of its own, whose stages
	// report with FinalPrefix (Run: features fitted to each fold, as node
	// labels are).
	Final, FinalApart bool
	// FeatureSets is how many feature sets the folds take (node labels:
	// one per label vocabulary of their training graphs); 0 means 1.
	// Every set after the first has its features and passes over the
	// pairs of its own, reported with SetPrefix; it is planned with one
	// fold (NCI1's atom types: one fold of ten has a vocabulary of its
	// own).
	FeatureSets int
	// Auto says the job makes the automatic image choice
	// (Spec.Automatic); Scores that it computes one candidate's kernels of
	// it only: the page measures each candidate in a job of its own
	// (ChoiceScores) and has it followed, on the same bar, by the folds
	// that take the scores, so both jobs plan the same stages.
	Auto, Scores bool
	ChoosesSVM   bool // every fold chooses its SVM (Spec.ChoosesSVM)
	// Nodes is the graphs' mean number of nodes, DegreePairs their mean
	// sum over edges of the product of the ends' degrees (what Ollivier-
	// Ricci curvature's transport problems cost), Descriptors the
	// descriptors computed on each (node labels count as one); 0 takes
	// MUTAG's (18, 118) and the default set's 3.
	Nodes, DegreePairs float64
	Descriptors        int
	Pixels             int // pixels of a graph's images, all descriptors
	// Common is the mean number of pixels where two graphs' images are
	// both non-zero (CommonPixels), once the images are known; 0 guesses
	// 4 % of Pixels (the images measured: 1-8 %).
	Common float64
	// TableBytes is the pair table's size (kernel.TableBytes), once the
	// images are known; 0 guesses it with a sixteenth of the pixels
	// shared by a pair (MUTAG's images: 6 % under the defaults, 5 % under
	// the molecules preset).
	TableBytes int64
	// MaxTableBytes is the pair table's budget (WKPI.MaxTableBytes); 0
	// takes DefaultMaxTableBytes, less than 0 builds no table.
	MaxTableBytes int64
}

// Costs of Work, in nanoseconds of the 2-core build machine, fitted to
// the runs recorded in testdata/progress (structure only and the
// molecules preset, 188 to 4,110 graphs; only their ratios matter): a
// graph's diagrams cost per node and descriptor and per product of
// degrees along its edges, its images in proportion to their pixels;
// a pair's kernel terms in a pass to the pixels the two images share and
// the words of their bitmaps; the
// first pass of a CV also adds every graph's row of pair sums, per pixel
// and fold; a fold's learning works on pair sums (per pixel, whatever
// the dataset's size); and its SVMs cost per entry of its training Gram
// matrix, more when the choice reads them from the pair table and more
// on more graphs (the solver's iterations).
const (
	diagramNs   = 20000 // a graph's, besides the next two
	nodeNs      = 1500  // a node's, per descriptor
	degreeNs    = 500   // per product of degrees along an edge
	imageNs     = 35    // per pixel
	pairNs      = 2     // a pair's terms in a pass, per common pixel
	wordNs      = 2     // and per 64 pixels of an image (its bitmaps' words)
	pairFoldNs  = 84    // and per fold (its kernel values' place in the fold's matrices)
	rowNs       = 4     // the first pass's pair sums, per graph, pixel and fold
	tableNs     = 60    // the pair table, per common pixel of a pair
	choiceNs    = 2000  // a pair of the choice's sample, one candidate, besides its terms
	candidateNs = 200e6 // a candidate's inner cross-validation on the sample
	learnNs     = 13e6  // a fold's learning, besides the next
	learnPixNs  = 1200  // and per pixel
	svmCellsNs  = 12e6  // a fold's choice of its SVM: 24 small SVMs, besides their entries
	svmChoiceNs = 70
	svmTableNs  = 700
	svmNs       = 15
	svmFixedNs  = 2e6
	svmGraphs   = 1000 // SVMs cost more per entry on more graphs: twice at this many
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
	sets := max(j.FeatureSets, 1)
	if j.Folds > 0 {
		sets = min(sets, running)
	}
	budget := j.MaxTableBytes
	if budget == 0 {
		budget = DefaultMaxTableBytes
	}
	size := j.TableBytes
	if size == 0 {
		size = int64(j.Pixels/16)*int64(j.Graphs-1)*6*int64(j.Graphs) + int64(pairs)*8
	}
	table := budget > 0 && size <= min(budget, tableCap)
	pixels := float64(j.Pixels)
	common := j.Common
	if common == 0 {
		common = 0.04 * pixels
	}
	words := pixels / 64
	c := costs{pixels: pixels, pairs: pairs, pair: pairNs*common + wordNs*words, table: table, choosesSVM: j.ChoosesSVM}
	nodes, degrees, descriptors := j.Nodes, j.DegreePairs, float64(j.Descriptors)
	if nodes == 0 {
		nodes, degrees = 18, 118
	}
	if descriptors == 0 {
		descriptors = 3
	}
	diagrams := diagramNs + nodeNs*nodes*descriptors + degreeNs*degrees
	stages := []progress.Stage{
		{Name: "diagrams", Cost: diagrams * n * float64(sets), Runs: sets},
		{Name: "images", Cost: imageNs * pixels * n * float64(sets), Runs: sets},
	}
	if table {
		// Built at the choice's start, when the choice runs.
		stages = append(stages, progress.Stage{Name: "pairs", Cost: tableNs * common * pairs})
	}
	// The choice's candidates' kernels (one from the table when it fits)
	// over a sample of about DefaultChoiceGraphs graphs at most: one of as
	// many stratified parts as that takes (chooseAll). Reading the
	// table's candidate costs about two computed ones.
	s := n / math.Ceil(n/DefaultChoiceGraphs)
	sample := s*(s-1)/2*(choiceNs+pairNs*common+wordNs*words) + candidateNs
	switch {
	case j.Auto && table:
		stages = append(stages, progress.Stage{Name: "choice", Cost: 3 * sample})
	case j.Auto && j.Scores:
		stages = append(stages, progress.Stage{Name: "choice", Cost: sample})
	case j.Auto:
		stages = append(stages, progress.Stage{Name: "choice", Cost: 2 * sample})
	}
	if j.Folds == 0 {
		return append(stages, c.final(n, "")...)
	}
	train := n * float64(j.Folds-1) / float64(j.Folds)
	// The final model, when the job trains it in the folds' passes: one
	// more fold of every graph.
	final := j.Final && !j.FinalApart
	stages = append(stages, c.folds(running-sets+1, final, train, n, "")...)
	for set := 2; set <= sets; set++ {
		stages = append(stages, c.folds(1, false, train, n, SetPrefix(set))...)
	}
	if j.Final && j.FinalApart {
		stages = append(stages, c.final(n, FinalPrefix)...)
	}
	return stages
}

// costs are what Work's stages after the features cost for one job.
type costs struct {
	pixels, pairs float64
	pair          float64 // a pair's kernel terms in a pass, besides its folds
	table         bool
	choosesSVM    bool
}

// pass is the cost of a pass over the pairs for k folds.
func (c costs) pass(k int) float64 { return c.pairs * (c.pair + pairFoldNs*float64(k)) }

// svm is the cost of one fold's SVMs on train graphs: their choice,
// when they make it, and the two it keeps.
func (c costs) svm(train float64) (choice, fit float64) {
	entries := train * train / 2 * (1 + train/svmGraphs)
	if c.choosesSVM {
		choice = svmCellsNs + svmChoiceNs*entries
		if c.table {
			choice = svmTableNs * entries
		}
	}
	return choice, svmFixedNs + svmNs*entries
}

// folds are the stages of k folds of one feature set, with the final
// model as one more fold of every graph when final is set, names after
// prefix.
func (c costs) folds(k int, final bool, train, n float64, prefix string) []progress.Stage {
	kf := float64(k)
	choice, fit := c.svm(train)
	learn := learnNs + c.pixels*learnPixNs
	var finalChoice, finalFit float64
	finalRuns := 0
	if final {
		finalChoice, finalFit = c.svm(n)
		finalRuns = 1
	}
	if c.table {
		// The final model after the folds, on the table (WKPI.Train).
		return []progress.Stage{{Name: prefix + "learn", Cost: kf * learn, Runs: k},
			{Name: prefix + "folds", Cost: kf*(choice+fit) + float64(finalRuns)*learn + finalChoice + finalFit, Total: k}}
	}
	// A pass for the unlearned kernels and the pair sums (a row of them
	// per graph and fold), the folds learn, choose and test their
	// unlearned SVMs ("baseline"), and a pass for the learned kernels.
	folds := float64(k + finalRuns)
	return []progress.Stage{{Name: prefix + "gram, pair sums", Cost: c.pass(k+finalRuns) + rowNs*c.pixels*n*(folds+1)},
		{Name: prefix + "learn", Cost: folds * learn, Runs: k + finalRuns},
		{Name: prefix + "baseline", Cost: kf*(choice+fit) + finalChoice, Total: k + finalRuns},
		{Name: prefix + "gram", Cost: c.pass(k + finalRuns)},
		{Name: prefix + "folds", Cost: kf*fit + finalFit, Total: k}}
}

// final are the stages of a final model's training on n graphs
// (WKPI.Train) after its features, their names after prefix: the pair
// sums, learning, one Gram matrix (from the pair table when there is
// one) and the SVM's choice on it ("baseline").
func (c costs) final(n float64, prefix string) []progress.Stage {
	choice, fit := c.svm(n)
	learn := progress.Stage{Name: prefix + "learn", Cost: learnNs + c.pixels*learnPixNs}
	baseline := progress.Stage{Name: prefix + "baseline", Cost: choice + fit, Total: 1}
	if c.table {
		return []progress.Stage{learn, baseline}
	}
	return []progress.Stage{{Name: prefix + "pair sums", Cost: c.pass(1)}, learn, {Name: prefix + "gram", Cost: c.pass(1)}, baseline}
}

// FinalPrefix begins the stage names of a final model trained after a
// cross-validation's folds (Run), which would otherwise be the folds'.
const FinalPrefix = "final "

// SetPrefix begins the stage names of the folds of feature set i (from
// 1) after the first (Run, with node labels: "labels 2: gram"), which
// would otherwise be the first set's.
func SetPrefix(i int) string { return fmt.Sprintf("labels %d: ", i) }

// CommonPixels is the mean number of pixels where two of the images are
// both non-zero, over all pairs: what a pair costs in a pass.
func CommonPixels(images []pimage.Sparse) float64 {
	if len(images) < 2 {
		return 0
	}
	count := make([]float64, images[0].Len)
	for _, im := range images {
		for _, s := range im.Idx {
			count[s]++
		}
	}
	var sum float64
	for _, c := range count {
		sum += c * (c - 1) / 2
	}
	n := float64(len(images))
	return sum / (n * (n - 1) / 2)
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
// choice of images or one candidate's part of it, or several of them, with
// the feature sets computed so far (none before). With node labels every
// fold fits its vocabulary, and the final model follows the folds. It is
// nil where Work does not know the protocol's stages (grid searches,
// repeats, the automatic choice with node labels): a bar then shows the
// stages' counters only.
func (u Setup) Work(graphs []*graph.Graph, running int, kind WorkKind, sets []*WKPI) []progress.Stage {
	s := u.Spec
	if s.Searches() || (s.Labels && s.Automatic()) || (kind&FoldsJob != 0 && s.Repeats > 1) || len(graphs) == 0 {
		return nil
	}
	f := u.Features
	descriptors := 1 + len(f.Extra)
	if s.Labels {
		descriptors++
	}
	var nodes, degrees float64
	for _, g := range graphs {
		nodes += float64(g.N)
		degrees += degreePairs(g)
	}
	n := float64(len(graphs))
	j := WorkJob{Graphs: len(graphs), Folds: s.Folds, Running: running, ChoosesSVM: s.ChoosesSVM(),
		Nodes: nodes / n, DegreePairs: degrees / n, Descriptors: descriptors,
		Pixels: f.Rows * f.Rows * len(f.Channels) * (1 + len(f.Extra)),
		Auto:   s.Automatic() && kind&(ChoiceJob|ScoresJob) != 0, Scores: kind&ScoresJob != 0,
		Final: kind&(FoldsJob|FinalJob) == FoldsJob|FinalJob, FinalApart: s.Labels, FeatureSets: len(sets)}
	if kind&FoldsJob == 0 {
		j.Folds, j.Running = 0, 0
	}
	if len(sets) > 0 {
		w := sets[0]
		j.Pixels, j.Common = w.Set.Images[0].Len, CommonPixels(w.Set.Images)
		j.TableBytes, j.MaxTableBytes = kernel.TableBytes(w.Set.Images), min(w.MaxTableBytes, -1)
		if w.MaxTableBytes > 0 {
			j.MaxTableBytes = w.MaxTableBytes
		}
	}
	return Work(j)
}

// degreePairs is the sum over g's edges of the product of their ends'
// degrees.
func degreePairs(g *graph.Graph) float64 {
	deg := filtration.Degree(g)
	var sum float64
	for _, e := range g.Edges {
		sum += deg[e.U] * deg[e.V]
	}
	return sum
}
