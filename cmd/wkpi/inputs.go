package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"wkpi-web/core/dataset"
	"wkpi-web/core/graph"
	"wkpi-web/core/graphfile"
	"wkpi-web/core/smiles"
	"wkpi-web/core/swc"
)

// stdinArg is the argument that names standard input, as chemistry tools
// take it.
const stdinArg = "-"

// graphInputs are the graphs that predict and explain classify: SMILES
// strings given with -smiles, then the arguments, each a file, a folder
// or "-" for standard input.
type graphInputs struct {
	smiles    smilesList
	smilesCol string // the SMILES column of tables (-smiles-column)
	skipBad   bool   // -skip-bad: leave out records that cannot be read
	// cmd and notes: the command and where -skip-bad says what it left out.
	cmd   string
	notes io.Writer
}

// register adds -smiles, -smiles-column and -skip-bad to fs, for the
// command cmd, which writes its notes to notes.
func (in *graphInputs) register(fs *flag.FlagSet, cmd string, notes io.Writer) {
	in.cmd, in.notes = cmd, notes
	fs.Var(&in.smiles, "smiles", "a `SMILES` string to classify, one molecule named by its string; repeat it for more (-smiles CCO -smiles c1ccccc1)")
	fs.StringVar(&in.smilesCol, "smiles-column", "", "the SMILES column of CSV/TSV files (default: the column named smiles)")
	fs.BoolVar(&in.skipBad, "skip-bad", false, "leave out the records of a file that cannot be read (a bad SMILES, chemistry RDKit refuses) and count them on stderr, instead of failing")
}

// smilesList is the repeatable -smiles flag.
type smilesList []string

func (l *smilesList) String() string {
	if l == nil {
		return ""
	}
	return strings.Join(*l, " ")
}

func (l *smilesList) Set(s string) error {
	*l = append(*l, strings.TrimSpace(s))
	return nil
}

// graphSource is one input: its name in the output and in messages
// ("smiles" for the -smiles strings, "stdin", or the path), and how to
// read its graphs.
type graphSource struct {
	name string
	read func() (sourceGraphs, error)
}

// sourceGraphs are one input's graphs, each with its name ("" when the
// format has none), its place in the input for messages ("row 3 (line
// 4)", "graph 5"; "" for a file of one graph) and its position among the
// input's records (the output's graph column; -skip-bad leaves gaps).
type sourceGraphs struct {
	graphs        []*graph.Graph
	names, places []string
	positions     []int
	// placed: the places name the graphs without the input's name
	// (-smiles 2 "CCO").
	placed bool
}

// position is graph i's position among its input's records.
func (s sourceGraphs) position(i int) int {
	if s.positions == nil {
		return i
	}
	return s.positions[i]
}

// at names graph i of src for a message.
func (s sourceGraphs) at(src string, i int) string {
	switch {
	case s.placed:
		return s.places[i]
	case s.places[i] == "":
		return src
	}
	return src + " " + s.places[i]
}

// sources lists the inputs: the -smiles strings as one source, then each
// argument. It fails when there is none, or when "-" is given twice
// (standard input reads once).
func (in *graphInputs) sources(args []string, stdin io.Reader) ([]graphSource, error) {
	var out []graphSource
	if len(in.smiles) > 0 {
		out = append(out, graphSource{name: "smiles", read: func() (sourceGraphs, error) {
			return in.parseSMILES(len(args) > 0)
		}})
	}
	seenStdin := false
	for _, name := range args {
		if name != stdinArg {
			out = append(out, graphSource{name: name, read: func() (sourceGraphs, error) { return in.readGraphs(name) }})
			continue
		}
		if seenStdin {
			return nil, errors.New(`"-" (standard input) is given twice`)
		}
		seenStdin = true
		out = append(out, graphSource{name: "stdin", read: func() (sourceGraphs, error) {
			data, err := io.ReadAll(stdin)
			if err != nil {
				return sourceGraphs{}, fmt.Errorf("stdin: %w", err)
			}
			return in.readGraphData("stdin", data)
		}})
	}
	if len(out) == 0 {
		return nil, errors.New("nothing to classify: give files, - for standard input, or -smiles")
	}
	return out, nil
}

