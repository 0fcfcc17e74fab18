// implementation.hpp — the implementation under test, as one rank of a case sees it: the
// reference (ref_implementation.cpp, over rma::Runtime) or an MPI library (an MPI worker's
// mpi/mpi_impl.cpp). Everything the harness asks of an RMA library passes here: window
// creation, every call of call/call.hpp through execute(), what can be observed (packet
// counters, where the rank is blocked), a library's own plain loop of a benchmark pattern to
// time beside its replay, and nothing else.
//
// Errors are rma::Status values with MPI's error classes, whatever the library; a library
// that cannot observe something (an MPI library's packet counts) says so with nullopt.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "call/call.hpp"
#include "rma/counters.hpp"
#include "rma/state.hpp"
#include "rma/status.hpp"
#include "rma/types.hpp"
#include "rma/window.hpp"

namespace harness::impl {

// The request an r* call returns: wait() and test() complete it locally.
class Request {
 public:
  virtual ~Request() = default;
  virtual rma::Status wait() = 0;
  virtual rma::Result<bool> test() = 0;
};

// What a call returns besides its status: win:test()'s flag, an r* call's request, the bytes
// a recv received.
struct Outcome {
  bool flag = false;
  std::unique_ptr<Request> request;
  std::size_t received = 0;
};

// A window of the implementation under test: what a script may read of it beyond calls.
class Window {
 public:
  virtual ~Window() = default;
  virtual int id() const = 0;
  virtual rma::Flavor flavor() const = 0;
  // The reference's table ("am" or "direct"); for a library, its name ("mpich").
  virtual std::string path() const = 0;
  // For messages and state dumps: "shm.direct", "fabric.direct(tcp;ofi_rxm)", "mpich 4.0.2".
  virtual std::string path_detail() const = 0;
  virtual void* base() const = 0;  // local memory, null for dynamic windows
  virtual std::size_t size() const = 0;
  virtual bool freed() const = 0;
  // Inside a lock or lock_all epoch (where an op may be completed on its own).
  virtual bool passive_access() const = 0;
  // Keeps window memory the library allocated alive while a view of it is in use; null for
  // user memory or where the library frees it itself at free().
  virtual std::shared_ptr<void> memory_keeper() const = 0;
  virtual rma::Result<rma::SharedRegion> shared_query(int rank) = 0;
  // Packets and direct operations of this window; nullopt where they cannot be observed.
  virtual std::optional<rma::Counters> counters() const = 0;
};

// One benchmark pattern written directly against the library, timed beside the replay of the
// same pattern in the same processes (worker/plain_figure.hpp), so that the harness's own cost
// in a replayed figure can be read off.
struct PlainPattern {
  std::string pattern;  // "latency" (op, sync, flavor, size) or "pingpong" (size)
  std::string op, sync, flavor;
  std::uint64_t size = 0;
};
class PlainLoop {
 public:
  virtual ~PlainLoop() = default;
  // Whether this rank calls the library during an iteration (else it waits in the batch's
  // barrier, as a passive target of the replay does).
  virtual bool active() const = 0;
  // This rank's part of n iterations, back to back; the first failure ends them.
  virtual rma::Status run(std::uint64_t n) = 0;
};

// One rank of the implementation under test. Used from the rank's main thread, except
// state(), which the control thread calls while the main thread may be blocked.
class Implementation {
 public:
  virtual ~Implementation() = default;
  // "ref", or a library with its version: "mpich 4.0.2", "openmpi 4.1.4 osc=sm".
  virtual std::string name() const = 0;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Whether execute() takes a Call's layouts (derived datatypes); where it does not, the
  // bindings refuse a layout as UNSUPPORTED rather than run the op without it.
  virtual bool supports_layouts() const { return false; }
  // Largest transfer sent in one message where the implementation says (0 when unknown).
  virtual std::size_t eager_limit() const = 0;

  // Collective. The implementation keeps the window until the process ends.
  virtual rma::Result<Window*> create_window(const rma::WindowConfig& config) = 0;
  // MPI_Alloc_mem / MPI_Free_mem.
  virtual rma::Result<void*> alloc_mem(std::size_t bytes) = 0;
  virtual rma::Status free_mem(void* base) = 0;

  // Executes one call: window calls on call.win, job calls (barrier, send, recv) on the job.
  // `out` receives an r* call's request (required for them), test()'s flag and the bytes a
  // recv received (its argument is `bytes`, the most it may receive).
  virtual rma::Status execute(const call::Call& call, Outcome* out = nullptr) = 0;

  // One call resolved once to the function that runs it, for replays (impl/program.hpp):
  // run(target, call, failure) does what execute(call) would, without its dispatch, and
  // says whether it succeeded; only a failure fills `failure`. (A Status owns a pointer and
  // is returned through memory: built, checked and destroyed at every call of a timed loop,
  // it cost about as much as an MPI library's put.) An empty one (run null) replays through
  // execute().
  struct Bound {
    bool (*run)(void* target, const call::Call& call, rma::Status& failure) = nullptr;
    void* target = nullptr;
  };
  // The implementation's binding of `call`, if it has one; the call's window and buffers
  // must outlive it.
  virtual Bound bind(const call::Call& call) {
    (void)call;
    return {};
  }

  // The job's calls through execute(), for harness code (barriers between phases, benchmark
  // commands).
  rma::Status barrier() {
    call::Call c;
    c.kind = call::Kind::barrier;
    return execute(c);
  }
  rma::Status send(int dst, const void* buf, std::size_t bytes, int tag) {
    call::Call c;
    c.kind = call::Kind::send;
    c.target = dst, c.origin = buf, c.bytes = bytes, c.tag = tag;
    return execute(c);
  }
  rma::Status recv(int src, void* buf, std::size_t bytes, int tag) {
    call::Call c;
    c.kind = call::Kind::recv;
    c.target = src, c.result = buf, c.bytes = bytes, c.tag = tag;
    return execute(c);
  }

  // Collective: the library's own loop of `pattern`, or UNSUPPORTED with the reason (the
  // reference has none: its replay is the only way it is driven).
  virtual rma::Result<std::unique_ptr<PlainLoop>> plain_loop(const PlainPattern& pattern) {
    (void)pattern;
    return rma::Status(rma::ErrorClass::unsupported, name() + " has no plain loop");
  }

  // Packets this rank sent since it started; nullopt where they cannot be observed.
  virtual std::optional<rma::Counters> counters() const = 0;
  // Where the rank is (the call it is blocked in, its windows' epochs), for state dumps.
  virtual rma::RankState state() const = 0;
  // Drives progress once, for harness code that waits on something outside the library.
  virtual void poke() = 0;
};

}  // namespace harness::impl
