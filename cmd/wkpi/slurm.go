package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// slurmFlags configure `wkpi slurm`: where the scripts, logs and parts
// go, how many shards, and the resources each job asks for.
type slurmFlags struct {
	dir, wkpi, sbatch       string
	partition, mem, timeout string
	name                    string
	shards, cpus, mergeCPUs int
	submit                  bool
}

func (s *slurmFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.dir, "dir", "", "folder for the job scripts, logs, parts and the merged report (required)")
	fs.IntVar(&s.shards, "shards", 4, "number of shards: the array job's tasks")
	fs.StringVar(&s.wkpi, "wkpi", "", "path of the wkpi binary the jobs run (default: this one)")
	fs.StringVar(&s.sbatch, "sbatch", "sbatch", "sbatch command")
	fs.StringVar(&s.partition, "partition", "", "Slurm partition (default: the cluster's default)")
	fs.IntVar(&s.cpus, "cpus", 1, "CPUs per shard (--cpus-per-task; the shard uses them all)")
	fs.IntVar(&s.mergeCPUs, "merge-cpus", 1, "CPUs of the merge job")
	fs.StringVar(&s.mem, "mem", "", "memory per shard, as sbatch --mem takes it (e.g. 2G)")
	fs.StringVar(&s.timeout, "time", "", "time limit per shard, as sbatch --time takes it (e.g. 2:00:00)")
	fs.StringVar(&s.name, "name", "wkpi", "job name prefix")
	fs.BoolVar(&s.submit, "submit", true, "submit the jobs (false: only write the scripts and print the sbatch commands)")
}

// runSlurm writes an array job of `wkpi eval -shard i/N` and a merge job,
// and submits them with the merge depending on every shard (afterok).
//
//	wkpi slurm -shards 4 -dir runs/mutag -- -data data/MUTAG -grid paper
func runSlurm(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("slurm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var s slurmFlags
	s.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	evalArgs := fs.Args()
	if s.dir == "" || len(evalArgs) == 0 {
		return errors.New("usage: wkpi slurm -dir DIR [-shards 4 -cpus 1 -mem 2G -time 1:00:00] -- EVAL FLAGS (as for wkpi eval, without -shard and -out)")
	}
	if s.shards < 1 {
		return fmt.Errorf("-shards %d: want at least 1", s.shards)
	}
	for _, a := range evalArgs {
		name := strings.TrimLeft(strings.SplitN(a, "=", 2)[0], "-")
		if strings.HasPrefix(a, "-") && (name == "shard" || name == "out" || name == "progress") {
			return fmt.Errorf("eval flag %s: wkpi slurm sets it for each shard", a)
		}
	}
	if err := checkEvalArgs(ctx, evalArgs); err != nil {
		return err
	}
	var err error
	if s.wkpi == "" {
		if s.wkpi, err = os.Executable(); err != nil {
			return err
		}
	}
	if s.wkpi, err = filepath.Abs(s.wkpi); err != nil {
		return err
	}
	if s.dir, err = filepath.Abs(s.dir); err != nil {
		return err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return err
	}
	shardsScript, mergeScript := filepath.Join(s.dir, "shards.sbatch"), filepath.Join(s.dir, "merge.sbatch")
	if err := os.WriteFile(shardsScript, []byte(s.shardsScript(cwd, evalArgs)), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(mergeScript, []byte(s.mergeScript(cwd)), 0o755); err != nil {
		return err
	}
	if !s.submit {
		fmt.Fprintf(stdout, "wrote %s and %s; submit with:\n  jid=$(%s --parsable %s)\n  %s --dependency=afterok:${jid%%%%;*} --kill-on-invalid-dep=yes %s\n",
			shardsScript, mergeScript, s.sbatch, shardsScript, s.sbatch, mergeScript)
		return nil
	}
	shardsJob, err := sbatch(ctx, s.sbatch, shardsScript)
	if err != nil {
		return err
	}
	mergeJob, err := sbatch(ctx, s.sbatch, "--dependency=afterok:"+shardsJob, "--kill-on-invalid-dep=yes", mergeScript)
	if err != nil {
		return fmt.Errorf("%w (the shards, job %s, are submitted: scancel %s)", err, shardsJob, shardsJob)
	}
	fmt.Fprintf(stdout, "shards: job %s (array 0-%d), merge: job %s after it; report: %s\n",
		shardsJob, s.shards-1, mergeJob, filepath.Join(s.dir, "report.txt"))
	return nil
}

// checkEvalArgs parses the eval flags, as eval registers them, and reads
// the dataset once before anything is submitted, so that a typo fails
// here and not in N jobs.
func checkEvalArgs(ctx context.Context, args []string) error {
	c, own := evalFlags(io.Discard)
	if _, _, err := parseDataset(c, args); err != nil {
		return fmt.Errorf("eval flags: %w", err)
	}
	if own.predictions != "" {
		return fmt.Errorf("eval flags: -predictions does not combine with the shards: run wkpi merge -predictions FILE.csv on their parts")
	}
	return ctx.Err()
}

// header is a job script's start: every #SBATCH line (sbatch reads them
// only before the first command), then the environment.
func (s slurmFlags) header(name, log, cwd string, cpus int, extra ...string) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n# Written by `wkpi slurm`.\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n#SBATCH --output=%s\n#SBATCH --chdir=%s\n#SBATCH --cpus-per-task=%d\n#SBATCH --ntasks=1\n", name, log, cwd, cpus)
	if s.partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", s.partition)
	}
	if s.mem != "" {
		fmt.Fprintf(&b, "#SBATCH --mem=%s\n", s.mem)
	}
	if s.timeout != "" {
		fmt.Fprintf(&b, "#SBATCH --time=%s\n", s.timeout)
	}
	for _, e := range extra {
		fmt.Fprintf(&b, "#SBATCH %s\n", e)
	}
	b.WriteString("set -e\nexport GOMAXPROCS=\"${SLURM_CPUS_PER_TASK:-1}\"\n")
	return b.String()
}

