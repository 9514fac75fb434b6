package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"wkpi-web/core/spec"
)

// runHelp is `wkpi help [TOPIC]`: a command's flags, a group of settings
// in full, the list of groups, or the presets.
func runHelp(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		usage(stdout)
		return nil
	}
	topic := strings.ToLower(args[0])
	for _, c := range commands(nil) {
		if c.name == topic && c.name != "help" && c.name != "version" {
			return c.run(ctx, []string{"-h"}, stdout, stdout)
		}
	}
	switch topic {
	case "settings":
		fmt.Fprintln(stdout, "Settings come in groups; `wkpi help GROUP` explains one:")
		for _, g := range spec.Groups() {
			if n := len(fieldsOf(g)); n > 0 {
				fmt.Fprintf(stdout, "  %-12s %d settings\n", g, n)
			}
		}
		fmt.Fprintln(stdout, "Presets (`wkpi help presets`) set many at once; flags given after them change single settings.")
		return nil
	case "presets":
		return printPresets(stdout)
	}
	g := spec.Group(topic)
	if !slices.Contains(spec.Groups(), g) || len(fieldsOf(g)) == 0 {
		return fmt.Errorf("no help on %q: try a command (eval, train, ...), settings, presets, or a group (descriptors, images, learning, svm, protocol, scale)", args[0])
	}
	fmt.Fprintf(stdout, "%s\n", g.Title())
	def := spec.Defaults()
	for _, f := range fieldsOf(g) {
		fmt.Fprintf(stdout, "\n  -%s  (%s)\n      %s\n", f.Name, f.Label, f.Help)
		if a := f.Allowed(); a != "" {
			fmt.Fprintf(stdout, "      allowed: %s\n", a)
		}
		fmt.Fprintf(stdout, "      default: %q\n", f.Get(&def))
	}
	return nil
}

func fieldsOf(g spec.Group) []spec.Field {
	var out []spec.Field
	for _, f := range spec.Fields() {
		if f.Group == g {
			out = append(out, f)
		}
	}
	return out
}

// printPresets lists each preset's differences from the defaults.
func printPresets(w io.Writer) error {
	fmt.Fprintln(w, "Without -preset a command starts from molecules for molecules (SMILES, SD files, TU datasets whose README names the atoms) and from default otherwise.")
	names := []string{spec.PresetDefault, spec.PresetMolecules, "paper", "size-aware"}
	for _, name := range names {
		fmt.Fprintf(w, "  -preset %-10s  %s\n", name, presetFlags(spec.Presets()[name]()))
	}
	fmt.Fprintln(w, "On TU datasets whose node labels are codes no README names, -preset molecules takes the codes as atom types, by frequency; on NCI1:")
	fmt.Fprintf(w, "  %s\n", presetFlags(spec.AtomTypes([]string{"3", "1", "2", "4", "5", "7"})))
	return nil
}

// presetFlags is what the flags of p change from the defaults.
func presetFlags(p spec.Spec) string {
	def := spec.Defaults()
	var diffs []string
	for _, f := range spec.Fields() {
		if v := f.Get(&p); v != f.Get(&def) {
			diffs = append(diffs, fmt.Sprintf("-%s %s", f.Name, v))
		}
	}
	if len(diffs) == 0 {
		return "(the defaults)"
	}
	return strings.Join(diffs, " ")
}

// runVersion is `wkpi version`: the module version and VCS revision the
// binary was built from, and the Go toolchain.
func runVersion(_ context.Context, _ []string, stdout, _ io.Writer) error {
	line := "wkpi (devel)"
	if info, ok := debug.ReadBuildInfo(); ok {
		line = "wkpi " + info.Main.Version
	}
	if rev := revision(); rev != "" {
		line += " " + rev
	}
	_, err := fmt.Fprintf(stdout, "%s %s %s/%s\n", line, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return err
}

// revision is the VCS revision the build recorded ("" when none), with
// "+modified" for a build from a changed work tree.
func revision() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var rev string
	var dirty bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if dirty && rev != "" {
		rev += "+modified"
	}
	return rev
}
