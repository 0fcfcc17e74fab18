#!/usr/bin/env bash
# ci/soak.sh [MINUTES] — soak: runs a suite again and again while killing (SIGKILL) the
# rmabench parent or a random rank at a random moment, and checks after every run:
#   - every case has a verdict or is `interrupted` (ci/soak_check.py: the report is
#     schema-valid and holds every case the console printed, with the same verdict);
#   - after a killed parent, `rmabench report DIR` rebuilds every report format;
#   - no rank process of the run is left, and no /dev/shm segment of it once its ranks are
#     gone (a killed parent's ranks die with it, removing the names of segments not yet
#     unlinked on the way: rma/pending_names.hpp), nor after the next run's sweep.
# Not a CI stage. Environment: RMABENCH (default build/rmabench), SOAK_SUITE (default
# suites/quick.lua), SOAK_KINDS (any of "parent rank none", default all three), SOAK_RUNS
# (stop after this many runs), SOAK_KILLS (stop after this many kills landed: a kill drawn
# after the run ended does not count; either default: until MINUTES, default 10, have
# passed), SOAK_ARGS (more `rmabench run` arguments), SOAK_OUT (default a fresh directory
# under /tmp). The acceptance test of issue 14 (kill -9 of the parent at 10 random moments)
# is (docs/soak.md)
#   SOAK_SUITE=suites/conformance.lua SOAK_ARGS="--backend shm" SOAK_KINDS=parent \
#     SOAK_KILLS=10 ci/soak.sh
set -u
cd "$(dirname "$0")/.."
minutes=${1:-10}
exe=$(realpath "${RMABENCH:-build/rmabench}")
suite=${SOAK_SUITE:-suites/quick.lua}
read -r -a kinds <<<"${SOAK_KINDS:-parent rank none}"
max_runs=${SOAK_RUNS:-0}
max_kills=${SOAK_KILLS:-0}
read -r -a extra <<<"${SOAK_ARGS:-}"
out=${SOAK_OUT:-$(mktemp -d /tmp/rmabench-soak-XXXXXX)}
schema=reports/schema/report.schema.json
mkdir -p "$out"

workers() { pgrep -f "^$exe __worker" || true; }
segments_of() { ls /dev/shm 2>/dev/null | grep -c "^rmabench\.$1\." || true; }

if [ -n "$(workers)" ]; then
  echo "soak: ranks of $exe are already running; stop them first" >&2
  exit 2
fi

# One run without a kill: the number of cases, and how long a run lasts (kill moments are
# drawn from it).
t0=$(date +%s.%N)
timeout 1800 "$exe" run "$suite" "${extra[@]}" --report-dir "$out/first" >"$out/first.log" 2>&1
first_rc=$?
run_s=$(echo "$(date +%s.%N) - $t0" | bc)
expected=$(grep -c '^\[' "$out/first.log")
echo "soak: $suite: $expected cases in ${run_s}s (exit $first_rc); output in $out"
[ "$expected" -gt 0 ] || exit 2

