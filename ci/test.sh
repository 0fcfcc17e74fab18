#!/usr/bin/env bash
# The pipeline CI runs (.ci/run calls it; it is also the README's test command):
#
#   setup       Debian packages (ci/setup.sh --with-extras: also Open MPI and Chromium)
#   format      every C and C++ file as .clang-format says (clang-format --dry-run -Werror)
#   build       every target, warnings as errors
#   tests       unit tests and end-to-end tests (ctest: e2e, faults, browser labels included)
#   model       the Spin model of the am protocol (ctest -L model, docs/protocol.md)
#   quick-*     the quick suite on shm am, shm direct, fabric tcp;ofi_rxm (am) and fabric
#               udp;ofi_rxd (both paths)
#   gate        each quick-suite report against its committed baseline (reports/baseline/)
#   install     rmabench installed into a prefix and as a Debian package, run from elsewhere
#               as a user who is not root, and a `git archive` build naming its revision
#               (ci/install_check.sh, docs/install.md)
#   quick-mpich, quick-openmpi
#               the quick suite on each MPI library (--impl), gated against
#               reports/baseline/quick-<mpi>.json (the library's known defects are in the
#               baseline, its intermittent ones in reports/baseline/known-intermittent.json;
#               message counts are not observable there: not comparable); skipped
#               with the reason where that MPI's worker is not built
#   slurm       a one-node Slurm (ci/slurm.sh up), the quick suite on fabric under
#               srun --mpi=pmix -n 4, gated against reports/baseline/quick-slurm.json; the
#               quick suite on each built MPI inside an allocation (salloc), its cases started
#               as srun job steps, gated against the same quick-<mpi>.json as with the
#               library's own launcher; then ci/slurm.sh down; skipped with the reason where
#               Slurm cannot start
#   asan        an AddressSanitizer + UndefinedBehaviorSanitizer build (clang, the `asan`
#               preset, assertions on), running the quick suite
#   tsan        a ThreadSanitizer build, running the implementation's unit tests
#   fuzz        the libFuzzer targets of fuzz/, built in the asan stage's build directory (its
#               objects serve both), each for RMABENCH_FUZZ_SECONDS (30, at most 60) from its
#               committed seed corpus
#
# Every stage runs even if an earlier one failed (a build failure skips what needs it); each
# prints its result and time, JUnit files land in out/ci/junit/, the summary names every
# failed test with its last lines, and the last line says how many stages passed. Exit
# status: 0 when every stage passed.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out="$root/out/ci"
junit="$out/junit"
rm -rf "$out"
mkdir -p "$junit"
jobs=$(nproc)
# The build goes through ccache where there is one, so that the install stage's build of a
# `git archive` tarball compiles nothing twice: paths relative to the checkout, the build
# directory left out of the hash (-g records it).
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=$root CCACHE_NOHASHDIR=1
fi

declare -a names results times
failed=0

stage() {  # stage NAME COMMAND...
  local name=$1
  shift
  echo
  echo "=== stage $name: $*"
  local t0=$SECONDS
  if "$@"; then
    results+=("pass")
  else
    results+=("FAIL")
    failed=$((failed + 1))
  fi
  names+=("$name")
  times+=($((SECONDS - t0)))
  echo "=== stage $name: ${results[-1]} ($((SECONDS - t0)) s)"
}

skip() {  # skip NAME REASON
  names+=("$1")
  results+=("skip: $2")
  times+=(0)
  echo
  echo "=== stage $1: skipped ($2)"
}

