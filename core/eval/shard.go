package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"wkpi-web/core/features"
)

// PartFormat names the layout of a Part; a reader refuses any other.
const PartFormat = "wkpi-part/1"

// Job is one independent unit of a (repeated) cross-validation: one
// outer fold of one repeat, with everything it needs inside it (the
// nested protocol's grid search runs on the fold's training set).
type Job struct {
	Repeat int `json:"repeat"`
	Fold   int `json:"fold"`
}

// Shard is share Index of Count (0 <= Index < Count) of a run's jobs.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// ParseShard reads "i/N".
func ParseShard(text string) (Shard, error) {
	a, b, ok := strings.Cut(text, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q: want i/N with 0 <= i < N", text)
	}
	return Shard{Index: i, Count: n}, nil
}

// Jobs lists the shard's jobs among repeats x folds: the jobs in order
// (repeat, fold) cut into Count contiguous blocks whose sizes differ by
// at most one, so that a shard shares its per-repeat work (folds, pair
// tables) between neighbouring folds. A shard may be empty when there
// are more shards than jobs.
func (s Shard) Jobs(repeats, folds int) []Job {
	total := repeats * folds
	var out []Job
	for j := s.Index * total / s.Count; j < (s.Index+1)*total/s.Count; j++ {
		out = append(out, Job{Repeat: j / folds, Fold: j % folds})
	}
	return out
}

// Folds returns the folds of repeat r among the shard's jobs (Plan.Only).
func (s Shard) Folds(r, repeats, folds int) []int {
	var out []int
	for _, j := range s.Jobs(repeats, folds) {
		if j.Repeat == r {
			out = append(out, j.Fold)
		}
	}
	return out
}

// RunID is what identifies a run, so that parts of different runs never
// merge: the program, the dataset (its name, a hash of its content, its
// labels), the feature settings and every evaluation setting.
type RunID struct {
	Program    string            `json:"program"`
	Dataset    string            `json:"dataset"`
	DataSHA256 string            `json:"data_sha256"`
	Classes    []string          `json:"classes"`
	Labels     []int             `json:"labels"`
	Features   features.Settings `json:"features"`
	// NodeLabels is node-label mode's setting; nil without node labels.
	// Features then lack the vocabulary, which each fold takes from its
	// training graphs.
	NodeLabels *NodeLabels `json:"node_labels,omitempty"`
	Protocol   string      `json:"protocol"` // fixed, auto, nested or cost
	Config     Config      `json:"config"`
	Grid       *Grid       `json:"grid,omitempty"`  // nested and cost
	Inner      int         `json:"inner,omitempty"` // nested
	Folds      int         `json:"folds"`
	Repeats    int         `json:"repeats"` // repeat r splits its folds with Seed + r
	Seed       int64       `json:"seed"`
}

// NodeLabels is node-label mode's setting of a run (spec.Spec's
// LabelGroups, LabelTime and LabelBonding).
type NodeLabels struct {
	Groups  int     `json:"groups"`
	Time    float64 `json:"time"`
	Bonding bool    `json:"bonding,omitempty"`
}

// Mode names the run's feature mode for summaries, as Setup.Mode does.
func (id RunID) Mode() string { return modeName(id.Features, id.NodeLabels) }

// RepeatReport is a part's report of the folds it ran in one repeat.
type RepeatReport struct {
	Repeat int    `json:"repeat"`
	Report Report `json:"report"`
}

// Part is what one shard writes: the run it belongs to, which share it
// is, its jobs and their folds' reports.
type Part struct {
	Format  string         `json:"format"`
	Run     RunID          `json:"run"`
	Shard   Shard          `json:"shard"`
	Jobs    []Job          `json:"jobs"`
	Reports []RepeatReport `json:"reports"`
}

// NewPart packs a shard's reports, one per repeat that has jobs in the
// shard, in order of repeat.
func NewPart(run RunID, s Shard, reports []Report) (Part, error) {
	p := Part{Format: PartFormat, Run: run, Shard: s, Jobs: s.Jobs(run.Repeats, run.Folds)}
	if p.Jobs == nil {
		p.Jobs = []Job{}
	}
	i := 0
	for r := range run.Repeats {
		if len(s.Folds(r, run.Repeats, run.Folds)) == 0 {
			continue
		}
		if i >= len(reports) {
			return Part{}, fmt.Errorf("eval: shard %v: %d reports for its %d jobs", s, len(reports), len(p.Jobs))
		}
		p.Reports = append(p.Reports, RepeatReport{Repeat: r, Report: reports[i]})
		i++
	}
	if i != len(reports) {
		return Part{}, fmt.Errorf("eval: shard %v: %d reports, its jobs span %d repeats", s, len(reports), i)
	}
	return p, p.check()
}

// check verifies that a part's jobs are its shard's and that its
// reports hold exactly those folds.
func (p Part) check() error {
	if p.Format != PartFormat {
		return fmt.Errorf("format %q, want %q", p.Format, PartFormat)
	}
	if p.Shard.Count < 1 || p.Shard.Index < 0 || p.Shard.Index >= p.Shard.Count {
		return fmt.Errorf("shard %v is not i/N with 0 <= i < N", p.Shard)
	}
	want := p.Shard.Jobs(p.Run.Repeats, p.Run.Folds)
	if !slices.Equal(p.Jobs, want) {
		return fmt.Errorf("shard %v lists jobs %v, but its share of %d repeats x %d folds is %v", p.Shard, p.Jobs, p.Run.Repeats, p.Run.Folds, want)
	}
	var got []Job
	for _, rr := range p.Reports {
		if rr.Report.Protocol != p.Run.Protocol {
			return fmt.Errorf("repeat %d is a %q report in a %q run", rr.Repeat, rr.Report.Protocol, p.Run.Protocol)
		}
		for _, f := range rr.Report.Folds {
			got = append(got, Job{Repeat: rr.Repeat, Fold: f.Index})
		}
	}
	if !slices.Equal(got, want) {
		return fmt.Errorf("shard %v: its reports hold folds %v, its jobs are %v", p.Shard, got, want)
	}
	return nil
}

