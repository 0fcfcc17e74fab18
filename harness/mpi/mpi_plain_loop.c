/* mpi_plain_loop.c — the plain-C loops of mpi_plain_loop.h: set up once as the script's setup
 * hook sets up (lua_scripts/bench/common.lua), then each iteration as common.iteration does it,
 * with the arguments common.op passes. The loop's communicator and window return MPI errors
 * (MPI_ERRORS_RETURN), as the harness's own do: inside the worker a failing call must become
 * a figure's error, not the end of the launch and of every figure led with it.
 */
#include "mpi_plain_loop.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum op { op_put, op_get, op_accumulate, op_get_accumulate, op_fetch_and_op, op_cas };
enum sync { sync_lock, sync_lock_all, sync_flush, sync_flush_local, sync_fence, sync_pscw };

static const char* const op_names[] = {
    "put", "get", "accumulate", "get_accumulate", "fetch_and_op", "compare_and_swap"};
static const char* const sync_names[] = {"lock",        "lock_all", "flush",
                                         "flush_local", "fence",    "pscw"};
static const char* const flavor_names[] = {"create", "allocate", "shared", "dynamic"};
#define COUNT_OF(names) ((int)(sizeof(names) / sizeof(names[0])))

struct rmabench_plain {
  int pingpong;
  enum op op;
  enum sync sync;
  const char* flavor;
  long long size;
  MPI_Comm comm;
  int rank;
  MPI_Win win;
  MPI_Aint disp;
  MPI_Group peer; /* the other rank, for start and post */
  MPI_Datatype dtype;
  int count;
  void *data, *result;
  void* attached; /* dynamic: the target's attached memory */
  void* alloced;  /* create: the MPI_Alloc_mem memory under the window */
  MPI_Aint win_bytes;
};

static int lookup(const char* word, const char* const* names, int n) {
  for (int i = 0; word && i < n; ++i)
    if (strcmp(word, names[i]) == 0) return i;
  return -1;
}

const char* rmabench_plain_check(const struct rmabench_plain_config* c) {
  const int pingpong = c->pattern && strcmp(c->pattern, "pingpong") == 0;
  if (!pingpong && !(c->pattern && strcmp(c->pattern, "latency") == 0))
    return "pattern: latency or pingpong";
  if (c->size < 1 || c->size > (1LL << 30)) return "size: 1 to 2^30 bytes";
  if (pingpong) return NULL;
  if (lookup(c->op, op_names, COUNT_OF(op_names)) < 0) return "op: no plain loop of this op";
  if (lookup(c->sync, sync_names, COUNT_OF(sync_names)) < 0)
    return "sync: no plain loop of this synchronization";
  if (lookup(c->flavor, flavor_names, COUNT_OF(flavor_names)) < 0)
    return "flavor: create, allocate, shared or dynamic";
  return NULL;
}

/* Bytes one op moves, as common.lua's op_bytes: one i64 for the atomics, whole i64 elements
 * for the accumulate family, the size itself for put and get. */
static long long op_bytes(enum op op, long long size) {
  if (op == op_fetch_and_op || op == op_cas) return 8;
  if (op == op_put || op == op_get) return size;
  return size / 8 * 8 < 8 ? 8 : size / 8 * 8;
}

/* The first error of two results. C leaves the order of a call's arguments open: a call
 * whose order matters is made in a statement of its own before. */
static int first(int rc, int rc2) {
  return rc != MPI_SUCCESS ? rc : rc2;
}

/* Every rank makes the window (collective); rank 1's is the one ops reach. Every rank makes
 * every call whatever the calls before returned on it, so that neither waits in a call the
 * other skipped. MPI_SUCCESS or the first error. */
