package jobs_test

import (
	"context"
	"fmt"

	"wkpi-web/wasm/jobs"
	"wkpi-web/wasm/protocol"
)

func Example() {
	// A triangle with a pendant node, and an edge, as the TU files a user
	// would upload.
	files := []protocol.File{
		{Name: "T_A.txt", Data: []byte("1, 2\n2, 3\n3, 1\n3, 4\n5, 6\n")},
		{Name: "T_graph_indicator.txt", Data: []byte("1\n1\n1\n1\n2\n2\n")},
		{Name: "T_graph_labels.txt", Data: []byte("1\n-1\n")},
	}
	var w jobs.Worker
	r := w.Run(context.Background(), protocol.Request{ID: 1, Kind: protocol.Load, Dataset: "t", Files: files}, nil, nil)
	fmt.Println(r.Event, r.Summary.Name, r.Summary.Graphs, "graphs,", r.Summary.Edges.Total, "edges")
	// Later jobs on the same dataset need no files.
	r = w.Run(context.Background(), protocol.Request{ID: 2, Kind: protocol.Explore, Dataset: "t", Graph: 0,
		Descriptor: protocol.Descriptor{Kind: "degree"}}, nil, nil)
	fmt.Println(r.Event, "cycle", r.Explored.Diagrams.Ext1)
	// Output:
	// done T 2 graphs, 5 edges
	// done cycle [{3 2}]
}
