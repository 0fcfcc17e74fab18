/* mpi_rma_latency.c — the patterns of ../../../shared/PERFORMANCE.md's peer table, measured
 * on an MPI library, so rmabench's figures can be compared with MPICH and Open MPI in the
 * same run. Two ranks, 8-byte payload, the target waiting in a barrier (or computing, for
 * the passive-target line). Prints one line per pattern: name and microseconds per iteration
 * (median of `reps` runs of `iters` iterations). Build with mpicc; see run_peers.sh. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, iters = 10000, reps = 3;
static MPI_Win win;
static long long *mem, val = 1, res;

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef void (*pattern_fn)(void);

static void send_recv(void) {
  if (rank == 0) { MPI_Send(&val, 1, MPI_LONG_LONG, 1, 0, MPI_COMM_WORLD);
                   MPI_Recv(&res, 1, MPI_LONG_LONG, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }
  else { MPI_Recv(&res, 1, MPI_LONG_LONG, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
         MPI_Send(&val, 1, MPI_LONG_LONG, 0, 0, MPI_COMM_WORLD); }
}
static void lock_put_unlock(void) {
  if (rank == 0) { MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
                   MPI_Put(&val, 1, MPI_LONG_LONG, 1, 0, 1, MPI_LONG_LONG, win);
                   MPI_Win_unlock(1, win); }
}
static void lock_get_unlock(void) {
  if (rank == 0) { MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
                   MPI_Get(&res, 1, MPI_LONG_LONG, 1, 0, 1, MPI_LONG_LONG, win);
                   MPI_Win_unlock(1, win); }
}
static void lock_acc_unlock(void) {
  if (rank == 0) { MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
                   MPI_Accumulate(&val, 1, MPI_LONG_LONG, 1, 0, 1, MPI_LONG_LONG, MPI_SUM, win);
                   MPI_Win_unlock(1, win); }
}
static void fence_put_fence(void) {
  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  if (rank == 0) MPI_Put(&val, 1, MPI_LONG_LONG, 1, 0, 1, MPI_LONG_LONG, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
}
static MPI_Group peer;
static void pscw(void) {
  if (rank == 0) { MPI_Win_start(peer, 0, win);
                   MPI_Put(&val, 1, MPI_LONG_LONG, 1, 0, 1, MPI_LONG_LONG, win);
                   MPI_Win_complete(win); }
  else { MPI_Win_post(peer, 0, win); MPI_Win_wait(win); }
}
static void all_put_flush(void) {
  if (rank == 0) { MPI_Put(&val, 1, MPI_LONG_LONG, 1, 0, 1, MPI_LONG_LONG, win); MPI_Win_flush(1, win); }
}
static void all_fop_flush(void) {
  if (rank == 0) { MPI_Fetch_and_op(&val, &res, MPI_LONG_LONG, 1, 0, MPI_SUM, win); MPI_Win_flush(1, win); }
}
static void all_cas_flush(void) {
  long long zero = 0;
  if (rank == 0) { MPI_Compare_and_swap(&val, &zero, &res, MPI_LONG_LONG, 1, 0, win); MPI_Win_flush(1, win); }
}

static double measure(pattern_fn f, int lock_all, int both_sides) {
  double t[16];
  for (int r = 0; r < reps; ++r) {
    if (lock_all && rank == 0) MPI_Win_lock_all(0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (rank == 0 || both_sides) for (int i = 0; i < iters; ++i) f();
    t[r] = (MPI_Wtime() - t0) / iters * 1e6;
    if (lock_all && rank == 0) MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);  /* the target waits here: its progress */
  }
  qsort(t, (size_t)reps, sizeof t[0], cmp);
  return t[reps / 2];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc > 1) iters = atoi(argv[1]);
  if (argc > 2) reps = atoi(argv[2]);
  if (reps > 16) reps = 16;
  MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int other = 1 - rank;
  MPI_Group_incl(world, 1, &other, &peer);
  struct { const char *name; pattern_fn f; int lock_all, both; } p[] = {
    {"send/recv half round trip", send_recv, 0, 1},
    {"lock-put-unlock", lock_put_unlock, 0, 0},
    {"lock-get-unlock", lock_get_unlock, 0, 0},
    {"lock-accumulate(sum,int64)-unlock", lock_acc_unlock, 0, 0},
    {"fence-put-fence", fence_put_fence, 0, 1},
    {"post/start/put/complete/wait", pscw, 0, 1},
    {"lock_all: put + flush", all_put_flush, 1, 0},
    {"lock_all: fetch_and_op + flush", all_fop_flush, 1, 0},
    {"lock_all: compare_and_swap + flush", all_cas_flush, 1, 0},
  };
  for (size_t i = 0; i < sizeof p / sizeof p[0]; ++i) {
    double us = measure(p[i].f, p[i].lock_all, p[i].both);
    if (p[i].f == send_recv) us /= 2; /* a half round trip */
    if (rank == 0) printf("%-36s %10.3f\n", p[i].name, us);
    fflush(stdout);
  }
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
