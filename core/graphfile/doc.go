// Package graphfile reads single graphs to classify from common file
// formats. Parse picks the format from the file extension and falls back
// to sniffing the content. Every format yields simple undirected graphs:
// repeated edges collapse (the first label wins) and self-loops are errors.
//
// Edge list (.txt .edges .edgelist .csv .el): one edge "u v" or "u,v" per
// line, with an optional third column read as the edge label (then every
// edge needs one). A line with a single token declares a node, so isolated
// nodes can be listed. Node tokens are arbitrary strings numbered 0..n-1 in
// order of first appearance. Text from '#' or '%' to the end of a line is
// a comment.
//
// GraphML (.graphml .xml): every top-level <graph> element gives a graph;
// edge directions are ignored. Node labels come from the <data> of the
// node <key> whose attr.name (or id) is, in order of preference, label,
// type, element, atom_type, atom or symbol; edge labels from an edge key
// named label, type, bond_type, bond or order. A missing <data> takes the
// key's <default>, else "".
//
// MDL molfile V2000 and SD files (.mol .sdf .sd): atoms are nodes labelled
// by element symbol, bonds are edges labelled by the bond type number
// (1 single, 2 double, 3 triple, 4 aromatic); an SD file gives one graph
// per "$$$$"-terminated record. Hydrogens count only when written as
// atoms. V3000 files are rejected with a "not supported" error.
//
// JSON (.json): one object or an array of objects, node indices 0-based:
//
//	{"nodes": 3, "edges": [[0, 1], [1, 2]]}
//	{"nodes": ["C", "O", "N"], "edges": [[0, 1], [1, 2]],
//	 "edge_labels": ["1", "2"], "node_values": [0.5, 1, 2]}
//
// "nodes" is a node count or an array of node labels (one per node);
// "edge_labels" (parallel to "edges") and "node_values" (one real per
// node, a given filtration function) are optional. Unknown fields are
// errors so that a misspelt field is not silently ignored.
//
// Datasets in the TU format are read by package tu, not here.
package graphfile
