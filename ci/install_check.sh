#!/usr/bin/env bash
# rmabench as its users get it (docs/install.md), from the CI build in build-ci/:
#
#   prefix    `cmake --install` into a temporary prefix, moved elsewhere afterwards; then, as
#             user nobody, from another directory, with the source tree hidden (a tmpfs over
#             it in a mount namespace of its own): --version (not unknown), `run quick`,
#             `run passive/lock_put_unlock -n 2`, a user's own script on RMABENCH_PATH that
#             requires a shared module, `list`, an unknown name (exit 2, did you mean), the
#             man page through `man -l` (every flag of --help in it), the completion script
#   deb       `cpack -G DEB`; apt-get install ./rmabench_*.deb, `run quick` from /tmp,
#             apt-get remove, and the file lists of / before and after compared
#   archive   a `git archive` tarball of HEAD built (rmabench only, from the compiler cache
#             when the CI build filled one): its report names HEAD's revision
#
# Needs root (apt-get, the mount namespace, setpriv). Usage: bash ci/install_check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build=$root/build-ci
[[ $(id -u) == 0 ]] || { echo "install_check: needs root (apt-get, unshare, setpriv)"; exit 1; }
[[ -x $build/rmabench && -f $build/rmabench.1 ]] || { echo "install_check: build-ci is not built"; exit 1; }
# The archive build finds the CI build's objects in the compiler cache under these settings
# (ci/test.sh exports the same).
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root} CCACHE_NOHASHDIR=1
work=$(mktemp -d /tmp/rmabench-install-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
fail() { echo "install_check: FAIL: $*"; exit 1; }

# As nobody, in $work/home, with the source tree (and build-ci inside it) hidden.
as_user() {
  # shellcheck disable=SC2016  # expanded by the inner bash
  unshare --mount --propagation private -- bash -c \
    'mount -t tmpfs none "$1" && shift && cd "$0" && exec setpriv --reuid=nobody --regid=nogroup --clear-groups --reset-env -- env HOME="$0" PATH=/usr/bin:/bin "$@"' \
    "$work/home" "$root" "$@"
}

check_prefix() {
  echo "--- prefix"
  timeout 120 cmake --install "$build" --prefix "$work/staged" >/dev/null
  mv "$work/staged" "$work/prefix"  # relocatable: nothing points back at where it was installed
  mkdir -p "$work/home/mine" && chown -R nobody "$work/home"
  cat >"$work/home/mine/my_check.lua" <<'LUA'
-- A user's own pattern, outside the installation: it requires a shared module.
local counts = require("counts")
return {
  ranks = 2,
  run = function() rma.barrier() end,
  check = function() rma.expect(type(counts.fence_exchange) == "function", "counts loaded") end,
}
LUA
  local exe=$work/prefix/bin/rmabench version
  version=$(as_user "$exe" --version)
  echo "$version"
  [[ $version == *"("*")"* && $version != *unknown* ]] || fail "--version: $version"
  as_user timeout 300 "$exe" run quick || fail "run quick"
  as_user timeout 120 "$exe" run passive/lock_put_unlock -n 2 || fail "run passive/lock_put_unlock"
  as_user env RMABENCH_PATH="$work/home/mine" timeout 60 "$exe" run my_check || fail "RMABENCH_PATH"
  as_user "$exe" list | tee "$work/list.txt"
  if ! grep -q "suites:.* quick" "$work/list.txt" ||
    ! grep -q "pattern folders:.* passive/" "$work/list.txt"; then
    fail "list shows no suites or pattern folders"
  fi
  local rc=0
  as_user "$exe" run quik 2>"$work/unknown.txt" || rc=$?
  cat "$work/unknown.txt"
  if ((rc != 2)) || ! grep -q "did you mean 'quick'" "$work/unknown.txt"; then
    fail "unknown name: exit $rc"
  fi
  check_man "$exe" "$work/prefix/share/man/man1/rmabench.1"
  check_completion "$work/prefix/share/bash-completion/completions/rmabench"
  # No build or source path in any installed text file.
  ! grep -rIl -e "$root" -e "$build" "$work/prefix" || fail "an installed file names the build"
}

check_man() {  # check_man EXE PAGE: man renders it, without warnings, with every flag --help has
  local exe=$1 page=$2
  MANWIDTH=100 man --warnings -l "$page" 2>"$work/man.err" >"$work/man.txt" || fail "man -l"
  [[ ! -s $work/man.err ]] || { cat "$work/man.err"; fail "man -l warns"; }
  head -n 5 "$work/man.txt"
  local sub flag
  for sub in run bench list describe info gate report; do
    for flag in $("$exe" "$sub" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
      grep -q -- "$flag" "$work/man.txt" || fail "man page lacks $sub $flag"
    done
  done
  echo "man page: renders, every flag of --help in it"
}

check_completion() {  # the script completes subcommands, flags and enumerated values
  local script=$1
  # shellcheck disable=SC1090
  source "$script"
  complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _rmabench; echo "${COMPREPLY[*]}"; }
  [[ $(complete_words rmabench ru) == run ]] || fail "completion of 'ru'"
  local paths
  paths=$(complete_words rmabench run --path "" | tr ' ' '\n' | sort | xargs)
  [[ $paths == "am auto direct" ]] || fail "completion of --path: $paths"
  [[ $(complete_words rmabench run --che) == --check ]] || fail "completion of --che"
  echo "completion: subcommands, flags and values"
}

# Where a package or its scripts can leave files: not /home or other checkouts, where builds
# running beside this check (another engineer's, a helper's) change files as they please;
# nor the one-node Slurm's state (ci/slurm.sh), which its jobs write while it is up.
files_of_root() {
  local d dirs=()
  for d in /etc /opt /root /srv /usr /var; do [[ -d $d ]] && dirs+=("$d"); done
  find "${dirs[@]}" -xdev \( -path /var/log -o -path /var/cache \
    -o -path /var/lib/apt -o -path /var/lib/rmabench-slurm -o -path "$root" -o -path /root/.cache \
    -o -path /root/.ccache \) \
    -prune -o -print | sort
}

check_deb() {
  echo "--- deb"
  (cd "$build" && timeout 300 cpack -G DEB >/dev/null) || fail "cpack -G DEB"
  local deb
  deb=$(ls "$build"/rmabench_*.deb)
  dpkg-deb --field "$deb" Package Version Depends
  files_of_root >"$work/before.txt"
  timeout 300 apt-get install -y -qq -o DPkg::Lock::Timeout=120 "$deb" >/dev/null || fail "apt-get install"
  (cd /tmp && timeout 300 rmabench run quick) || fail "the package's run quick"
  timeout 300 apt-get remove -y -qq -o DPkg::Lock::Timeout=120 rmabench >/dev/null || fail "apt-get remove"
  files_of_root >"$work/after.txt"
  if ! diff "$work/before.txt" "$work/after.txt"; then fail "apt-get remove left files behind"; fi
  echo "deb: installed, ran, removed, no file left behind"
}

check_archive() {
  echo "--- archive"
  local src=$root/out/ci/archive  # under the checkout: the compiler cache's paths match
  rm -rf "$src" && mkdir -p "$src"
  git -C "$root" archive HEAD | tar -x -C "$src"
  local want launcher=()
  want=$(git -C "$root" rev-parse --short=12 HEAD)
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  (cd "$src" && timeout 120 cmake --preset ci -DRMABENCH_MPI=OFF "${launcher[@]}" >/dev/null &&
    timeout 900 cmake --build --preset ci -j "$(nproc)" --target rmabench >/dev/null) ||
    fail "the archive's build"
  "$src/build-ci/rmabench" --version
  "$src/build-ci/rmabench" run passive/lock_put_unlock -n 2 --report-dir "$work/archive-report" \
    --format json >/dev/null || fail "the archive's run"
  python3 - "$work/archive-report/report.json" "$want" <<'PY' || fail "the archive's report"
import json, sys
rev = json.load(open(sys.argv[1]))["context"]["git_revision"]
print("archive report: git_revision", rev)
sys.exit(0 if rev.startswith(sys.argv[2]) else 1)
PY
  rm -rf "$src"
}

check_prefix
check_deb
check_archive
echo "install_check: all passed"
