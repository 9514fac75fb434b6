package wire

// DatasetOptions choose what a molecule table's, an SD file's or a
// GraphML collection's records become (core/dataset.Options).
type DatasetOptions struct {
	// SMILES names a table's SMILES column; "" takes the column named
	// "smiles" (any case).
	SMILES string `json:"smiles,omitempty"`
	// Target names the class: a table's column, an SD data item or a
	// GraphML graph key (attr.name or id). "" takes a table's first
	// column other than the SMILES and the name column, and the SD
	// property or GraphML key named activity, class, label, target or y
	// (any case), else the only one that is not name-like.
	Target string `json:"target,omitempty"`
	// Threshold, when set, cuts a numeric target into the classes
	// "<target> < X" and "<target> >= X" (dataset.CutClasses).
	Threshold *float64 `json:"threshold,omitempty"`
	// SkipBad drops the records that cannot be read (a bad SMILES or
	// molfile record, an empty or missing target, a target that is not a
	// number under a threshold) and lists them; without it they are an
	// error.
	SkipBad bool `json:"skipBad,omitempty"`
}

// Column describes the values of one column, SD property or GraphML key
// of a file (core/dataset.Inspect).
type Column struct {
	Name     string `json:"name"`
	Values   int    `json:"values"`   // records with a non-empty value
	Distinct int    `json:"distinct"` // different values
	// Numeric is true when every non-empty value is a number; Median is
	// then their median, else 0.
	Numeric  bool     `json:"numeric"`
	Median   float64  `json:"median"`
	Examples []string `json:"examples"` // the first (at most 3) different values
}

// Skipped is one record of a file that could not be read.
type Skipped struct {
	Index   int    `json:"index"`   // 1-based: data row, record or graph number
	Where   string `json:"where"`   // "row 3 (line 4)", "record 2 (line 40)", "graph 4 (line 61)"
	Name    string `json:"name"`    // the record's name, or its position
	Problem string `json:"problem"` // the error, naming the place and the problem
}
