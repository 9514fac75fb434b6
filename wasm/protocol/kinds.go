package protocol

// JobKind is what the pool, the page and the worker know of a kind of
// job.
type JobKind struct {
	Kind Kind
	// Interactive jobs are those a user waits for with the page in front
	// of them: they overtake queued heavy jobs (a cross-validation, a
	// training) and may start a worker beyond the pool's size.
	Interactive bool
	// ReadsDataset says that the job works on the dataset Request.Dataset
	// names (the worker parses Request.Files or holds it); a job that
	// reads none carries its inputs (a model, graph files, parts).
	ReadsDataset bool
	// Classifier jobs need only what classifying with a model takes, so
	// the classifier program (wasm/classifier), a quarter smaller to
	// download than the full worker (wasm/worker), runs them too.
	Classifier bool
	// Words say what the page shows while the job runs: "cross-validating".
	Words string
}

// Kinds returns every kind of job, one row each.
func Kinds() []JobKind {
	return []JobKind{
		{Kind: Load, Interactive: true, ReadsDataset: true, Words: "reading the dataset"},
		{Kind: InspectData, Interactive: true, Classifier: true, Words: "reading the columns of a file"},
		{Kind: Draw, Interactive: true, ReadsDataset: true, Words: "drawing a graph"},
		{Kind: Explore, Interactive: true, ReadsDataset: true, Words: "computing persistence diagrams"},
		{Kind: ChoiceScores, ReadsDataset: true, Words: "choosing the images"},
		{Kind: CrossValidate, ReadsDataset: true, Words: "cross-validating"},
		{Kind: Train, ReadsDataset: true, Words: "training the final model"},
		{Kind: Inspect, Interactive: true, Classifier: true, Words: "checking a model"},
		{Kind: Predict, Interactive: true, Classifier: true, Words: "classifying graphs"},
		{Kind: Explain, Interactive: true, Classifier: true, Words: "explaining a prediction"},
		{Kind: Compare, ReadsDataset: true, Words: "comparing with baselines"},
		{Kind: MergeCV, Interactive: true, Words: "merging the folds"},
	}
}

// About returns the row of kind k; false for a kind that Kinds lacks.
func (k Kind) About() (JobKind, bool) {
	for _, j := range Kinds() {
		if j.Kind == k {
			return j, true
		}
	}
	return JobKind{}, false
}

// Interactive reports whether a user waits for jobs of kind k
// (JobKind.Interactive); an unknown kind is heavy.
func (k Kind) Interactive() bool {
	j, _ := k.About()
	return j.Interactive
}

// Classifier reports whether the classifier program runs jobs of kind k
// (JobKind.Classifier); false for an unknown kind.
func (k Kind) Classifier() bool {
	j, _ := k.About()
	return j.Classifier
}

// Words say what the page shows while a job of kind k runs
// (JobKind.Words); "computing" for an unknown kind.
func (k Kind) Words() string {
	if j, ok := k.About(); ok {
		return j.Words
	}
	return "computing"
}
