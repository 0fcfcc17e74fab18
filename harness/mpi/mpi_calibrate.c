/* mpi_calibrate.c — the plain-C figure an MPI's replayed benchmark is read against: the
 * pattern bench/latency.lua times (one op inside one synchronization mode, rank 0 the origin,
 * rank 1 the target), or with --pattern pingpong the one bench/pingpong.lua times (rank 0
 * sends --size bytes, rank 1 sends them back: MPI_Send and MPI_Recv, no window), written
 * directly against MPI with no harness, no Lua and no C++.
 * Built once per MPI with that MPI's compiler flags (harness/mpi/mpi.cmake:
 * rmabench-calibrate-<mpi>), started by `rmabench bench --impl <mpi>` through the same launcher
 * command line as the MPI's worker, on two ranks:
 *
 *   rmabench-calibrate-mpich --op put --sync lock --size 8 --flavor allocate
 *                            --min-time 0.05 --repetitions 3 --thread serialized
 *
 * Rank 0 prints one JSON line: {"iterations": N, "real_time_ns": [per repetition, ns per
 * iteration]}. Timed as the harness's loop times a replay (worker/bench_loop.cpp): the clock
 * is read once before and once after a batch of iterations, batches grow as Google Benchmark
 * grows them until one lasts min-time, and the other repetitions reuse that count. A target
 * with nothing to do in the mode waits in MPI_Barrier, as the harness's does. Bad arguments:
 * a line on stderr and exit 2 before MPI_Init.
 */
#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

enum op { op_put, op_get, op_accumulate, op_get_accumulate, op_fetch_and_op, op_cas };
enum sync { sync_lock, sync_lock_all, sync_flush, sync_flush_local, sync_fence, sync_pscw };

enum pattern { pattern_latency, pattern_pingpong };

struct args {
  enum pattern pattern;
  enum op op;
  enum sync sync;
  long long size;
  const char* flavor;
  double min_time_s;
  int repetitions;
  int thread_multiple;
};

/* What one iteration works on; set up once, as the script's setup hook does. */
struct bench {
  struct args a;
  int rank;
  MPI_Win win;
  MPI_Aint disp;
  MPI_Group peer; /* the other rank, for start and post */
  MPI_Datatype dtype;
  int count;
  void *data, *result;
  void* attached; /* dynamic: the target's attached memory */
};

static const char* const op_names[] = {
    "put", "get", "accumulate", "get_accumulate", "fetch_and_op", "compare_and_swap"};
static const char* const sync_names[] = {"lock",        "lock_all", "flush",
                                         "flush_local", "fence",    "pscw"};
static const char* const pattern_names[] = {"latency", "pingpong"};

static int lookup(const char* word, const char* const* names, int n) {
  for (int i = 0; i < n; ++i)
    if (strcmp(word, names[i]) == 0) return i;
  return -1;
}

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
  int have_op = 0, have_sync = 0, have_size = 0;
  a->pattern = pattern_latency;
  a->flavor = NULL;
  a->min_time_s = 0.05;
  a->repetitions = 1;
  a->thread_multiple = 0;
  for (int i = 1; i < argc; i += 2) {
    const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    char* end = NULL;
    if (!v) return usage("an option without its value");
    if (strcmp(k, "--pattern") == 0) {
      const int p = lookup(v, pattern_names, 2);
      if (p < 0) return usage("unknown --pattern");
      a->pattern = (enum pattern)p;
    } else if (strcmp(k, "--op") == 0) {
      const int o = lookup(v, op_names, 6);
      if (o < 0) return usage("unknown --op");
      a->op = (enum op)o, have_op = 1;
    } else if (strcmp(k, "--sync") == 0) {
      const int s = lookup(v, sync_names, 6);
      if (s < 0) return usage("unknown --sync");
      a->sync = (enum sync)s, have_sync = 1;
    } else if (strcmp(k, "--size") == 0) {
      a->size = strtoll(v, &end, 10), have_size = 1;
      if (*end || a->size < 1 || a->size > (1LL << 30)) return usage("--size: 1 to 2^30 bytes");
    } else if (strcmp(k, "--flavor") == 0) {
      if (strcmp(v, "create") && strcmp(v, "allocate") && strcmp(v, "shared") &&
          strcmp(v, "dynamic"))
        return usage("unknown --flavor");
      a->flavor = v;
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
  if (a->pattern == pattern_pingpong) {
    if (have_op || have_sync || a->flavor)
      return usage("--pattern pingpong takes no --op, --sync or --flavor");
    if (!have_size) return usage("--size is required");
    return 0;
  }
  if (!have_op || !have_sync || !have_size || !a->flavor)
    return usage("--op, --sync, --size and --flavor are required");
  return 0;
}

/* Bytes one op moves, as lua_scripts/bench/common.lua's op_bytes: one i64 for the atomics,
 * whole i64 elements for the accumulate family, the size itself for put and get. */
static long long op_bytes(enum op op, long long size) {
  if (op == op_fetch_and_op || op == op_cas) return 8;
  if (op == op_put || op == op_get) return size;
  return size / 8 * 8 < 8 ? 8 : size / 8 * 8;
}

/* Every rank makes the window (collective); rank 1's is the one ops reach. */
static void make_window(struct bench* b, MPI_Aint bytes) {
  const char* f = b->a.flavor;
  void* base = NULL;
  b->disp = 0;
  if (strcmp(f, "create") == 0) {
    /* The harness gives a create window MPI_Alloc_mem memory (lua/lua_window.cpp). */
    MPI_Alloc_mem(bytes, MPI_INFO_NULL, &base);
    MPI_Win_create(base, bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &b->win);
  } else if (strcmp(f, "allocate") == 0) {
    MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &b->win);
  } else if (strcmp(f, "shared") == 0) {
    MPI_Win_allocate_shared(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &b->win);
  } else {
    /* Rank 1 attaches its memory and tells rank 0 where it is, as common.window does. */
    MPI_Aint addr = 0;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &b->win);
    b->attached = calloc(1, (size_t)bytes);
    MPI_Win_attach(b->win, b->attached, bytes);
    MPI_Get_address(b->attached, &addr);
    if (b->rank == 1) MPI_Send(&addr, 1, MPI_AINT, 0, 77, MPI_COMM_WORLD);
    if (b->rank == 0) MPI_Recv(&addr, 1, MPI_AINT, 1, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    b->disp = addr;
  }
}