// MergeParts checks that parts are every shard of one run, each once,
// and merges them into the run's reports, one per repeat, as the run in
// one process gives them (but for Seconds, the longest part's). names
// are the parts' file names, for errors: a foreign part (another
// dataset, setting, program version or shard count), a duplicated or a
// missing shard is an error naming the files; nothing merges silently.
func MergeParts(names []string, parts []Part) (RunID, []Report, error) {
	if len(parts) == 0 {
		return RunID{}, nil, errors.New("eval: no parts to merge")
	}
	if len(names) != len(parts) {
		return RunID{}, nil, fmt.Errorf("eval: %d names for %d parts", len(names), len(parts))
	}
	first := parts[0]
	byShard := make([]int, first.Shard.Count)
	for i := range byShard {
		byShard[i] = -1
	}
	for i, p := range parts {
		if err := p.check(); err != nil {
			return RunID{}, nil, fmt.Errorf("%s: %w", names[i], err)
		}
		if i > 0 {
			if diff, err := runDiff(first.Run, p.Run); err != nil {
				return RunID{}, nil, err
			} else if diff != "" {
				return RunID{}, nil, fmt.Errorf("%s: not a part of the run of %s: %s", names[i], names[0], diff)
			}
		}
		if p.Shard.Count != first.Shard.Count {
			return RunID{}, nil, fmt.Errorf("%s: shard %v, but %s is shard %v: parts of runs cut into different shard counts", names[i], p.Shard, names[0], first.Shard)
		}
		if j := byShard[p.Shard.Index]; j >= 0 {
			return RunID{}, nil, fmt.Errorf("%s: shard %v again (already in %s)", names[i], p.Shard, names[j])
		}
		byShard[p.Shard.Index] = i
	}
	var missing []string
	for s, i := range byShard {
		if i < 0 {
			missing = append(missing, Shard{s, first.Shard.Count}.String())
		}
	}
	if len(missing) > 0 {
		return RunID{}, nil, fmt.Errorf("eval: shard %s missing (have %s)", strings.Join(missing, ", "), strings.Join(names, ", "))
	}
	perRepeat := make([][]Report, first.Run.Repeats)
	for _, i := range byShard {
		for _, rr := range parts[i].Reports {
			perRepeat[rr.Repeat] = append(perRepeat[rr.Repeat], rr.Report)
		}
	}
	run := first.Run
	reports := make([]Report, run.Repeats)
	for r, reps := range perRepeat {
		var err error
		if reports[r], err = Merge(run.Labels, len(run.Classes), reps...); err != nil {
			return RunID{}, nil, fmt.Errorf("eval: repeat %d: %w", r, err)
		}
	}
	return run, reports, nil
}

// runDiff names the first field, in RunID's order (then a field only
// here has), where two runs differ, down to the innermost field
// ("config.C differs (10 here, 100 there)"); "" when they are equal.
func runDiff(there, here RunID) (string, error) {
	ea, err := json.Marshal(there)
	if err != nil {
		return "", err
	}
	eb, err := json.Marshal(here)
	if err != nil {
		return "", err
	}
	var a, b map[string]any
	if err := json.Unmarshal(ea, &a); err != nil {
		return "", err
	}
	if err := json.Unmarshal(eb, &b); err != nil {
		return "", err
	}
	dec := json.NewDecoder(bytes.NewReader(ea))
	dec.Token() // {
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return "", err
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return "", err
		}
		k, _ := key.(string)
		if d := valueDiff(k, a[k], b[k]); d != "" {
			return d, nil
		}
	}
	// Fields left out of there (empty, omitempty) but set here.
	for _, k := range slices.Sorted(maps.Keys(b)) {
		if _, ok := a[k]; !ok {
			return valueDiff(k, nil, b[k]), nil
		}
	}
	return "", nil
}

// valueDiff names the first place where two decoded JSON values differ.
func valueDiff(path string, there, here any) string {
	if reflect.DeepEqual(there, here) {
		return ""
	}
	switch t := there.(type) {
	case map[string]any:
		if h, ok := here.(map[string]any); ok {
			keys := map[string]bool{}
			for k := range t {
				keys[k] = true
			}
			for k := range h {
				keys[k] = true
			}
			for _, k := range slices.Sorted(maps.Keys(keys)) {
				if d := valueDiff(path+"."+k, t[k], h[k]); d != "" {
					return d
				}
			}
		}
	case []any:
		if h, ok := here.([]any); ok && len(h) == len(t) {
			for i := range t {
				if d := valueDiff(fmt.Sprintf("%s[%d]", path, i), t[i], h[i]); d != "" {
					return d
				}
			}
		}
	}
	show := func(v any) string {
		data, _ := json.Marshal(v)
		return fmt.Sprintf("%.60s", data)
	}
	return fmt.Sprintf("%s differs (%s here, %s there)", path, show(here), show(there))
}
