#!/usr/bin/env bash
# Installs, with apt-get, every Debian package rmabench builds, tests or runs with.
# Idempotent: packages already installed are left alone, and nothing is downloaded
# when all are present.  Usage: bash ci/setup.sh [--with-extras]
set -euo pipefail

packages=(
  cmake g++ make pkg-config git
  libfabric-dev libfabric-bin
  libhwloc-dev hwloc-nox
  libcli11-dev liblua5.4-dev nlohmann-json3-dev libpmix-dev
  libbenchmark-dev libbenchmark-tools libgtest-dev libgmock-dev
  clang-format clang libclang-rt-14-dev
  python3 python3-jsonschema python3-numpy python3-scipy
  procps iproute2
  dpkg-dev ccache man-db
  spin gcc
)
if [[ "${1:-}" == "--with-extras" ]]; then
  # Peers measured by benchmarks and the multi-launcher tests, and the MPIs `--impl` tests
  # (both at once: docs/conformance-mpi.md); the HTML report check (headless Chromium takes
  # a screenshot, python3-pil counts the plots' pixels).
  packages+=(openmpi-bin libopenmpi-dev mpich libmpich-dev chromium python3-pil)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
