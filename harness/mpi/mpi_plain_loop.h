/* mpi_plain_loop.h — the patterns an MPI's replayed benchmark is read against, written directly
 * against MPI in C: no harness, no Lua, no C++ between the loop and the library. One latency
 * iteration is one op inside one synchronization mode from rank 0 (the origin) to rank 1 (the
 * target), as bench/latency.lua's; one ping-pong iteration is MPI_Send then MPI_Recv of the
 * size and back, as bench/pingpong.lua's. A target with nothing to do in the mode calls
 * nothing during an iteration (its caller waits in a barrier).
 *
 * Two users: the MPI worker times a loop beside each replayed figure in the same launch
 * (mpi_impl_plain.cpp, worker/plain_figure.hpp), and rmabench-calibrate-<mpi>
 * (mpi_calibrate.c) times one in a launch of its own.
 */
#ifndef RMABENCH_MPI_PLAIN_LOOP_H
#define RMABENCH_MPI_PLAIN_LOOP_H

#include <mpi.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What to loop over: pattern "latency" (op, sync, flavor and size) or "pingpong" (size). */
struct rmabench_plain_config {
  const char* pattern;
  const char* op;     /* put, get, accumulate, get_accumulate, fetch_and_op, compare_and_swap */
  const char* sync;   /* lock, lock_all, flush, flush_local, fence, pscw */
  const char* flavor; /* create, allocate, shared, dynamic */
  long long size;     /* bytes, 1 to 2^30 */
};

struct rmabench_plain;

/* NULL when the configuration names a loop, else why not; asks nothing of MPI. */
const char* rmabench_plain_check(const struct rmabench_plain_config* config);

/* Collective over comm, which must have exactly 2 ranks: duplicates it and makes the window.
 * NULL on both ranks, with the reason in why[0..why_size), when the configuration is refused
 * or setting it up failed on either rank (memory first, agreed before any collective call;
 * then the window, every call made on both ranks whatever the one before returned). */
struct rmabench_plain* rmabench_plain_open(const struct rmabench_plain_config* config,
                                           MPI_Comm comm, char* why, size_t why_size);

/* Whether this rank calls MPI during an iteration (rank 0 always; the target in fence, pscw and
 * ping-pong). */
int rmabench_plain_active(const struct rmabench_plain* loop);

/* This rank's part of n iterations, back to back: MPI_SUCCESS, or the first MPI error code
 * (which ends the batch). */
int rmabench_plain_run(const struct rmabench_plain* loop, long long n);

/* The communicator the loop works on (its own duplicate), for its caller's batch messages. */
MPI_Comm rmabench_plain_comm(const struct rmabench_plain* loop);

/* Collective: frees the window, the communicator and the buffers. */
void rmabench_plain_close(struct rmabench_plain* loop);

#ifdef __cplusplus
}
#endif

#endif