func (s slurmFlags) shardsScript(cwd string, evalArgs []string) string {
	var b strings.Builder
	b.WriteString(s.header(s.name+"-shards", filepath.Join(s.dir, "shard-%a.log"), cwd, s.cpus, fmt.Sprintf("--array=0-%d", s.shards-1)))
	fmt.Fprintf(&b, "i=\"$SLURM_ARRAY_TASK_ID\"\nexec %s eval -progress off", shellQuote(s.wkpi))
	for _, a := range evalArgs {
		b.WriteString(" " + shellQuote(a))
	}
	fmt.Fprintf(&b, " -shard \"$i/%d\" -out %s\"$i\".json\n", s.shards, shellQuote(filepath.Join(s.dir, "part-")))
	return b.String()
}

func (s slurmFlags) mergeScript(cwd string) string {
	var b strings.Builder
	b.WriteString(s.header(s.name+"-merge", filepath.Join(s.dir, "merge.log"), cwd, s.mergeCPUs))
	// Every part by name, so that a missing one is an error naming it.
	fmt.Fprintf(&b, "exec %s merge -out %s", shellQuote(s.wkpi), shellQuote(filepath.Join(s.dir, "report.json")))
	for i := range s.shards {
		b.WriteString(" " + shellQuote(filepath.Join(s.dir, fmt.Sprintf("part-%d.json", i))))
	}
	fmt.Fprintf(&b, " > %s\n", shellQuote(filepath.Join(s.dir, "report.txt")))
	return b.String()
}

// sbatch submits a script and returns its job id (sbatch --parsable
// prints "id" or "id;cluster").
func sbatch(ctx context.Context, command string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, command, append([]string{"--parsable"}, args...)...)
	var errOut strings.Builder
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v: %s", command, strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	if id == "" {
		return "", fmt.Errorf("%s %s printed no job id", command, strings.Join(args, " "))
	}
	return id, nil
}

// shellQuote quotes s for sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
