// Command wkpi runs the WKPI pipeline natively: persistence diagrams and
// images of a graph dataset, cross-validated evaluation, training a model
// and classifying new graphs with it.
//
//	wkpi diagrams -data DIR|ZIP -filtration ricci [-out FILE]
//	wkpi images   -data DIR|ZIP -filtration ricci [-tau T] [-rows 40] [-out FILE]
//	wkpi eval     -data DIR|ZIP [-m 5 -sigma 1 -C 1 | -grid paper | -select cost] [-folds 10 -repeats 1 -seed 1]
//	wkpi train    -data DIR|ZIP ... -out model.json
//	wkpi predict  -model model.json FILE... | - | -smiles SMILES
//	wkpi eval     ... -shard i/N -out part-i.json; wkpi merge part-*.json
//	wkpi slurm    -shards N -dir DIR -- EVAL FLAGS   (docs/scale.md)
//
// Bad input ends the command with exit status 1 and one line on stderr
// naming the file, line and problem.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
)

type command struct {
	name, usage string
	run         func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands lists the commands; predict and explain read "-" from stdin.
func commands(stdin io.Reader) []command {
	return []command{
		{"diagrams", "persistence diagrams of every graph, as JSON Lines", runDiagrams},
		{"images", "persistence images of every graph on one grid, as JSON", runImages},
		{"eval", "cross-validated accuracy of WKPI-SVM, learned and unlearned", runEval},
		{"train", "learn the weight function and the SVM on a whole dataset, save the model", runTrain},
		{"predict", "classify graphs (any input format, standard input, SMILES strings) with a saved model", func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
			return runPredict(ctx, args, stdin, stdout, stderr)
		}},
		{"explain", "which nodes and edges decided each prediction, exactly", func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
			return runExplain(ctx, args, stdin, stdout, stderr)
		}},
		{"merge", "merge the part files of a sharded eval (-shard i/N) into its report", runMerge},
		{"slurm", "run a sharded eval on Slurm: an array job of shards and a dependent merge job", runSlurm},
		{"compare", "every baseline of the paper and WKPI on the same folds, with paired tests", runCompare},
		{"help", "help on a command, a group of settings (wkpi help settings) or the presets", runHelp},
		{"version", "the version of this binary", runVersion},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		usage(stderr)
		return 2
	}
	for _, c := range commands(stdin) {
		if c.name == args[0] {
			err := c.run(ctx, args[1:], stdout, stderr)
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			if err != nil {
				fmt.Fprintf(stderr, "wkpi %s: %v\n", c.name, err)
				return 1
			}
			return 0
		}
	}
	fmt.Fprintf(stderr, "wkpi: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: wkpi COMMAND [flags]   (wkpi COMMAND -h, or wkpi help COMMAND, for its flags)")
	for _, c := range commands(nil) {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.usage)
	}
	fmt.Fprintln(w, "\nExamples:\n  wkpi eval -data data/MUTAG\n  wkpi train -data data/MUTAG -out model.json\n  wkpi predict -model model.json molecule.sdf\n  wkpi predict -model model.json -smiles 'CCO'\n  wkpi help settings")
}
