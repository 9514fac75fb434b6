package main

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"wkpi-web/core/eval"
	"wkpi-web/core/testenv"
)

// slurm is a single-node Slurm cluster started by a test: munged,
// slurmctld and slurmd on localhost with a configuration in a temporary
// folder, stopped (by their pid files) when the test ends.
type slurm struct {
	dir  string
	env  []string
	bins map[string]string
}

// slurmUnavailable skips the test with the reason, or fails it under
// CI=true, where .ci/run must have installed slurm-wlm and munge.
func slurmUnavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := "cannot start a single-node Slurm: " + fmt.Sprintf(format, args...) +
		" (Debian: apt-get install slurm-wlm munge; the test runs the daemons as root)"
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip("SKIPPED SLURM TEST: " + msg)
}

// startSlurm starts the cluster, or skips the test saying why it cannot.
func startSlurm(t *testing.T) *slurm {
	t.Helper()
	if os.Geteuid() != 0 {
		slurmUnavailable(t, "not root (the test runs slurmd with SlurmUser=root)")
	}
	s := &slurm{dir: t.TempDir(), bins: map[string]string{}}
	for _, name := range []string{"munged", "slurmctld", "slurmd", "sbatch", "scontrol", "sinfo"} {
		path, err := exec.LookPath(name)
		if err != nil {
			for _, dir := range []string{"/usr/sbin", "/usr/bin"} {
				if _, err2 := os.Stat(filepath.Join(dir, name)); err2 == nil {
					path, err = filepath.Join(dir, name), nil
				}
			}
		}
		if err != nil {
			slurmUnavailable(t, "%s not found", name)
		}
		s.bins[name] = path
	}
	host, err := os.Hostname()
	if err != nil {
		slurmUnavailable(t, "no host name: %v", err)
	}
	host, _, _ = strings.Cut(host, ".")
	key := make([]byte, 1024)
	rand.Read(key)
	path := func(name string) string { return filepath.Join(s.dir, name) }
	if err := os.WriteFile(path("munge.key"), key, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"state", "spool"} {
		if err := os.Mkdir(path(d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	conf := fmt.Sprintf(`ClusterName=wkpitest
SlurmctldHost=%[1]s(127.0.0.1)
AuthType=auth/munge
AuthInfo=socket=%[2]s
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmUser=root
SlurmdUser=root
SlurmctldPort=%[3]d
SlurmdPort=%[4]d
StateSaveLocation=%[5]s
SlurmdSpoolDir=%[6]s
SlurmctldPidFile=%[7]s
SlurmdPidFile=%[8]s
SlurmctldLogFile=%[9]s
SlurmdLogFile=%[10]s
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
NodeName=%[1]s NodeAddr=127.0.0.1 CPUs=%[11]d State=UNKNOWN
PartitionName=test Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`, host, path("munge.sock"), freePort(t), freePort(t), path("state"), path("spool"),
		path("slurmctld.pid"), path("slurmd.pid"), path("slurmctld.log"), path("slurmd.log"), runtime.NumCPU())
	if err := os.WriteFile(path("slurm.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	s.env = append(os.Environ(), "SLURM_CONF="+path("slurm.conf"))
	// Stopped in reverse order of start; registered before each start so
	// that a daemon that started is stopped even if a later one fails.
	for _, d := range []struct {
		name string
		args []string
	}{
		{"munged", []string{"--force", "--socket=" + path("munge.sock"), "--key-file=" + path("munge.key"),
			"--log-file=" + path("munged.log"), "--pid-file=" + path("munged.pid"), "--seed-file=" + path("munged.seed")}},
		{"slurmctld", []string{"-f", path("slurm.conf")}},
		{"slurmd", []string{"-f", path("slurm.conf")}},
	} {
		t.Cleanup(func() { stopByPidFile(t, path(d.name+".pid")) })
		cmd := exec.Command(s.bins[d.name], d.args...)
		cmd.Env = s.env
		if out, err := cmd.CombinedOutput(); err != nil {
			slurmUnavailable(t, "%s: %v: %s%s", d.name, err, out, s.logs())
		}
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		out, _ := s.command("sinfo", "-h", "-o", "%t").Output()
		if strings.TrimSpace(string(out)) == "idle" {
			return s
		}
		if time.Now().After(deadline) {
			slurmUnavailable(t, "the node is not idle after 60 s (sinfo: %q)%s", out, s.logs())
		}
		time.Sleep(500 * time.Millisecond)
	}
}

func (s *slurm) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(s.bins[name], args...)
	cmd.Env = s.env
	return cmd
}

// logs is the end of the daemons' logs, for failure messages.
func (s *slurm) logs() string {
	var b strings.Builder
	for _, name := range []string{"munged.log", "slurmctld.log", "slurmd.log"} {
		data, _ := os.ReadFile(filepath.Join(s.dir, name))
		if len(data) > 1500 {
			data = data[len(data)-1500:]
		}
		fmt.Fprintf(&b, "\n--- %s:\n%s", name, data)
	}
	return b.String()
}

// wait polls a job until it ends and returns its final state.
func (s *slurm) wait(t *testing.T, job string, limit time.Duration) string {
	t.Helper()
	state := regexp.MustCompile(`JobState=(\S+)`)
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		out, err := s.command("scontrol", "show", "job", "-o", job).Output()
		if err != nil {
			t.Fatalf("scontrol show job %s: %v%s", job, err, s.logs())
		}
		m := state.FindSubmatch(out)
		if m == nil {
			t.Fatalf("scontrol show job %s: no JobState in %q", job, out)
		}
		switch st := string(m[1]); st {
		case "PENDING", "CONFIGURING", "RUNNING", "COMPLETING":
			time.Sleep(time.Second)
		default:
			return st
		}
	}
	t.Fatalf("job %s still running after %v%s", job, limit, s.logs())
	return ""
}

func stopByPidFile(t *testing.T, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return // never started
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 1 {
		t.Errorf("pid file %s: %q", path, data)
		return
	}
	syscall.Kill(pid, syscall.SIGTERM)
	for range 100 {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	syscall.Kill(pid, syscall.SIGKILL)
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// buildWkpi builds this command into dir: the binary the jobs run.
func buildWkpi(t *testing.T, dir string) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go not on PATH: %v", err)
	}
	bin := filepath.Join(dir, "wkpi")
	cmd := exec.Command(gobin, "build", "-buildvcs=false", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestSlurmShardsEqualOneProcess runs CVs on MUTAG as 4 shards of a Slurm
// array job and a merge job depending on it, on a real single-node Slurm,
// and checks that each merged report equals the same CV run in one
// process, in every number: a nested CV, and a fixed one with node labels,
// whose every fold takes its label vocabulary from its training graphs.
func TestSlurmShardsEqualOneProcess(t *testing.T) {
	cluster := startSlurm(t)
	mutag := testenv.Dataset(t, "MUTAG")
	work := t.TempDir()
	bin := buildWkpi(t, work)
	for _, tc := range []struct {
		name, title string // the case, and the report's first words
		args        []string
	}{
		{"nested", "MUTAG (nested protocol)", []string{"-data", mutag, "-folds", "10", "-grid", "m=3,4;sigma=0.01,0.1;C=1,100", "-inner", "3"}},
		{"node labels", "MUTAG (fixed protocol), molecules and node labels", []string{"-data", mutag, "-folds", "10", "-labels", "-label-groups", "3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			slurmRun(t, cluster, bin, filepath.Join(work, strings.ReplaceAll(tc.name, " ", "-")), tc.title, tc.args)
		})
	}
}

// slurmRun runs wkpi eval's args as 4 shards through cluster, in runDir,
// and checks the merged report against a one-process run and its text
// against title.
func slurmRun(t *testing.T, cluster *slurm, bin, runDir, title string, args []string) {
	start := time.Now()
	cmd := exec.Command(bin, append([]string{"slurm", "-shards", "4", "-dir", runDir, "-wkpi", bin, "-sbatch", cluster.bins["sbatch"], "--"}, args...)...)
	cmd.Env = cluster.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("wkpi slurm: %v: %s", err, stderr.String())
	}
	m := regexp.MustCompile(`shards: job (\d+) .* merge: job (\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("wkpi slurm printed no job ids: %q", out)
	}
	shardsJob, mergeJob := string(m[1]), string(m[2])
	jobLogs := func() string {
		var b strings.Builder
		logs, _ := filepath.Glob(filepath.Join(runDir, "*.log"))
		for _, l := range logs {
			data, _ := os.ReadFile(l)
			fmt.Fprintf(&b, "\n--- %s:\n%s", filepath.Base(l), data)
		}
		return b.String() + cluster.logs()
	}
	if st := cluster.wait(t, mergeJob, 5*time.Minute); st != "COMPLETED" {
		t.Fatalf("merge job %s ended %s%s", mergeJob, st, jobLogs())
	}
	t.Logf("4 shards (job %s) and the merge (job %s) took %.1f s through Slurm", shardsJob, mergeJob, time.Since(start).Seconds())
	for i := range 4 {
		task := fmt.Sprintf("%s_%d", shardsJob, i)
		if st := cluster.wait(t, task, time.Minute); st != "COMPLETED" {
			t.Errorf("shard task %s ended %s", task, st)
		}
		if _, err := os.Stat(filepath.Join(runDir, fmt.Sprintf("part-%d.json", i))); err != nil {
			t.Errorf("shard %d wrote no part: %v", i, err)
		}
	}
	data, err := os.ReadFile(filepath.Join(runDir, "report.json"))
	if err != nil {
		t.Fatalf("merge wrote no report: %v%s", err, jobLogs())
	}
	var merged []eval.Report
	if err := json.Unmarshal(data, &merged); err != nil {
		t.Fatal(err)
	}
	want := noSeconds(oneProcess(t, args))
	if got := noSeconds(merged); !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("Slurm run differs from the one-process run:\n got %.2000s\nwant %.2000s", g, w)
	}
	if text, err := os.ReadFile(filepath.Join(runDir, "report.txt")); err != nil || !bytes.Contains(text, []byte(title)) {
		t.Errorf("report.txt: %v, %q", err, text)
	}
}
