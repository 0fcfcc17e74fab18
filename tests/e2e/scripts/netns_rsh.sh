#!/bin/sh
# netns_rsh.sh [OPTIONS] HOST COMMAND... — an ssh for the namespace hosts of
# tests/e2e/netns_hosts.hpp: runs COMMAND (one shell line, as ssh runs it) in the network
# namespace ${NETNS_RSH_PREFIX}HOST with HOST as its host name (a UTS namespace of its own),
# so that an MPI launcher's remote start (hydra -launcher-exec, Open MPI plm_rsh_agent)
# puts its proxy "on" HOST. Options before HOST (ssh's -x, -q, ...) are ignored. Every step
# execs: the launcher's child is the proxy itself, and dies with it.
while [ $# -gt 0 ]; do
  case "$1" in
    -*) shift ;;
    *) break ;;
  esac
done
host=$1
if [ -z "$host" ] || [ $# -lt 2 ]; then
  echo "netns_rsh.sh: usage: netns_rsh.sh [OPTIONS] HOST COMMAND..." >&2
  exit 255
fi
shift
exec ip netns exec "${NETNS_RSH_PREFIX}$host" unshare --uts /bin/sh -c \
  'hostname "$0" && exec /bin/sh -c "$1"' "$host" "$*"
