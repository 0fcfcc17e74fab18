#!/usr/bin/env bash
# Regenerates the sequence diagrams of docs/message-counts.md ("Sequence diagrams"): each is
# the pattern run once with `rmabench describe SCRIPT --trace --svg FILE`, drawn from the
# packets the ranks really sent, never by hand. The text sequence goes beside it (.txt).
#
#   bash docs/diagrams/generate.sh [path/to/rmabench]     (default: build/rmabench)
set -euo pipefail
cd "$(dirname "$0")/../.."
exe=${1:-build/rmabench}
out=docs/diagrams

draw() {  # name title script [rmabench describe options...]
  local name=$1 title=$2 script=$3
  shift 3
  echo "== $name: $script $*"
  timeout 120 "$exe" describe "lua_scripts/$script" --trace --title "$title" \
    --svg "$out/$name.svg" "$@" | tee "$out/$name.txt"
}

draw lock_three_puts_unlock "lock, 3 puts, unlock" passive/lock_three_puts_unlock.lua
draw pscw_put "post, start, put, complete, wait" pscw/post_start_put.lua
draw fence_ring_4 "fence ring, 4 ranks" fence/fence_ring.lua -n 4
draw rendezvous_put "lock, put above the eager limit (64 KiB), unlock" \
  passive/lock_put_unlock.lua -o size=65536