/* The op under test from rank 0 to rank 1, with the arguments common.op passes. */
static void issue(const struct bench* b) {
  static const int64_t one = 1, zero = 0;
  switch (b->a.op) {
    case op_put:
      MPI_Put(b->data, b->count, b->dtype, 1, b->disp, b->count, b->dtype, b->win);
      break;
    case op_get:
      MPI_Get(b->data, b->count, b->dtype, 1, b->disp, b->count, b->dtype, b->win);
      break;
    case op_accumulate:
      MPI_Accumulate(b->data, b->count, b->dtype, 1, b->disp, b->count, b->dtype, MPI_SUM, b->win);
      break;
    case op_get_accumulate:
      MPI_Get_accumulate(b->data, b->count, b->dtype, b->result, b->count, b->dtype, 1, b->disp,
                         b->count, b->dtype, MPI_SUM, b->win);
      break;
    case op_fetch_and_op:
      MPI_Fetch_and_op(&one, b->result, MPI_INT64_T, 1, b->disp, MPI_SUM, b->win);
      break;
    case op_cas:
      MPI_Compare_and_swap(&zero, &zero, b->result, MPI_INT64_T, 1, b->disp, b->win);
      break;
  }
}

/* Whether the target calls MPI during an iteration (else it waits in the batch's barrier). */
static int target_active(const struct args* a) {
  return a->pattern == pattern_pingpong || a->sync == sync_fence || a->sync == sync_pscw;
}