// parseSMILES reads the -smiles strings, each one molecule named by its
// string. An error names the string and its place among them (-smiles
// 2); with files given too, it recalls -smiles-column, which names a
// table's column.
func (in *graphInputs) parseSMILES(withFiles bool) (sourceGraphs, error) {
	out := sourceGraphs{graphs: make([]*graph.Graph, len(in.smiles)), names: in.smiles, places: make([]string, len(in.smiles)), placed: true}
	for i, s := range in.smiles {
		g, err := smiles.ParseMolecule(s)
		if err != nil {
			msg := fmt.Sprintf("-smiles %d %s: %v", i+1, strconv.Quote(s), err)
			if withFiles {
				msg += " (-smiles-column names the SMILES column of a table)"
			}
			return sourceGraphs{}, errors.New(msg)
		}
		out.graphs[i], out.places[i] = g, fmt.Sprintf("-smiles %d %s", i+1, strconv.Quote(s))
	}
	return out, nil
}

// readGraphs reads any input format: a TU dataset or a folder of SWC
// neurons (folder or zip, as -data takes them), an SWC neuron, or a file
// of graphs or molecules (readGraphData), with the name of each graph
// ("" when the format has none). -smiles-column names the SMILES column
// of tables. A name that is no file but reads as a SMILES gets a hint.
func (in *graphInputs) readGraphs(name string) (sourceGraphs, error) {
	info, err := os.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		if _, serr := smiles.Parse(name); serr == nil {
			return sourceGraphs{}, fmt.Errorf("%s: no such file; to classify a SMILES string use -smiles '%s'", name, name)
		}
	}
	if err != nil {
		return sourceGraphs{}, err
	}
	if info.IsDir() || strings.EqualFold(filepath.Ext(name), ".zip") {
		ds, _, err := dataset.Read(name, dataset.Options{})
		if err != nil {
			return sourceGraphs{}, err
		}
		out := sourceGraphs{graphs: ds.Graphs, names: make([]string, len(ds.Graphs)), places: make([]string, len(ds.Graphs))}
		for i := range out.places {
			out.places[i] = fmt.Sprintf("graph %d", i)
		}
		return out, nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return sourceGraphs{}, err
	}
	base := filepath.Base(name)
	if strings.EqualFold(filepath.Ext(name), ".swc") {
		g, err := swc.Parse(base, data)
		if err != nil {
			return sourceGraphs{}, err
		}
		return sourceGraphs{graphs: []*graph.Graph{g}, names: []string{""}, places: []string{""}}, nil
	}
	return in.readGraphData(base, data)
}

// readGraphData reads the graphs of one file's content with
// graphfile.ReadFile (SMILES lines, SMILES tables, SD, GraphML, JSON,
// edge lists; the extension of name, else the content, tells which),
// failing on the first record that cannot be read, or, with -skip-bad,
// leaving such records out and counting them on the notes.
func (in *graphInputs) readGraphData(name string, data []byte) (sourceGraphs, error) {
	f, err := graphfile.ReadFile(name, data, graphfile.Options{SMILESColumn: in.smilesCol})
	if err != nil {
		return sourceGraphs{}, err
	}
	var out sourceGraphs
	var bad []graphfile.Record
	for i, r := range f.Records {
		if r.Err != nil {
			bad = append(bad, r)
			continue
		}
		out.graphs, out.names, out.places = append(out.graphs, r.Graph), append(out.names, r.Name), append(out.places, r.Where)
		out.positions = append(out.positions, i)
	}
	switch {
	case len(bad) == 0:
	case !in.skipBad || len(bad) == len(f.Records):
		err := f.FirstError()
		// No hint where the content chose the format (FirstError then
		// names the formats tried): the file may be no molecules at all.
		if len(bad) < len(f.Records) && err.Error() == bad[0].Err.Error() {
			err = fmt.Errorf("%w (%d of %d %s cannot be read; -skip-bad reads the other %d)", err, len(bad), len(f.Records), f.Format.Unit(), len(f.Records)-len(bad))
		}
		return sourceGraphs{}, err
	default:
		fmt.Fprintf(in.notes, "wkpi %s: -skip-bad: left out %d of %d %s of %s (the first: %v)\n",
			in.cmd, len(bad), len(f.Records), f.Format.Unit(), name, bad[0].Err)
	}
	return out, nil
}