deadline=$(($(date +%s) + minutes * 60))
runs=0 parent_kills=0 rank_kills=0 cases=0 interrupted=0 bad=0 shm_after_kill=0
prev_pid=""
while :; do
  [ "$max_runs" -gt 0 ] && [ "$runs" -ge "$max_runs" ] && break
  [ "$max_kills" -gt 0 ] && [ $((parent_kills + rank_kills)) -ge "$max_kills" ] && break
  [ "$max_runs" -eq 0 ] && [ "$max_kills" -eq 0 ] && [ "$(date +%s)" -ge "$deadline" ] && break
  runs=$((runs + 1))
  kind=${kinds[RANDOM % ${#kinds[@]}]}
  dir="$out/run$runs"
  # A moment in the run: uniform over 2%..95% of its length.
  delay=$(python3 -c "import random; print(round(random.uniform(0.02, 0.95) * $run_s, 2))")
  started=$(date +%s.%N)
  timeout 1800 "$exe" run "$suite" "${extra[@]}" --report-dir "$dir" >"$dir.log" 2>&1 &
  pid=$!
  note=""
  # `timeout` is the parent's parent: rmabench's own pid names its segments and is killed.
  rb=""
  for _ in $(seq 100); do
    rb=$(pgrep -P "$pid" -f "^$exe run" || true)
    [ -n "$rb" ] && break
    sleep 0.01
  done
  case $kind in
    parent)
      sleep "$delay"
      if [ -n "$rb" ] && kill -0 "$rb" 2>/dev/null; then
        kill -9 "$rb" 2>/dev/null
        parent_kills=$((parent_kills + 1))
        note="parent $rb killed at ${delay}s"
      fi
      wait "$pid" 2>/dev/null
      ;;
    rank)
      sleep "$delay"
      victim=""
      for _ in $(seq 50); do
        victim=$( (pgrep -P "${rb:-0}" -f "^$exe __worker" || true) | shuf -n1)
        [ -n "$victim" ] && break
        sleep 0.02
      done
      if [ -n "$victim" ] && kill -9 "$victim" 2>/dev/null; then
        rank_kills=$((rank_kills + 1))
        note="rank $victim killed at ${delay}s"
      fi
      wait "$pid" 2>/dev/null
      ;;
    none) wait "$pid" 2>/dev/null ;;
  esac
  rc=$?
  # The machine's load changes run lengths: later moments are drawn from the last whole run.
  [ -z "$note" ] && run_s=$(echo "$(date +%s.%N) - $started" | bc)
  [ -z "$note" ] && kind=none  # no kill, or it came after the run ended
  for _ in $(seq 100); do [ -z "$(workers)" ] && break; sleep 0.05; done
  left_workers=$(workers | wc -l)
  problems=""
  [ "$left_workers" -eq 0 ] || problems+=" $left_workers rank process(es) left;"
  if [ "$kind" = parent ]; then
    if ! timeout 120 "$exe" report "$dir" --format json,junit,md,html >"$dir.rebuild.log" 2>&1; then
      problems+=" rmabench report failed: $(tail -1 "$dir.rebuild.log");"
    fi
    for f in report.json junit.xml report.md report.html; do
      [ -s "$dir/$f" ] || problems+=" $f not rebuilt;"
    done
  fi
  if [ -s "$dir/report.json" ]; then
    check=$(python3 ci/soak_check.py "$schema" "$dir.log" "$dir/report.json" "$kind" "$expected")
    [ $? -eq 0 ] || problems+=" $(echo "$check" | tail -n +2 | tr '\n' ' ');"
    n=$(echo "$check" | head -1 | sed 's/.*cases=\([0-9]*\).*/\1/')
    i=$(echo "$check" | head -1 | sed 's/.*interrupted=\([0-9]*\).*/\1/')
    cases=$((cases + n))
    interrupted=$((interrupted + i))
  else
    problems+=" no report.json (exit $rc);"
  fi
  # Segments of the previous killed parent: gone now that this run swept them at its start.
  if [ -n "$prev_pid" ]; then
    s=$(segments_of "$prev_pid")
    [ "$s" -eq 0 ] || problems+=" $s segment(s) of killed parent $prev_pid left after the next run;"
    prev_pid=""
  fi
  if [ "$kind" = parent ]; then
    s=$(segments_of "$rb")
    shm_after_kill=$((shm_after_kill + s))
    [ "$s" -eq 0 ] || problems+=" $s segment(s) of killed parent $rb left once its ranks were gone;"
    prev_pid=$rb
  elif [ -n "$rb" ]; then
    s=$(segments_of "$rb")
    [ "$s" -eq 0 ] || problems+=" $s segment(s) left by a parent that lived;"
  fi
  [ -z "$problems" ] || bad=$((bad + 1))
  printf 'run %d: %-6s exit %-3s %s %s%s\n' "$runs" "$kind" "$rc" "${check%%$'\n'*}" "$note" \
    "${problems:+ PROBLEM:$problems}"
done
echo "soak: $runs runs, $parent_kills parent kills, $rank_kills rank kills, $cases cases" \
  "recorded, $interrupted interrupted, $shm_after_kill segment(s) left by a killed parent's" \
  "ranks, $bad run(s) with a problem"
[ "$bad" -eq 0 ]