/* One round trip of bench/pingpong.lua: the same tag, the bytes sent back as received. */
static void pingpong(const struct bench* b) {
  const int n = (int)b->a.size;
  if (b->rank == 0) {
    MPI_Send(b->data, n, MPI_UINT8_T, 1, 7, MPI_COMM_WORLD);
    MPI_Recv(b->result, n, MPI_UINT8_T, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(b->result, n, MPI_UINT8_T, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(b->result, n, MPI_UINT8_T, 0, 7, MPI_COMM_WORLD);
  }
}

/* One iteration on this rank, as common.iteration does it. */
static void iteration(const struct bench* b) {
  const int origin = b->rank == 0;
  if (b->a.pattern == pattern_pingpong) {
    pingpong(b);
    return;
  }
  switch (b->a.sync) {
    case sync_lock:
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, b->win);
      issue(b);
      MPI_Win_unlock(1, b->win);
      break;
    case sync_lock_all:
      MPI_Win_lock_all(0, b->win);
      issue(b);
      MPI_Win_unlock_all(b->win);
      break;
    case sync_flush:
      issue(b);
      MPI_Win_flush(1, b->win);
      break;
    case sync_flush_local:
      issue(b);
      MPI_Win_flush_local(1, b->win);
      break;
    case sync_fence:
      MPI_Win_fence(MPI_MODE_NOPRECEDE, b->win);
      if (origin) issue(b);
      MPI_Win_fence(MPI_MODE_NOSUCCEED, b->win);
      break;
    case sync_pscw:
      if (origin) {
        MPI_Win_start(b->peer, 0, b->win);
        issue(b);
        MPI_Win_complete(b->win);
      } else {
        MPI_Win_post(b->peer, 0, b->win);
        MPI_Win_wait(b->win);
      }
      break;
  }
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One batch of n iterations on every rank: rank 0 gets its seconds. The count travels first,
 * and a barrier starts the batch, as the harness's loop sends its command and meets twice. */
static double batch(const struct bench* b, long long n) {
  double t = 0;
  MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (b->rank == 0) {
    const double t0 = now_s();
    for (long long i = 0; i < n; ++i) iteration(b);
    t = now_s() - t0;
  } else if (b->rank == 1 && target_active(&b->a)) {
    for (long long i = 0; i < n; ++i) iteration(b);
  }
  MPI_Barrier(MPI_COMM_WORLD);
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

static void setup(struct bench* b) {
  if (b->a.pattern == pattern_pingpong) {
    b->data = malloc((size_t)b->a.size);
    b->result = calloc(1, (size_t)b->a.size);
    memset(b->data, 1, (size_t)b->a.size);
    MPI_Barrier(MPI_COMM_WORLD);
    return;
  }
  const long long bytes = op_bytes(b->a.op, b->a.size);
  const int atomic = b->a.op != op_put && b->a.op != op_get;
  b->dtype = atomic ? MPI_INT64_T : MPI_UINT8_T;
  b->count = (int)(atomic ? bytes / 8 : bytes);
  b->data = malloc((size_t)bytes);
  b->result = calloc(1, (size_t)bytes);
  memset(b->data, 1, (size_t)bytes);
  make_window(b, (MPI_Aint)(bytes < 8 ? 8 : bytes));
  MPI_Group world;
  const int other = 1 - b->rank;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 1, &other, &b->peer);
  MPI_Group_free(&world);
  /* flush modes hold one lock_all epoch across the iterations; one op completed in it
   * first, so that no iteration pays for the grant (common.open_held). */
  if (b->rank == 0 && (b->a.sync == sync_flush || b->a.sync == sync_flush_local)) {
    MPI_Win_lock_all(0, b->win);
    issue(b);
    MPI_Win_flush(1, b->win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

static void teardown(struct bench* b) {
  if (b->a.pattern == pattern_pingpong) {
    free(b->data);
    free(b->result);
    return;
  }
  if (b->rank == 0 && (b->a.sync == sync_flush || b->a.sync == sync_flush_local))
    MPI_Win_unlock_all(b->win);
  if (b->attached) MPI_Win_detach(b->win, b->attached);
  MPI_Group_free(&b->peer);
  MPI_Win_free(&b->win);
  free(b->attached);
  free(b->data);
  free(b->result);
}

int main(int argc, char** argv) {
  struct bench b;
  memset(&b, 0, sizeof b);
  /* The launcher's proxy is this process's parent: rmabench ends a calibration that outlives
   * its deadline by killing the launcher's process group, and a rank must not survive it. */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  const int bad = parse(argc, argv, &b.a);
  if (bad) return bad;
  /* The thread level the MPI worker asks for (mpi_worker_main.cpp): the library may pick
   * other code paths by it. */
  const int required = b.a.thread_multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED;
  int provided = MPI_THREAD_SINGLE, size = 0;
  MPI_Init_thread(&argc, &argv, required, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &b.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2 || provided < required) {
    if (b.rank == 0)
      fprintf(stderr, "rmabench-calibrate: %s\n",
              size != 2 ? "runs on exactly 2 ranks" : "the thread level asked for is not provided");
    MPI_Finalize();
    return 3;
  }
  setup(&b);
  /* The first repetition finds the count; the others reuse it (Google Benchmark's way). */
  double times[1000];
  long long n = 1;
  double t = batch(&b, n);
  for (;;) {
    int done = t >= b.a.min_time_s || n >= 1000000000LL;
    MPI_Bcast(&done, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (done) break;
    n = next_count(n, t, b.a.min_time_s);
    t = batch(&b, n);
  }
  times[0] = t;
  for (int r = 1; r < b.a.repetitions; ++r) times[r] = batch(&b, n);
  teardown(&b);
  if (b.rank == 0) {
    printf("{\"iterations\": %lld, \"real_time_ns\": [", n);
    for (int r = 0; r < b.a.repetitions; ++r)
      printf("%s%.4f", r ? ", " : "", times[r] * 1e9 / (double)n);
    printf("]}\n");
    fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
