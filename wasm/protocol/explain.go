package protocol

// Explanation mirrors core/explain.Explanation field for field (the same
// JSON as `wkpi explain -format json`), so that the page, which links no
// pipeline, can show and download it.
type Explanation struct {
	Graph       string       `json:"graph,omitempty"`
	Class       string       `json:"class"`
	Decision    float64      `json:"decision"`
	Reference   float64      `json:"reference"`
	Attribution string       `json:"attribution"`
	Nodes       []NodeScore  `json:"nodes"`
	Edges       []EdgeScore  `json:"edges"`
	Points      []PointScore `json:"points"`
	Blocks      []BlockScore `json:"blocks"`
	Against     []PairScore  `json:"against,omitempty"`
	Groups      []GroupScore `json:"groups,omitempty"`
}

// NodeScore mirrors explain.NodeScore.
type NodeScore struct {
	ID    int     `json:"id"`
	Score float64 `json:"score"`
}

// EdgeScore mirrors explain.EdgeScore.
type EdgeScore struct {
	U     int     `json:"u"`
	V     int     `json:"v"`
	Score float64 `json:"score"`
}

// PointScore mirrors explain.PointScore.
type PointScore struct {
	Descriptor string   `json:"descriptor"`
	Diagram    string   `json:"diagram"`
	Index      int      `json:"index"`
	Birth      float64  `json:"birth"`
	Death      float64  `json:"death"`
	Score      float64  `json:"score"`
	Vertices   []int    `json:"vertices,omitempty"`
	Edges      [][2]int `json:"edges,omitempty"`
}

// BlockScore mirrors explain.BlockScore: the pixels' parts of one image
// block, Rows·Cols values on the model's grid, row 0 at the lowest
// persistence.
type BlockScore struct {
	Descriptor string    `json:"descriptor"`
	Channel    string    `json:"channel"`
	Pixels     []float64 `json:"pixels"`
}

// PairScore mirrors explain.Pair.
type PairScore struct {
	Class     string  `json:"class"`
	Decision  float64 `json:"decision"`
	Reference float64 `json:"reference"`
}

// GroupScore mirrors explain.GroupScore: a functional group of a
// molecule (nitro, benzene ring, ...), its atoms in increasing order, its
// score (the sum of its atoms' scores) and that over the sum of all
// |scores|.
type GroupScore struct {
	Name  string  `json:"name"`
	Atoms []int   `json:"atoms"`
	Score float64 `json:"score"`
	Share float64 `json:"share"`
}

// Explained is an Explain job's result: the explanation of one input
// graph and what the page needs to draw it.
type Explained struct {
	Explanation Explanation `json:"explanation"`
	// Prediction is the graph's row of the predictions.
	Prediction Graph `json:"prediction"`
	// Molecule is the graph as its file gives it, a SMILES or a molfile,
	// for drawing it as chemists do (node i is atom i); "" for graphs
	// that are not molecules.
	Molecule string `json:"molecule,omitempty"`
	// Labels are the node labels (element symbols of molecules), if any.
	Labels []string `json:"labels,omitempty"`
	// Grid is the model's image grid, on which Blocks lie.
	Grid Grid `json:"grid"`
	// Millis is how long the explanation took in the worker.
	Millis float64 `json:"millis"`
}
