// Package tu reads graph classification datasets in the TU Dortmund
// format (https://chrsmrrs.github.io/datasets/): a folder or zip archive
// of comma-separated text files sharing a dataset prefix DS.
//
//	DS_A.txt               required: one edge "u, v" per line, 1-based global node ids
//	DS_graph_indicator.txt required: line i holds the 1-based graph id of node i
//	DS_graph_labels.txt    required: line g holds the class label of graph g
//	DS_node_labels.txt     optional: one label per node
//	DS_edge_labels.txt     optional: one label per line of DS_A.txt
//	DS_node_attributes.txt optional: one real per node, kept as Graph.NodeValues
//	                       (ignored when it has several columns)
//
// Labels are kept as text. Separators ", " and "," are both accepted,
// fields are trimmed, CRLF line endings, blank lines anywhere (leading,
// between records, trailing) and surrounding whitespace are tolerated (the
// n-th record is the n-th non-blank line), and repeated edges (each edge
// is listed twice, or four times in IMDB-BINARY) collapse into one. Every graph id from 1 to the number of
// graphs must own at least one node; a graph's nodes need not be contiguous
// in the indicator file (local node order follows file order). Self-loops
// and edges joining two graphs are errors.
//
// Errors name the file, the line and the problem, e.g.
// "MUTAG_A.txt line 12: node id 4000 out of range 1..3371".
//
// The README.txt that TU datasets ship is skipped by the readers;
// NodeLabelNames and EdgeLabelNames (ReadLabelNames for a folder or zip)
// read its "Node labels:" and "Edge labels:" tables of codes and element
// or bond names, which the node-label mode stores in models to read
// MOL/SDF element symbols.
package tu