static int make_window(struct rmabench_plain* b) {
  const char* f = b->flavor;
  void* base = NULL;
  int rc = MPI_SUCCESS;
  b->disp = 0;
  if (strcmp(f, "create") == 0) {
    /* The harness gives a create window MPI_Alloc_mem memory (lua/lua_window.cpp). */
    rc = MPI_Win_create(b->alloced, b->win_bytes, 1, MPI_INFO_NULL, b->comm, &b->win);
  } else if (strcmp(f, "allocate") == 0) {
    rc = MPI_Win_allocate(b->win_bytes, 1, MPI_INFO_NULL, b->comm, &base, &b->win);
  } else if (strcmp(f, "shared") == 0) {
    rc = MPI_Win_allocate_shared(b->win_bytes, 1, MPI_INFO_NULL, b->comm, &base, &b->win);
  } else {
    /* Rank 1 attaches its memory and tells rank 0 where it is, as common.window does; the
     * message goes whether or not the attach worked, and says which. */
    MPI_Aint where[2] = {0, 0};
    rc = MPI_Win_create_dynamic(MPI_INFO_NULL, b->comm, &b->win);
    if (rc == MPI_SUCCESS) rc = MPI_Win_set_errhandler(b->win, MPI_ERRORS_RETURN);
    if (rc == MPI_SUCCESS) rc = MPI_Win_attach(b->win, b->attached, b->win_bytes);
    if (rc == MPI_SUCCESS) rc = MPI_Get_address(b->attached, &where[1]);
    where[0] = rc == MPI_SUCCESS;
    if (b->rank == 1) rc = first(rc, MPI_Send(where, 2, MPI_AINT, 0, 77, b->comm));
    if (b->rank == 0) {
      rc = first(rc, MPI_Recv(where, 2, MPI_AINT, 1, 77, b->comm, MPI_STATUS_IGNORE));
      if (!where[0]) rc = first(rc, MPI_ERR_OTHER); /* rank 1 could not attach */
    }
    b->disp = where[1];
    return rc;
  }
  if (rc != MPI_SUCCESS) return rc;
  return MPI_Win_set_errhandler(b->win, MPI_ERRORS_RETURN);
}

/* The op under test from rank 0 to rank 1. */
static int issue(const struct rmabench_plain* b) {
  static const int64_t one = 1, zero = 0;
  switch (b->op) {
    case op_put:
      return MPI_Put(b->data, b->count, b->dtype, 1, b->disp, b->count, b->dtype, b->win);
    case op_get:
      return MPI_Get(b->data, b->count, b->dtype, 1, b->disp, b->count, b->dtype, b->win);
    case op_accumulate:
      return MPI_Accumulate(b->data, b->count, b->dtype, 1, b->disp, b->count, b->dtype, MPI_SUM,
                            b->win);
    case op_get_accumulate:
      return MPI_Get_accumulate(b->data, b->count, b->dtype, b->result, b->count, b->dtype, 1,
                                b->disp, b->count, b->dtype, MPI_SUM, b->win);
    case op_fetch_and_op:
      return MPI_Fetch_and_op(&one, b->result, MPI_INT64_T, 1, b->disp, MPI_SUM, b->win);
    case op_cas:
      return MPI_Compare_and_swap(&zero, &zero, b->result, MPI_INT64_T, 1, b->disp, b->win);
  }
  return MPI_ERR_OTHER;
}

/* One round trip of bench/pingpong.lua: the same tag, the bytes sent back as received. */
static int pingpong(const struct rmabench_plain* b) {
  const int n = (int)b->size;
  int rc;
  if (b->rank == 0) {
    rc = MPI_Send(b->data, n, MPI_UINT8_T, 1, 7, b->comm);
    return rc != MPI_SUCCESS
               ? rc
               : MPI_Recv(b->result, n, MPI_UINT8_T, 1, 7, b->comm, MPI_STATUS_IGNORE);
  }
  rc = MPI_Recv(b->result, n, MPI_UINT8_T, 0, 7, b->comm, MPI_STATUS_IGNORE);
  return rc != MPI_SUCCESS ? rc : MPI_Send(b->result, n, MPI_UINT8_T, 0, 7, b->comm);
}

/* Chains calls: the first error returns it. */
#define TRY(call)                       \
  do {                                  \
    const int rc_ = (call);             \
    if (rc_ != MPI_SUCCESS) return rc_; \
  } while (0)

/* One iteration on this rank. An epoch once opened is closed even when the op failed (the
 * first error is returned), so that the other rank is not left waiting in its fence or
 * wait and no window is freed inside an epoch. */
