// Package graphfile reads graphs and molecules from common file formats.
// Parse returns the graphs of a file and fails on the first that cannot
// be read; ReadFile returns every record with its name, its properties
// and its own error, so that a caller (core/dataset) can label records
// and skip bad ones. Every format yields simple undirected graphs:
// repeated edges collapse (the first label wins) and self-loops are
// errors.
//
// Formats is the registry of the formats: for each its name, extensions,
// media types, display name, unit, whether its records carry classes,
// its sniffer and its reader, from which ReadFile, core/dataset, the
// page (through wasm/protocol's generated copy) and the edge take what
// they need. The extension picks the format; see ReadFile for the
// content sniffing of .txt, .csv and other names, which refuses content
// that reads cleanly in no format, or in two (SMILES lines and an edge
// list), and names the formats tried. A file of SMILES is never read as an edge
// list between SMILES strings. Whatever the name, a file that is not
// text (an image, an archive, NUL or control bytes or mostly non-UTF-8
// in its first KB), and an SD file none of whose records has a counts
// line, is refused whole with a *NotFormatError saying what it is and
// what the format expected, rather than read as one bad record.
//
// Edge list (.edges .edgelist .el, .txt and .csv unless they hold
// SMILES): one edge "u v" or "u,v" per line, with an optional third
// column read as the edge label (then every edge needs one). A line with
// a single token declares a node, so isolated nodes can be listed. Node
// tokens are arbitrary strings numbered 0..n-1 in order of first
// appearance. Text from '#' or '%' to the end of a line is a comment.
//
// GraphML (.graphml .xml): every top-level <graph> element gives a graph;
// edge directions are ignored. Node labels come from the <data> of the
// node <key> whose attr.name (or id) is, in order of preference, label,
// type, element, atom_type, atom or symbol; edge labels from an edge key
// named label, type, bond_type, bond or order. A missing <data> takes the
// key's <default>, else "". A graph's own <data> (keys for "graph" or
// "all") are its record's Props; its id names it.
//
// MDL molfiles (.mol) and SD files (.sdf .sd), V2000 and V3000: atoms are
// nodes labelled by element symbol, bonds are edges labelled by the bond
// type number (1 single, 2 double, 3 triple, 4 aromatic); an SD file
// gives one record per "$$$$"-terminated record, named by its title line
// and carrying its data items ("> <NAME>") as Props. Hydrogens count only
// when written as atoms (RDKit's default reading removes them; the tests
// check that it keeps exactly the other atoms). Atom lists are "L".
// Graph.Atoms holds each atom's charge (the atom block's charge field, or
// the "M  CHG" lines when there are any; V3000 CHG=), isotope ("M  ISO",
// V3000 MASS=), and the hydrogens and aromaticity of RDKit's sanitised
// reading (smiles.Sanitize: implicit hydrogens from the valence model,
// aromaticity perceived); the tests check them atom by atom against
// RDKit on both SD samples. The atom block's mass difference and valence
// fields are not read.
// Molfile writes a molecule graph back as a V2000 molfile without
// coordinates (a drawing lays it out), for drawing graphs that came with
// no molecule text, such as a TU dataset's read through its code tables.
//
// SMILES (.smi .smiles): per line a SMILES, then optionally white space
// and a name, or a name and then a SMILES when most lines read so;
// '#' lines, blank lines and a "smiles" header are skipped.
// Tables (.tsv, and .csv whose header names a SMILES column, ReadTable):
// a header row, then a molecule per row; the SMILES column is the one
// named smiles (any case) unless Options.SMILESColumn names another. The
// graphs are those of package smiles.
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
// Errors name the file and the line, and for tables the data row:
// "mols.csv row 3 (line 4): SMILES "C1CC": character 2: ring bond 1 is
// never closed". Datasets in the TU format are read by package tu.
package graphfile
