package eval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"wkpi-web/core/progress"
)

// event is one recorded progress report.
type event struct {
	at          time.Duration // since the start
	stage       string
	done, total int
}

// readRecording reads a recorded run of testdata/progress: "# job" and
// the WorkJob, then "ms stage done total" lines.
func readRecording(t *testing.T, path string) (WorkJob, []event) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var job WorkJob
	var events []event
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if j, ok := strings.CutPrefix(text, "# job "); ok {
			if err := json.Unmarshal([]byte(j), &job); err != nil {
				t.Fatalf("%s:%d: %v", path, line, err)
			}
			continue
		}
		if strings.HasPrefix(text, "#") {
			continue
		}
		fs := strings.Split(text, "\t")
		if len(fs) != 4 {
			t.Fatalf("%s:%d: %d fields, want 4", path, line, len(fs))
		}
		var n [3]int
		for i, s := range []string{fs[0], fs[2], fs[3]} {
			if n[i], err = strconv.Atoi(s); err != nil {
				t.Fatalf("%s:%d: %v", path, line, err)
			}
		}
		events = append(events, event{at: time.Duration(n[0]) * time.Millisecond, stage: fs[1], done: n[1], total: n[2]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return job, events
}

// replay runs events through a Tracker of stages and says where it
// fails: a Fraction that goes back, or from a fifth of the run's time on
// a time left unknown or off the true time left (to the last report) by
// more than half of it (or a second, the reports' spacing at the end).
// It also returns the largest relative error met where the truth is
// more than a second.
func replay(stages []progress.Stage, events []event) (string, float64) {
	var start time.Time
	end := events[len(events)-1].at.Seconds()
	tr := progress.NewTracker(stages, start)
	last, worst := 0.0, 0.0
	for _, e := range events {
		s := tr.Report(e.stage, e.done, e.total, start.Add(e.at))
		if s.Fraction < last {
			return fmt.Sprintf("at %v (%s %d/%d) the fraction went back from %.3f to %.3f", e.at, e.stage, e.done, e.total, last, s.Fraction), worst
		}
		last = s.Fraction
		if s.Elapsed < end/5 {
			continue
		}
		truth := end - s.Elapsed
		if s.Left < 0 || math.Abs(s.Left-truth) > max(truth/2, 1) {
			return fmt.Sprintf("at %v (%s %d/%d, %.0f %% done) %.1f s left, truly %.1f s", e.at, e.stage, e.done, e.total, 100*s.Fraction, s.Left, truth), worst
		}
		if truth > 1 {
			worst = max(worst, math.Abs(s.Left-truth)/truth)
		}
	}
	return "", worst
}

// TestWorkReplay replays runs of wkpi eval and wkpi train recorded with
// their progress reports (testdata/progress: structure only through the
// pair table or two passes over the pairs; the molecules preset with node
// labels, with and without a final model after the folds; 188 to 1,000
// graphs) through a Tracker of Work's stages: the bar never goes back,
// and from a fifth of the run on the time left is within ±50 % of the
// truth. Counting folds only fails the same check, as does weighing the
// stages by their counts.
func TestWorkReplay(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "progress", "*.tsv"))
	if err != nil || len(files) < 9 {
		t.Fatalf("recordings: %v, %v", files, err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".tsv")
		t.Run(name, func(t *testing.T) {
			job, events := readRecording(t, file)
			stages := Work(job)
			msg, worst := replay(stages, events)
			if msg != "" {
				t.Error(msg)
			}
			t.Logf("time left off by at most %.0f %% from a fifth of the run on", 100*worst)
			if events[len(events)-1].at < 10*time.Second {
				return // too short for the check to fail within its second
			}
			if msg, _ := replay([]progress.Stage{{Name: "folds", Cost: 1}}, events); msg == "" {
				t.Error("counting folds alone passes: the check cannot fail")
			}
			counts := make([]progress.Stage, len(stages))
			for i, s := range stages {
				counts[i] = s
				counts[i].Cost = float64(max(s.Runs, 1))
			}
			if msg, _ := replay(counts, events); msg == "" {
				t.Error("weighing stages by their counts passes: the check cannot fail")
			}
		})
	}
}

// TestWorkScores: off the pair table, a job that computes one
// candidate's kernels of the choice (Scores) plans half the choice of a
// job that computes both, and the same stages otherwise.
func TestWorkScores(t *testing.T) {
	both := WorkJob{Graphs: 1000, Folds: 10, Running: 5, Final: true, Auto: true, ChoosesSVM: true, Pixels: 28800, TableBytes: 1 << 40}
	one := both
	one.Scores = true
	a, b := Work(both), Work(one)
	if len(a) != len(b) {
		t.Fatalf("stages %v and %v", a, b)
	}
	for i := range a {
		want := a[i].Cost
		if a[i].Name == "choice" {
			want /= 2
		}
		if a[i].Name != b[i].Name || b[i].Cost != want {
			t.Errorf("stage %d: %+v, want %s costing %g", i, b[i], a[i].Name, want)
		}
	}
}
