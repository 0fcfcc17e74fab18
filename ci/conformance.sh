#!/usr/bin/env bash
# Sets up the machine, builds rmabench, and runs the conformance suite on the shared-memory
# backend: a line per case on the console, reports in out/conformance/ (report.json,
# junit.xml, report.md). Extra arguments go to `rmabench run` (e.g. --path direct).
set -euo pipefail
cd "$(dirname "$0")/.."

bash ci/setup.sh
cmake --preset default
# Only what a run needs: rmabench and the MPI workers it starts, not the tests.
cmake --build --preset default -j "$(nproc)" --target rmabench
exec ./build/rmabench run suites/conformance.lua --backend shm --report-dir out/conformance "$@"
