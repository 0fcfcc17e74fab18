#!/usr/bin/env bash
# The peer figures of PERFORMANCE.md, measured now on this machine: Open MPI (osc/sm and
# osc/pt2pt where this build has it) and MPICH, 2 ranks, 8 bytes, with mpi_rma_latency.c,
# followed by rmabench's own lock-put-unlock on both shm paths and the raw round trip, so
# every ratio comes from one run. Needs openmpi-bin/libopenmpi-dev (ci/setup.sh
# --with-extras) and, for the MPICH line, mpich/libmpich-dev; a missing one is reported.
#
#   bash bench/peers/run_peers.sh [ITERATIONS] [REPETITIONS]
set -uo pipefail
cd "$(dirname "$0")/../.."
iters=${1:-10000}
reps=${2:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
exe=./build/rmabench
[[ -x $exe ]] || { echo "run_peers: build rmabench first (cmake --build --preset default)"; exit 2; }

peer() {  # peer LABEL MPICC MPIRUN [MPIRUN ARGS...]
  local label=$1 cc=$2 run=$3
  shift 3
  if ! command -v "$cc" >/dev/null || ! command -v "$run" >/dev/null; then
    echo "== $label: not installed ($cc / $run missing)"
    return
  fi
  "$cc" -O2 -o "$tmp/$label" bench/peers/mpi_rma_latency.c || { echo "== $label: build failed"; return; }
  echo "== $label"
  timeout 600 "$run" "$@" -np 2 "$tmp/$label" "$iters" "$reps" || echo "   ($label failed)"
}

peer openmpi-osc-sm mpicc.openmpi mpirun.openmpi --allow-run-as-root --oversubscribe --mca osc sm
peer openmpi-osc-pt2pt mpicc.openmpi mpirun.openmpi --allow-run-as-root --oversubscribe --mca osc pt2pt
peer mpich mpicc.mpich mpirun.mpich

echo "== rmabench (shm, then fabric tcp;ofi_rxm)"
timeout 900 "$exe" bench suites/latency_vs_pingpong.lua --backend shm --repetitions "$reps"
timeout 900 "$exe" bench suites/latency_vs_pingpong.lua --backend fabric --provider "tcp;ofi_rxm" \
  --repetitions "$reps"
timeout 900 "$exe" bench lua_scripts/bench/latency.lua --target compute --repetitions "$reps"
