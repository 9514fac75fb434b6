package wire

// Attribution says how a persistence point's share reaches the graph.
type Attribution string

const (
	// Nodes gives every share to vertices (an edge's part split between
	// its ends) and scores an edge as the sum of its ends' scores.
	Nodes Attribution = "nodes"
	// Simplices keeps edges' parts on the edges: nodes and edges
	// together sum to the explained change.
	Simplices Attribution = "simplices"
)

// Explanation is what decided one graph's prediction (core/explain).
// Scores are signed towards the predicted class: positive pushes to it.
type Explanation struct {
	Graph string `json:"graph,omitempty"`
	Class string `json:"class"`
	// Decision is the score of the predicted class: a two-class model's
	// decision value signed towards that class; with more classes the sum
	// of the decision values of the pairs with it, each signed towards it.
	Decision float64 `json:"decision"`
	// Reference is the same score for the empty diagram; the node scores
	// (and with Simplices the edge scores too) sum to Decision - Reference.
	Reference   float64     `json:"reference"`
	Attribution Attribution `json:"attribution"`
	Nodes       []NodeScore `json:"nodes"`
	Edges       []EdgeScore `json:"edges"`
	// Points are the persistence points with a part, largest |score| first.
	Points []PointScore `json:"points"`
	// Blocks are the pixels' parts, image block by image block.
	Blocks []BlockScore `json:"blocks"`
	// Against lists, with more than two classes, the pairs summed.
	Against []Pair `json:"against,omitempty"`
	// Groups are the functional groups of a molecule with their scores,
	// largest |score| first; none for graphs that are not molecules.
	Groups []GroupScore `json:"groups,omitempty"`
}

// NodeScore is a node's part; ID is its position in the input (the atom
// index, in SMILES or molfile order).
type NodeScore struct {
	ID    int     `json:"id"`
	Score float64 `json:"score"`
}

// EdgeScore is an edge's part.
type EdgeScore struct {
	U     int     `json:"u"`
	V     int     `json:"v"`
	Score float64 `json:"score"`
}

// PointScore is one persistence point's part and the simplices behind it.
type PointScore struct {
	Descriptor string   `json:"descriptor"`
	Diagram    string   `json:"diagram"` // ord0, rel1, ext0 or ext1
	Index      int      `json:"index"`   // position in that sub-diagram
	Birth      float64  `json:"birth"`   // in the descriptor's own values
	Death      float64  `json:"death"`
	Score      float64  `json:"score"`
	Vertices   []int    `json:"vertices,omitempty"`
	Edges      [][2]int `json:"edges,omitempty"`
	// VertexShares and EdgeShares are each listed vertex's (edge's) part
	// of what the point hands to vertices (edges) where values tie and
	// the parts differ; absent, the parts are equal.
	VertexShares []float64 `json:"vertexShares,omitempty"`
	EdgeShares   []float64 `json:"edgeShares,omitempty"`
}

// BlockScore is one image block's pixel parts, Rows·Cols values in
// pimage's row-major layout on the model's grid, row 0 at the lowest
// persistence.
type BlockScore struct {
	Descriptor string    `json:"descriptor"`
	Channel    string    `json:"channel"`
	Pixels     []float64 `json:"pixels"`
}

// Pair is one pair of a several-class model: the decision value between
// the predicted class and Class, signed towards the predicted class.
type Pair struct {
	Class     string  `json:"class"`
	Decision  float64 `json:"decision"`
	Reference float64 `json:"reference"`
}

// GroupScore is a functional group's part: the sum of the scores of its
// atoms (with Attribution Simplices, of its atoms and of the bonds
// between them).
type GroupScore struct {
	// Name is the group's kind: nitro, nitrate, carboxylic acid, ester, amide,
	// carbonyl, nitrile, hydroxyl, amine, sulfonyl, sulfonamide,
	// sulfonic acid, thiol, thioether, benzene ring, pyridine ring,
	// aromatic ring, fluorine, chlorine, bromine or iodine.
	Name string `json:"name"`
	// Atoms are the group's node ids, in increasing order.
	Atoms []int   `json:"atoms"`
	Score float64 `json:"score"`
	// Share is Score over the sum of the |scores| of all nodes (and, with
	// Simplices, all edges): the signed fraction of the explanation's
	// whole weight the group holds.
	Share float64 `json:"share"`
}
