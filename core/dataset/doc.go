// Package dataset reads labelled graph datasets through one entry point,
// from a path (Read) or from the bytes of an upload (Parse):
//
//   - tables of molecules (MoleculeNet style, .csv or .tsv): a header,
//     a SMILES column (the one named smiles, any case, unless
//     Options.SMILES names another) and a target column (Options.Target,
//     else the first column that is neither the SMILES nor the name
//     column);
//   - SD files (.sdf .sd, V2000 or V3000) whose records carry the
//     class as a data item "> <ACTIVITY>" (Options.Target, else the item
//     named activity, class, label, target or y);
//   - GraphML collections (.graphml .xml): several <graph> elements, each
//     with its class in a graph-level <data key=...>;
//   - TU Dortmund folders and zips (core/tu) and folders and zips of SWC
//     neurons with a labels.csv (core/swc), which take no options; a zip
//     is SWC when it holds a labels.csv (at its top or in one folder) and
//     no TU edge file DS_A.txt.
//
// Graphs are built by core/graphfile (and so core/smiles), in the
// molfile convention: element symbols as node labels, bond types 1, 2,
// 3, 4 (aromatic) as edge labels. Each graph is named (graph.Dataset.Names)
// by its name column or property, an SD record's title line or a GraphML
// graph's id, else by its place ("row 3", "record 2", "graph 4").
//
// Classes come from the data: the target's values (numbers in numeric
// order, else text order), or with Options.Threshold the two classes
// "< X" and ">= X" of a numeric target. A target that is not a class is
// refused rather than read as one: real numbers or more than MaxClasses
// values without a threshold, a single class, one number written two
// ways. Report gives the median of a numeric target (a cut to suggest).
//
// Nothing is dropped silently. A record that cannot be read (a bad
// SMILES, with its character position; a broken molfile record; an
// empty or missing target; a non-number under a threshold) makes Parse
// fail with a *BadRecordsError that counts them and lists the first few,
// each naming the file, the row or record and its line, and the problem.
// With Options.SkipBad the other records are read and the bad ones are
// listed in Report.Skipped. Inspect lists the columns or properties of a
// file, with counts, examples and medians, for a page to offer.
package dataset