static int iteration(const struct rmabench_plain* b) {
  const int origin = b->rank == 0;
  int rc = MPI_SUCCESS;
  if (b->pingpong) return pingpong(b);
  switch (b->sync) {
    case sync_lock:
      TRY(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, b->win));
      rc = issue(b);
      return first(rc, MPI_Win_unlock(1, b->win));
    case sync_lock_all:
      TRY(MPI_Win_lock_all(0, b->win));
      rc = issue(b);
      return first(rc, MPI_Win_unlock_all(b->win));
    case sync_flush:
      TRY(issue(b));
      return MPI_Win_flush(1, b->win);
    case sync_flush_local:
      TRY(issue(b));
      return MPI_Win_flush_local(1, b->win);
    case sync_fence:
      TRY(MPI_Win_fence(MPI_MODE_NOPRECEDE, b->win));
      if (origin) rc = issue(b);
      return first(rc, MPI_Win_fence(MPI_MODE_NOSUCCEED, b->win));
    case sync_pscw:
      if (!origin) {
        TRY(MPI_Win_post(b->peer, 0, b->win));
        return MPI_Win_wait(b->win);
      }
      TRY(MPI_Win_start(b->peer, 0, b->win));
      rc = issue(b);
      return first(rc, MPI_Win_complete(b->win));
  }
  return MPI_ERR_OTHER;
}

/* flush modes hold one lock_all epoch across the iterations, one op completed in it first, so
 * that no iteration pays for the grant (common.open_held). */
static int held(const struct rmabench_plain* b) {
  return !b->pingpong && (b->sync == sync_flush || b->sync == sync_flush_local);
}

/* Set-up, first part, local: the buffers, and the memory a create window is made over or a
 * dynamic window attaches. MPI_SUCCESS, MPI_ERR_NO_MEM or MPI_Alloc_mem's error. */
static int allocate(struct rmabench_plain* b) {
  const long long bytes = b->pingpong ? b->size : op_bytes(b->op, b->size);
  b->data = malloc((size_t)bytes);
  b->result = calloc(1, (size_t)bytes);
  if (!b->data || !b->result) return MPI_ERR_NO_MEM;
  memset(b->data, 1, (size_t)bytes);
  if (b->pingpong) return MPI_SUCCESS;
  const int atomic = b->op != op_put && b->op != op_get;
  b->dtype = atomic ? MPI_INT64_T : MPI_UINT8_T;
  b->count = (int)(atomic ? bytes / 8 : bytes);
  b->win_bytes = (MPI_Aint)(bytes < 8 ? 8 : bytes);
  if (strcmp(b->flavor, "create") == 0)
    return MPI_Alloc_mem(b->win_bytes, MPI_INFO_NULL, &b->alloced);
  if (strcmp(b->flavor, "dynamic") == 0) {
    b->attached = calloc(1, (size_t)b->win_bytes);
    if (!b->attached) return MPI_ERR_NO_MEM;
  }
  return MPI_SUCCESS;
}

/* Set-up, second part: the window (collective), the peer group and the held epoch (local).
 * MPI_SUCCESS or the first error. */
static int setup(struct rmabench_plain* b) {
  if (b->pingpong) return MPI_SUCCESS;
  TRY(make_window(b));
  MPI_Group world;
  const int other = 1 - b->rank;
  TRY(MPI_Comm_group(b->comm, &world));
  const int rc = MPI_Group_incl(world, 1, &other, &b->peer);
  MPI_Group_free(&world);
  TRY(rc);
  if (b->rank == 0 && held(b)) {
    TRY(MPI_Win_lock_all(0, b->win));
    int held_rc = issue(b);
    if (held_rc == MPI_SUCCESS) held_rc = MPI_Win_flush(1, b->win);
    if (held_rc != MPI_SUCCESS) MPI_Win_unlock_all(b->win);
    return held_rc;
  }
  return MPI_SUCCESS;
}

/* Whether `ok` holds on every rank of comm. */
static int agreed(int ok, MPI_Comm comm) {
  int all = 0;
  return MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm) == MPI_SUCCESS && all;
}

/* Frees what the loop allocated for itself alone (not the memory under a window). */
static void free_own(struct rmabench_plain* b) {
  free(b->data);
  free(b->result);
  free(b);
}