built=no
do_setup() { bash ci/setup.sh --with-extras; }
do_format() {  # tracked files only: a build directory's generated sources are not ours to format
  local files
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    files=$(git ls-files '*.cpp' '*.hpp' '*.c' '*.h')
  else
    files=$(find fuzz harness reports rma_impl tests -name '*.[ch]pp' -o -name '*.[ch]')
  fi
  xargs clang-format --dry-run -Werror <<<"$files" && echo "$(wc -l <<<"$files") files formatted"
}
do_build() {
  cmake --preset ci "${launcher[@]}" && cmake --build --preset ci -j "$jobs" && built=yes
}
# Each failed test and the last lines it printed, kept for the summary: CI may show only
# the log's tail.
ctest_stage() {  # ctest_stage JUNIT ARGS...
  local xml=$1 tmp=build-ci/Testing/Temporary
  shift
  rm -f "$tmp/LastTestsFailed.log"
  ctest --preset ci -j "$jobs" "$@" --output-junit "$junit/$xml" && return 0
  [[ -f $tmp/LastTestsFailed.log ]] &&
    failed_output "$tmp/LastTestsFailed.log" "$tmp/LastTest.log" >>"$out/failed-tests.txt"
  return 1
}
# failed_output LIST LOG: for each test LastTestsFailed.log names ("N:name"), its name and
# the last 25 lines of its output in ctest's log of the run (one block per test, written
# whole when the test ends; a test that could not start has an empty block).
failed_output() {
  awk -v keep=25 '
    NR == FNR { sub(/^[0-9]+:/, ""); order[++count] = $0; wanted[$0] = 1; next }
    /^[0-9]+\/[0-9]+ Testing: / { name = $0; sub(/^[0-9]+\/[0-9]+ Testing: /, "", name); next }
    /^Output:$/ { getline; inside = (name in wanted); n = 0; next }  # then a rule
    inside && /^<end of output>$/ {
      inside = 0; tail[name] = ""
      for (i = (n > keep ? n - keep : 0); i < n; i++) tail[name] = tail[name] "    " line[i] "\n"
      next
    }
    inside { line[n++] = $0 }
    END { for (i = 1; i <= count; i++) printf "  failed test: %s\n%s", order[i], tail[order[i]] }
  ' "$1" "$2"
}
do_tests() { ctest_stage ctest.xml -LE model; }  # the model checks have their own stage
# The Spin model of the am protocol: every check and mutation (docs/protocol.md).
do_model() { ctest_stage model.xml -L model; }
quick() {  # quick NAME ARGS...: the quick suite, its JUnit file, its report kept for the gate
  local name=$1
  shift
  ./build-ci/rmabench run suites/quick.lua "$@" --report-dir "$out/$name" --format json,junit,md
  local rc=$?
  cp "$out/$name/junit.xml" "$junit/$name.xml" 2>/dev/null
  return $rc
}
do_gate() {
  local rc=0 name
  for name in "$@"; do
    local base="reports/baseline/$name.json"
    if [[ ! -f "$base" ]]; then
      echo "no baseline $base"
      rc=1
      continue
    fi
    ./build-ci/rmabench gate "$out/$name/report.json" --baseline "$base" \
      --known reports/baseline/known-intermittent.json || rc=1
  done
  return $rc
}
do_mpi_quick() {  # do_mpi_quick MPI: the quick suite on an MPI library, gated against its baseline
  local name="quick-$1"
  timeout 600 ./build-ci/rmabench run suites/quick.lua --impl "$1" --report-dir "$out/$name" \
    --format json,junit,md
  local rc=$?
  cp "$out/$name/junit.xml" "$junit/$name.xml" 2>/dev/null
  # Exit 1 is a case that did not pass: the library's known failures are in its baseline, and
  # the gate says whether anything changed. Any other exit means the run itself failed.
  if ((rc != 0 && rc != 1)); then
    echo "quick suite on $1 exited with $rc"
    return 1
  fi
  do_gate "$name"
}
do_slurm_mpi() {  # do_slurm_mpi MPI: its quick suite as srun steps in an allocation, gated
  [[ -x ./build-ci/rmabench-worker-$1 ]] || return 0
  local name="slurm-quick-$1"
  timeout 900 salloc -n 4 --time=20 ./build-ci/rmabench run suites/quick.lua --impl "$1" \
    --mpi-start srun --report-dir "$out/$name" --format json,junit,md
  local rc=$?
  cp "$out/$name/junit.xml" "$junit/$name.xml" 2>/dev/null
  if ((rc != 0 && rc != 1)); then
    echo "quick suite on $1 under srun exited with $rc"
    return 1
  fi
  ./build-ci/rmabench gate "$out/$name/report.json" --baseline "reports/baseline/quick-$1.json" \
    --known reports/baseline/known-intermittent.json
}
do_slurm() {  # Slurm is up: the quick suite as the 4 tasks of an srun step, gated; then down
  timeout 600 srun --mpi=pmix -n 4 ./build-ci/rmabench run suites/quick.lua --backend fabric \
    --report-dir "$out/quick-slurm" --format json,junit,md
  local rc=$?
  cp "$out/quick-slurm/junit.xml" "$junit/quick-slurm.xml" 2>/dev/null
  ((rc == 0)) && { do_gate quick-slurm || rc=1; }
  do_slurm_mpi mpich || rc=1
  do_slurm_mpi openmpi || rc=1
  bash ci/slurm.sh down || rc=1
  return $rc
}
# The suite's own deadlines: an instrumented case takes about a second at most, and a
# --timeout here would also hold each case that is expected to deadlock for that long.
do_asan() {
  cmake --preset asan && cmake --build --preset asan -j "$jobs" --target rmabench || return 1
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ./build-asan/rmabench run suites/quick.lua --report-dir "$out/asan" \
    --format json,junit,md
  local rc=$?
  cp "$out/asan/junit.xml" "$junit/asan-quick.xml" 2>/dev/null
  return $rc
}
do_tsan() {
  cmake --preset tsan && cmake --build --preset tsan -j "$jobs" --target rma_impl_test || return 1
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
    ./build-tsan/rma_impl/rma_impl_test --gtest_output="xml:$junit/tsan-rma-impl.xml"
}

