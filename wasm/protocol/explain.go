package protocol

import "wkpi-web/core/wire"

// The explanation of a prediction is core/explain's, whose types are
// plain data of core/wire (the same JSON as `wkpi explain -format json`),
// so that the page, which links no pipeline, can show and download it.
type (
	// Explanation is what decided one graph's prediction.
	Explanation = wire.Explanation
	// NodeScore is a node's part.
	NodeScore = wire.NodeScore
	// EdgeScore is an edge's part.
	EdgeScore = wire.EdgeScore
	// PointScore is one persistence point's part.
	PointScore = wire.PointScore
	// BlockScore is the pixels' parts of one image block, Rows·Cols
	// values on the model's grid, row 0 at the lowest persistence.
	BlockScore = wire.BlockScore
	// PairScore is one pair of a several-class model.
	PairScore = wire.Pair
	// GroupScore is a functional group of a molecule (nitro, benzene
	// ring, ...), its atoms in increasing order, its score (the sum of
	// its atoms' scores) and that over the sum of all |scores|.
	GroupScore = wire.GroupScore
)

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