/* "<what>: <MPI's error string>" into why. */
static void explain(char* why, size_t why_size, int rc) {
  char text[MPI_MAX_ERROR_STRING] = "";
  int len = 0;
  if (!why_size) return;
  if (rc == MPI_SUCCESS) {
    snprintf(why, why_size, "setting up the plain loop failed on the other rank");
    return;
  }
  if (rc == MPI_ERR_NO_MEM)
    snprintf(text, sizeof text, "out of memory");
  else
    MPI_Error_string(rc, text, &len);
  snprintf(why, why_size, "setting up the plain loop: %s", text);
}

struct rmabench_plain* rmabench_plain_open(const struct rmabench_plain_config* c, MPI_Comm comm,
                                           char* why, size_t why_size) {
  const char* bad = rmabench_plain_check(c);
  int size = 0, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  if (!bad && size != 2) bad = "runs on exactly 2 ranks";
  if (bad) {
    if (why_size) snprintf(why, why_size, "%s", bad);
    return NULL;
  }
  struct rmabench_plain* b = calloc(1, sizeof *b);
  int rc = b ? MPI_SUCCESS : MPI_ERR_NO_MEM;
  if (b) {
    b->pingpong = strcmp(c->pattern, "pingpong") == 0;
    b->size = c->size;
    b->rank = rank;
    b->comm = MPI_COMM_NULL;
    if (!b->pingpong) {
      b->op = (enum op)lookup(c->op, op_names, COUNT_OF(op_names));
      b->sync = (enum sync)lookup(c->sync, sync_names, COUNT_OF(sync_names));
      b->flavor = flavor_names[lookup(c->flavor, flavor_names, COUNT_OF(flavor_names))];
    }
    rc = allocate(b);
  }
  /* Both ranks learn whether both have their memory before either enters a collective. */
  if (!agreed(rc == MPI_SUCCESS, comm)) {
    explain(why, why_size, rc);
    if (b) {
      if (b->alloced) MPI_Free_mem(b->alloced);
      free(b->attached);
      free_own(b);
    }
    return NULL;
  }
  rc = MPI_Comm_dup(comm, &b->comm);
  /* A duplicate keeps its parent's handler: the standalone program's world aborts. */
  if (rc == MPI_SUCCESS) rc = MPI_Comm_set_errhandler(b->comm, MPI_ERRORS_RETURN);
  if (rc == MPI_SUCCESS) rc = setup(b);
  /* And whether both are ready, so that neither times a loop the other left. */
  if (!agreed(rc == MPI_SUCCESS, comm)) {
    explain(why, why_size, rc);
    /* A held epoch is closed (completing its op), so the origin's buffers are free to go;
     * what MPI made, and the memory under a window, is left to MPI_Finalize: freeing it is
     * collective, and the other rank may not hold its part. */
    if (rc == MPI_SUCCESS && b->rank == 0 && held(b)) MPI_Win_unlock_all(b->win);
    free_own(b);
    return NULL;
  }
  MPI_Barrier(b->comm);
  return b;
}

int rmabench_plain_active(const struct rmabench_plain* b) {
  return b->rank == 0 || b->pingpong || b->sync == sync_fence || b->sync == sync_pscw;
}

int rmabench_plain_run(const struct rmabench_plain* b, long long n) {
  for (long long i = 0; i < n; ++i) TRY(iteration(b));
  return MPI_SUCCESS;
}

MPI_Comm rmabench_plain_comm(const struct rmabench_plain* b) {
  return b->comm;
}

void rmabench_plain_close(struct rmabench_plain* b) {
  if (!b) return;
  if (!b->pingpong) {
    if (b->rank == 0 && held(b)) MPI_Win_unlock_all(b->win);
    if (b->attached) MPI_Win_detach(b->win, b->attached);
    MPI_Group_free(&b->peer);
    MPI_Win_free(&b->win);
    if (b->alloced) MPI_Free_mem(b->alloced);
  }
  MPI_Comm_free(&b->comm);
  free(b->attached);
  free(b->data);
  free(b->result);
  free(b);
}