# The fuzz targets link the libraries the asan stage compiled, with the same flags: only their
# own files are compiled here.
do_fuzz() {
  cmake --preset asan && cmake --build --preset asan -j "$jobs" --target \
    kv_wire_fuzz am_packet_fuzz report_reader_fuzz manifest_fuzz lua_api_fuzz || return 1
  local secs=${RMABENCH_FUZZ_SECONDS:-30} rc=0 t
  ((secs > 60)) && secs=60
  for t in kv_wire_fuzz am_packet_fuzz report_reader_fuzz manifest_fuzz lua_api_fuzz; do
    # New inputs go to a scratch corpus: the committed seeds stay as they are.
    local work="$out/fuzz/$t"
    mkdir -p "$work/corpus"
    (cd "$work" && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
      UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      timeout $((secs + 60)) "$root/build-asan/fuzz/$t" corpus "$root/fuzz/corpus/${t%_fuzz}" \
      -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
      > log.txt 2>&1) || { echo "fuzz: $t failed, see $work/log.txt"; tail -40 "$work/log.txt"; rc=1; }
    grep -h "stat::number_of_executed_units" "$work/log.txt" | sed "s/^/$t: /"
  done
  return $rc
}

stage setup do_setup
stage format do_format
stage build do_build
if [[ $built == yes ]]; then
  stage tests do_tests
  stage model do_model
  stage quick-shm-am quick quick-shm-am --backend shm --path am
  stage quick-shm-direct quick quick-shm-direct --backend shm --path direct
  # Read once into a variable: `info | grep -q` under pipefail fails when grep stops reading
  # before info has written all it has to say (SIGPIPE), which the output's length decides.
  info=$(./build-ci/rmabench info)
  if grep -q "^backends:.*fabric" <<<"$info"; then
    gated=(quick-shm-am quick-shm-direct quick-fabric-am)
    stage quick-fabric-am quick quick-fabric-am --backend fabric --path am --provider "tcp;ofi_rxm"
    # On udp;ofi_rxd the fetching and compare atomics (fetch_and_op, get_accumulate,
    # compare_and_swap) take the am slots on the direct path, as the provider crashes on them
    # (rma_impl/fabric/fabric_atomics.cpp): the case the other providers never reach.
    if grep -q "^  udp;ofi_rxd$" <<<"$info"; then
      stage quick-fabric-udp quick quick-fabric-udp --backend fabric --provider "udp;ofi_rxd"
      gated+=(quick-fabric-udp)
    else
      skip quick-fabric-udp "libfabric offers no udp;ofi_rxd provider here"
    fi
    stage gate do_gate "${gated[@]}"
  else
    skip quick-fabric-am "the fabric backend is not built"
    skip quick-fabric-udp "the fabric backend is not built"
    stage gate do_gate quick-shm-am quick-shm-direct
  fi
  stage install bash ci/install_check.sh
  for mpi in mpich openmpi; do
    if grep -q "^  $mpi .* via " <<<"$info"; then
      stage "quick-$mpi" do_mpi_quick "$mpi"
    else
      skip "quick-$mpi" "$(grep "^  $mpi " <<<"$info" | sed "s/^  $mpi *//")"
    fi
  done
  if ! grep -q "^backends:.*fabric" <<<"$info"; then
    skip slurm "the fabric backend is not built"
  elif slurm_up=$(bash ci/slurm.sh up 2>&1); then
    echo "$slurm_up"
    stage slurm do_slurm
  else
    bash ci/slurm.sh down >/dev/null 2>&1
    skip slurm "Slurm cannot start here: $(tail -n 1 <<<"$slurm_up")"
  fi
else
  for s in tests model quick-shm-am quick-shm-direct quick-fabric-am quick-fabric-udp gate \
    install quick-mpich quick-openmpi slurm; do skip "$s" "no build"; done
fi
stage asan do_asan
stage tsan do_tsan
stage fuzz do_fuzz

echo
echo "=== pipeline summary"
for i in "${!names[@]}"; do
  printf "  %-18s %-40s %5s s\n" "${names[$i]}" "${results[$i]}" "${times[$i]}"
done
passed=0
skipped=0
for r in "${results[@]}"; do
  [[ $r == pass ]] && passed=$((passed + 1))
  [[ $r == skip* ]] && skipped=$((skipped + 1))
done
[[ -s $out/failed-tests.txt ]] && cat "$out/failed-tests.txt"
echo "$passed stages passed, $failed failed$( ((skipped > 0)) && echo ", $skipped skipped")"
exit $((failed > 0))
