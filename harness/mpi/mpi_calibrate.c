/* mpi_calibrate.c — rmabench-calibrate-<mpi>: one plain-C loop of mpi_plain_loop.h timed in a
 * launch of its own, on two ranks, for reading an MPI by hand beside `rmabench bench --impl`
 * (which times the same loop inside the worker's launch, beside each replay):
 *
 *   mpiexec -n 2 rmabench-calibrate-mpich --op put --sync lock --size 8 --flavor allocate
 *                                         --min-time 0.05 --repetitions 3 --thread serialized
 *
 * Rank 0 prints one JSON line: {"iterations": N, "real_time_ns": [per repetition, ns per
 * iteration]}. Timed as the harness's loop times a figure (worker/bench_loop.cpp): the clock
 * is read once before and once after a batch of iterations, batches grow as Google Benchmark
 * grows them until one lasts min-time, and the other repetitions reuse that count. A target
 * with nothing to do in the mode waits in MPI_Barrier. Bad arguments: a line on stderr and
 * exit 2 before MPI_Init.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "mpi_plain_loop.h"

struct args {
  struct rmabench_plain_config loop;
  double min_time_s;
  int repetitions;
  int thread_multiple;
};

static int usage(const char* what) {
  fprintf(
      stderr,
      "rmabench-calibrate: %s\nusage: rmabench-calibrate [--pattern latency] --op OP --sync SYNC "
      "--size BYTES --flavor create|allocate|shared|dynamic [--min-time S] [--repetitions N] "
      "[--thread serialized|multiple]\n"
      "       rmabench-calibrate --pattern pingpong --size BYTES [--min-time S] "
      "[--repetitions N] [--thread serialized|multiple]\n",
      what);
  return 2;
}

/* 0 when every argument was understood, else usage()'s code. */
static int parse(int argc, char** argv, struct args* a) {
  a->loop.pattern = "latency";
  a->min_time_s = 0.05;
  a->repetitions = 1;
  for (int i = 1; i < argc; i += 2) {
    const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    char* end = NULL;
    if (!v) return usage("an option without its value");
    if (strcmp(k, "--pattern") == 0) {
      a->loop.pattern = v;
    } else if (strcmp(k, "--op") == 0) {
      a->loop.op = v;
    } else if (strcmp(k, "--sync") == 0) {
      a->loop.sync = v;
    } else if (strcmp(k, "--flavor") == 0) {
      a->loop.flavor = v;
    } else if (strcmp(k, "--size") == 0) {
      a->loop.size = strtoll(v, &end, 10);
      if (*end) return usage("--size: a number of bytes");
    } else if (strcmp(k, "--min-time") == 0) {
      a->min_time_s = strtod(v, &end);
      if (*end || !(a->min_time_s > 0) || a->min_time_s > 3600)
        return usage("--min-time: seconds, above 0");
    } else if (strcmp(k, "--repetitions") == 0) {
      a->repetitions = (int)strtol(v, &end, 10);
      if (*end || a->repetitions < 1 || a->repetitions > 1000)
        return usage("--repetitions: 1 to 1000");
    } else if (strcmp(k, "--thread") == 0) {
      if (strcmp(v, "serialized") && strcmp(v, "multiple"))
        return usage("--thread: serialized or multiple");
      a->thread_multiple = strcmp(v, "multiple") == 0;
    } else {
      return usage("unknown option");
    }
  }
  const int pingpong = strcmp(a->loop.pattern, "pingpong") == 0;
  if (pingpong && (a->loop.op || a->loop.sync || a->loop.flavor))
    return usage("--pattern pingpong takes no --op, --sync or --flavor");
  if (!pingpong && (!a->loop.op || !a->loop.sync || !a->loop.flavor || !a->loop.size))
    return usage("--op, --sync, --size and --flavor are required");
  const char* bad = rmabench_plain_check(&a->loop);
  return bad ? usage(bad) : 0;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One batch of n iterations on every rank: rank 0 gets its seconds. The count travels first,
 * and a barrier starts the batch, as the harness's loop sends its command and meets twice. */
static double batch(const struct rmabench_plain* loop, long long n) {
  const MPI_Comm comm = rmabench_plain_comm(loop);
  int rank = 0;
  double t = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, comm);
  MPI_Barrier(comm);
  const double t0 = now_s();
  const int rc = rmabench_plain_active(loop) ? rmabench_plain_run(loop, n) : MPI_SUCCESS;
  if (rank == 0) t = now_s() - t0;
  if (rc != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(rc, text, &len);
    fprintf(stderr, "rmabench-calibrate: rank %d: %s\n", rank, text);
    MPI_Abort(MPI_COMM_WORLD, 4);
  }
  MPI_Barrier(comm);
  return t;
}

/* Google Benchmark's iteration growth (1.7's PredictNumberOfIterations): grow by the factor
 * that should reach min_time with 40% to spare, tenfold while a batch is too short to say. */
static long long next_count(long long n, double seconds, double min_time) {
  const double significant = seconds / min_time > 0.1;
  double mult = significant ? min_time * 1.4 / (seconds > 1e-9 ? seconds : 1e-9) : 10.0;
  double next = (double)n * mult;
  if (next < (double)n + 1) next = (double)n + 1;
  return next > 1e9 ? 1000000000LL : (long long)next;
}

int main(int argc, char** argv) {
  struct args a;
  memset(&a, 0, sizeof a);
  /* The launcher's proxy is this process's parent: a rank must not outlive a launcher killed
   * by its user. */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  const int bad = parse(argc, argv, &a);
  if (bad) return bad;
  /* The thread level the MPI worker asks for (mpi_worker_main.cpp): the library may pick
   * other code paths by it. */
  const int required = a.thread_multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED;
  int provided = MPI_THREAD_SINGLE, rank = 0;
  MPI_Init_thread(&argc, &argv, required, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char why[200] = "";
  struct rmabench_plain* loop =
      provided < required ? NULL : rmabench_plain_open(&a.loop, MPI_COMM_WORLD, why, sizeof why);
  if (!loop) {
    if (rank == 0)
      fprintf(stderr, "rmabench-calibrate: %s\n",
              provided < required ? "the thread level asked for is not provided" : why);
    MPI_Finalize();
    return 3;
  }
  /* The first repetition finds the count; the others reuse it (Google Benchmark's way). */
  double times[1000];
  long long n = 1;
  double t = batch(loop, n);
  for (;;) {
    int done = t >= a.min_time_s || n >= 1000000000LL;
    MPI_Bcast(&done, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (done) break;
    n = next_count(n, t, a.min_time_s);
    t = batch(loop, n);
  }
  times[0] = t;
  for (int r = 1; r < a.repetitions; ++r) times[r] = batch(loop, n);
  rmabench_plain_close(loop);
  if (rank == 0) {
    printf("{\"iterations\": %lld, \"real_time_ns\": [", n);
    for (int r = 0; r < a.repetitions; ++r)
      printf("%s%.4f", r ? ", " : "", times[r] * 1e9 / (double)n);
    printf("]}\n");
    fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
