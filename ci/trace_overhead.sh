#!/usr/bin/env bash
# What --trace costs when it is off: lock-put-unlock latency (8 B, lock sync) of this build
# against a build without the trace code paths (main before --trace), the two interleaved in
# one run, ROUNDS rounds of REPS repetitions each. Prints the medians and their ratio
# (new / baseline); 1.00 means free. A measurement, not a test: run it on a quiet machine.
#
#   bash ci/trace_overhead.sh [NEW_EXE] [BASELINE_EXE] [ROUNDS] [REPS] [MIN_TIME_S]
set -euo pipefail
cd "$(dirname "$0")/.."
new=${1:-build/rmabench}
base=${2:-/work/baseline/e871188/rmabench}
rounds=${3:-5}
reps=${4:-5}
min_time=${5:-0.2}
tmp=$(mktemp -d /tmp/trace_overhead.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
for ((i = 0; i < rounds; i++)); do
  for which in base new; do
    exe=$base
    [[ $which == new ]] && exe=$new
    timeout 600 "$exe" bench lua_scripts/bench/latency.lua --sizes 8 --sync lock \
      --repetitions "$reps" --min-time "$min_time" --report-dir "$tmp/$which.$i" --format json > /dev/null
  done
done
python3 - "$tmp" "$rounds" <<'PY'
import json, statistics, sys
tmp, rounds = sys.argv[1], int(sys.argv[2])
def times(which):
    out = []
    for i in range(rounds):
        r = json.load(open("%s/%s.%d/report.json" % (tmp, which, i)))
        out += [b["real_time"] for b in r["benchmarks"]
                if b.get("run_type", "iteration") == "iteration" and "real_time" in b]
    return out
b, n = times("base"), times("new")
mb, mn = statistics.median(b), statistics.median(n)
print("lock-put-unlock 8 B, %d runs each: median baseline %.3f us, tracing off %.3f us, "
      "ratio %.3f; fastest run baseline %.3f us, tracing off %.3f us, ratio %.3f"
      % (len(b), mb, mn, mn / mb, min(b), min(n), min(n) / min(b)))
PY
