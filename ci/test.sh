#!/usr/bin/env bash
# Sets up the machine, builds with warnings as errors, and runs every test (unit tests next
# to the code, end-to-end tests of the built rmabench). The README's test command; .ci/run
# calls it.
set -euo pipefail
cd "$(dirname "$0")/.."

bash ci/setup.sh
cmake --preset ci
cmake --build --preset ci -j "$(nproc)"
ctest --preset ci -j "$(nproc)"
