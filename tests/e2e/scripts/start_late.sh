# start_late.sh — a --rank-exec prefix whose ranks start two seconds late, as a library's
# launcher can (mpirun across hosts, a loaded machine): the case's deadline must not count
# the wait.
sleep 2
exec "$@"
