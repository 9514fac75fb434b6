#!/bin/sh
# The "Against GUDHI and scikit-learn" table of docs/benchmarks.md: wkpi eval
# with the defaults against scripts/gudhi_sklearn.py on the same folds, on
# MUTAG, PROTEINS and NCI1, in one run (hyperfine from Debian for the wall
# times, /usr/bin/time -v for peak memory and the accuracies).
#
#   make data && sh scripts/bench_gudhi.sh [RUNS]     # RUNS: hyperfine runs per command (default 2)
#
# Writes its files to $OUT (default /tmp/wkpi-bench) and prints the table's
# rows; it takes about half an hour on the 2-core build machine.
set -eu
RUNS=${1:-2}
OUT=${OUT:-/tmp/wkpi-bench}
mkdir -p "$OUT"
go build -o "$OUT/wkpi" ./cmd/wkpi
PY=/usr/bin/python3
echo "| dataset | wkpi eval | GUDHI + scikit-learn | time ratio (GUDHI / wkpi) | peak memory wkpi / GUDHI | accuracy wkpi / GUDHI |"
echo "|---|---|---|---|---|---|"
for d in MUTAG PROTEINS NCI1; do
	# One run of each under /usr/bin/time -v: wkpi's writes the folds the
	# script then uses, both print their accuracy.
	/usr/bin/time -v "$OUT/wkpi" eval -data "data/$d" -progress off -predictions "$OUT/folds-$d.csv" >"$OUT/wkpi-$d.out" 2>"$OUT/wkpi-$d.time"
	/usr/bin/time -v $PY scripts/gudhi_sklearn.py "data/$d" --folds "$OUT/folds-$d.csv" >"$OUT/gudhi-$d.out" 2>"$OUT/gudhi-$d.time"
	hyperfine --runs "$RUNS" --export-json "$OUT/hyperfine-$d.json" \
		-n wkpi "$OUT/wkpi eval -data data/$d -progress off" \
		-n gudhi "$PY scripts/gudhi_sklearn.py data/$d --folds $OUT/folds-$d.csv" >"$OUT/hyperfine-$d.txt"
	$PY - "$d" "$OUT" <<'EOF'
import json, re, sys
d, out = sys.argv[1], sys.argv[2]
runs = {r["command"]: r for r in json.load(open(f"{out}/hyperfine-{d}.json"))["results"]}
def rss(name):
    kb = re.search(r"Maximum resident set size \(kbytes\): (\d+)", open(f"{out}/{name}-{d}.time").read())
    return int(kb.group(1)) * 1024 / 1e9  # KiB to decimal GB
def acc(name):
    last = open(f"{out}/{name}-{d}.out").read().strip().splitlines()[-1]
    return 100 * json.loads(last)["accuracy_mean"]
w, g = runs["wkpi"], runs["gudhi"]
fmt = lambda r: f"{r['mean']:.1f} s ± {r['stddev'] or 0:.1f}"
print(f"| {d} | {fmt(w)} | {fmt(g)} | {g['mean'] / w['mean']:.1f}x | {rss('wkpi'):.2f} / {rss('gudhi'):.2f} GB | {acc('wkpi'):.1f} / {acc('gudhi'):.1f} % |")
EOF
done
