// rma/window.hpp — an RMA window: MPI-3 one-sided communication and synchronization.
//
// Methods carry MPI's names in snake_case. Counts are elements of `dtype`; `disp` is in units
// of the target window's disp_unit (bytes for dynamic windows, where disp is an address the
// target attached). Every misuse returns an error class (RMA_SYNC, RMA_RANGE, ...) before any
// state changes, so a caller may go on after an error.
//
//   win->lock(rma::LockType::exclusive, 1);
//   win->put(buf, 8, rma::Dtype::u8, 1, 0);     // queued until the closing synchronization
//   win->unlock(1);                             // one packet out, one ack back
//
// Each window carries a table of operations chosen once at creation from `path`
// (am: packets only; direct: the backend's own mechanism); path() says which one runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>

#include "rma/counters.hpp"
#include "rma/datatype.hpp"
#include "rma/status.hpp"
#include "rma/types.hpp"

namespace rma {

namespace core {
class Win;
struct RequestState;
}  // namespace core

struct WindowConfig {
  Flavor flavor = Flavor::allocate;
  std::size_t size = 0;  // bytes (ignored for dynamic windows)
  int disp_unit = 1;
  void* base = nullptr;  // create: the user's memory, `size` bytes
  // MPI info keys: no_locks (true|false), accumulate_ordering (rar,raw,war,waw | none),
  // path (am|direct|auto), region_size (bytes per striped lock on the direct path),
  // alloc_shared_noncontig (true|false).
  std::map<std::string, std::string> info{};
};

// Memory of a window on some rank, as shared_query returns it.
struct SharedRegion {
  void* base = nullptr;
  std::size_t size = 0;
  int disp_unit = 1;
  std::shared_ptr<void> keeper{};  // keeps the mapping while a view of it is in use
};

// Handle of a request-based operation (rput, rget, raccumulate, rget_accumulate).
class Request {
 public:
  Request() = default;
  // Waits for local completion: the origin buffer may be reused, or the result has arrived.
  Status wait();
  Result<bool> test();
  bool valid() const { return state_ != nullptr; }

 private:
  friend class core::Win;
  explicit Request(std::shared_ptr<core::RequestState> s) : state_(std::move(s)) {}
  std::shared_ptr<core::RequestState> state_;
};

class Window {
 public:
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  int id() const;
  Flavor flavor() const;
  Path path() const;                // the table that runs: am or direct, never auto
  std::string path_detail() const;  // "am", "shm.direct", "fabric.direct(tcp;ofi_rxm)"
  void* base() const;               // local memory (null for dynamic)
  std::size_t size() const;
  int disp_unit() const;
  bool freed() const;
  // Shares ownership of memory the runtime allocated for the window, so views of it (the
  // harness's local_buffer) stay valid after free(). Null for user memory.
  std::shared_ptr<void> memory_keeper() const;
  // Packets and direct operations of this window since it was created.
  Counters counters() const;
  // Inside lock or lock_all: where an op may be completed on its own (flush_local).
  bool passive_access() const;

  // Communication.
  Status put(const void* origin, std::size_t count, Dtype dtype, int target, std::uint64_t disp);
  Status get(void* origin, std::size_t count, Dtype dtype, int target, std::uint64_t disp);
  Status accumulate(const void* origin, std::size_t count, Dtype dtype, int target,
                    std::uint64_t disp, Op op);
  // `origin` may be null for Op::no_op.
  Status get_accumulate(const void* origin, void* result, std::size_t count, Dtype dtype,
                        int target, std::uint64_t disp, Op op);
  Status fetch_and_op(const void* origin, void* result, Dtype dtype, int target, std::uint64_t disp,
                      Op op);
  Status compare_and_swap(const void* origin, const void* compare, void* result, Dtype dtype,
                          int target, std::uint64_t disp);
  Result<Request> rput(const void* origin, std::size_t count, Dtype dtype, int target,
                       std::uint64_t disp);
  Result<Request> rget(void* origin, std::size_t count, Dtype dtype, int target,
                       std::uint64_t disp);
  Result<Request> raccumulate(const void* origin, std::size_t count, Dtype dtype, int target,
                              std::uint64_t disp, Op op);
  Result<Request> rget_accumulate(const void* origin, void* result, std::size_t count, Dtype dtype,
                                  int target, std::uint64_t disp, Op op);

  // The same calls with a (count, type) on each side (rma/datatype.hpp): the signatures
  // must match; accumulates need types built from one basic type. For get, `o` describes
  // the buffer the data arrives in; get_accumulate's `origin` may be null for Op::no_op.
  Status put(const void* origin, const Layout& o, int target, std::uint64_t disp, const Layout& t);
  Status get(void* origin, const Layout& o, int target, std::uint64_t disp, const Layout& t);
  Status accumulate(const void* origin, const Layout& o, int target, std::uint64_t disp,
                    const Layout& t, Op op);
  Status get_accumulate(const void* origin, const Layout& o, void* result, const Layout& r,
                        int target, std::uint64_t disp, const Layout& t, Op op);
  Result<Request> rput(const void* origin, const Layout& o, int target, std::uint64_t disp,
                       const Layout& t);
  Result<Request> rget(void* origin, const Layout& o, int target, std::uint64_t disp,
                       const Layout& t);
  Result<Request> raccumulate(const void* origin, const Layout& o, int target, std::uint64_t disp,
                              const Layout& t, Op op);
  Result<Request> rget_accumulate(const void* origin, const Layout& o, void* result,
                                  const Layout& r, int target, std::uint64_t disp, const Layout& t,
                                  Op op);

  // Active target.
  Status fence(unsigned asserts = 0);
  Status post(std::span<const int> group, unsigned asserts = 0);
  Status start(std::span<const int> group, unsigned asserts = 0);
  Status complete();
  Status wait();
  Result<bool> test();

  // Passive target.
  Status lock(LockType type, int target, unsigned asserts = 0);
  Status unlock(int target);
  Status lock_all(unsigned asserts = 0);
  Status unlock_all();
  Status flush(int target);
  Status flush_local(int target);
  Status flush_all();
  Status flush_local_all();
  Status sync();

  // Dynamic windows: attach returns nothing; the displacement of a byte is its address.
  Status attach(void* base, std::size_t size);
  Status detach(const void* base);

  // Shared windows (and any window whose memory the caller can map).
  Result<SharedRegion> shared_query(int rank);

  // Collective. Fails with RMA_SYNC while an epoch is open.
  Status free();

  core::Win& impl() { return *w_; }

 private:
  friend class core::Win;
  explicit Window(std::unique_ptr<core::Win> w);
  std::unique_ptr<core::Win> w_;
};

}  // namespace rma
