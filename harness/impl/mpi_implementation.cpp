// mpi_implementation.cpp — the calls of call/call.hpp on an MPI library (see the header).
// Compiled once per MPI, with that MPI's <mpi.h>; nothing here depends on which one.
#include "impl/mpi_implementation.hpp"
#include "impl/mpi_types.hpp"

#include <mpi.h>

#include <array>
#include <atomic>
#include <climits>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "impl/mpi_call_slot.hpp"

namespace harness::impl {
namespace {

using call::Kind;

// --- MPI's names for our vocabulary ------------------------------------------------------

MPI_Op mpi_op(rma::Op op) {
  switch (op) {
    case rma::Op::sum:
      return MPI_SUM;
    case rma::Op::prod:
      return MPI_PROD;
    case rma::Op::min:
      return MPI_MIN;
    case rma::Op::max:
      return MPI_MAX;
    case rma::Op::band:
      return MPI_BAND;
    case rma::Op::bor:
      return MPI_BOR;
    case rma::Op::bxor:
      return MPI_BXOR;
    case rma::Op::land:
      return MPI_LAND;
    case rma::Op::lor:
      return MPI_LOR;
    case rma::Op::lxor:
      return MPI_LXOR;
    case rma::Op::replace:
      return MPI_REPLACE;
    case rma::Op::no_op:
      return MPI_NO_OP;
    case rma::Op::maxloc:
      return MPI_MAXLOC;
    case rma::Op::minloc:
      return MPI_MINLOC;
  }
  return MPI_OP_NULL;
}

// Every combination of rma's five assert bits, as MPI's mode bits.
constexpr auto kAsserts = [] {
  std::array<int, 32> t{};
  for (unsigned a = 0; a < t.size(); ++a) {
    int m = 0;
    if (a & rma::assert_nocheck) m |= MPI_MODE_NOCHECK;
    if (a & rma::assert_nostore) m |= MPI_MODE_NOSTORE;
    if (a & rma::assert_noput) m |= MPI_MODE_NOPUT;
    if (a & rma::assert_noprecede) m |= MPI_MODE_NOPRECEDE;
    if (a & rma::assert_nosucceed) m |= MPI_MODE_NOSUCCEED;
    t[a] = m;
  }
  return t;
}();

int mpi_asserts(unsigned a) {
  return kAsserts[a & 31u];
}

int mpi_rank(int target) {
  return target == rma::proc_null ? MPI_PROC_NULL : target;
}

// The family of a call, read off the one list (call.hpp) so that this file links on its own.
constexpr call::Family family(Kind k) {
  switch (k) {
#define RMABENCH_MPI_FAMILY(name, fam, ...) \
  case Kind::name:                          \
    return call::Family::fam;
    RMABENCH_CALLS(RMABENCH_MPI_FAMILY)
#undef RMABENCH_MPI_FAMILY
  }
  return call::Family::job;
}

// The MPI function a call becomes: what state dumps and error messages name.
constexpr const char* mpi_name(Kind k) {
  switch (k) {
    case Kind::put:
      return "MPI_Put";
    case Kind::get:
      return "MPI_Get";
    case Kind::accumulate:
      return "MPI_Accumulate";
    case Kind::get_accumulate:
      return "MPI_Get_accumulate";
    case Kind::fetch_and_op:
      return "MPI_Fetch_and_op";
    case Kind::compare_and_swap:
      return "MPI_Compare_and_swap";
    case Kind::rput:
      return "MPI_Rput";
    case Kind::rget:
      return "MPI_Rget";
    case Kind::raccumulate:
      return "MPI_Raccumulate";
    case Kind::rget_accumulate:
      return "MPI_Rget_accumulate";
    case Kind::fence:
      return "MPI_Win_fence";
    case Kind::post:
      return "MPI_Win_post";
    case Kind::start:
      return "MPI_Win_start";
    case Kind::complete:
      return "MPI_Win_complete";
    case Kind::wait:
      return "MPI_Win_wait";
    case Kind::test:
      return "MPI_Win_test";
    case Kind::lock:
      return "MPI_Win_lock";
    case Kind::unlock:
      return "MPI_Win_unlock";
    case Kind::lock_all:
      return "MPI_Win_lock_all";
    case Kind::unlock_all:
      return "MPI_Win_unlock_all";
    case Kind::flush:
      return "MPI_Win_flush";
    case Kind::flush_local:
      return "MPI_Win_flush_local";
    case Kind::flush_all:
      return "MPI_Win_flush_all";
    case Kind::flush_local_all:
      return "MPI_Win_flush_local_all";
    case Kind::sync:
      return "MPI_Win_sync";
    case Kind::attach:
      return "MPI_Win_attach";
    case Kind::detach:
      return "MPI_Win_detach";
    case Kind::free:
      return "MPI_Win_free";
    case Kind::barrier:
      return "MPI_Barrier";
    case Kind::send:
      return "MPI_Send";
    case Kind::recv:
      return "MPI_Recv";
  }
  return "MPI_?";
}

// A recv's byte count into Outcome::received where the interface has that field (it comes
// with the harness's Lua bindings on the seam); a no-op where it does not yet.
template <class O>
void set_received(O* out, std::size_t bytes) {
  if constexpr (requires(O o) { o.received = bytes; }) {
    if (out) out->received = bytes;
  }
}

// The calls that take a target rank (for messages and state dumps).
constexpr bool has_target(Kind k) {
  switch (k) {
    case Kind::put:
    case Kind::get:
    case Kind::accumulate:
    case Kind::get_accumulate:
    case Kind::fetch_and_op:
    case Kind::compare_and_swap:
    case Kind::rput:
    case Kind::rget:
    case Kind::raccumulate:
    case Kind::rget_accumulate:
    case Kind::lock:
    case Kind::unlock:
    case Kind::flush:
    case Kind::flush_local:
    case Kind::send:
    case Kind::recv:
      return true;
    default:
      return false;
  }
}

// The three above per kind, looked up once per call a replay makes instead of three switches
// (each an indirect jump), as the reference's dispatch reads call::describe's table.
struct KindInfo {
  const char* name = nullptr;
  bool has_target = false;
  call::Family family = call::Family::job;
};
constexpr auto kKinds = [] {
  std::array<KindInfo, static_cast<std::size_t>(call::kind_count)> a{};
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto k = static_cast<Kind>(i);
    a[i] = {mpi_name(k), has_target(k), family(k)};
  }
  return a;
}();
const KindInfo& info(Kind k) {
  return kKinds[static_cast<std::size_t>(k)];
}

rma::ErrorClass error_class_of(int mpi_class) {
  using E = rma::ErrorClass;
  static const std::map<int, E> table = {
      {MPI_ERR_ARG, E::arg},
      {MPI_ERR_TYPE, E::type},
      {MPI_ERR_OP, E::op},
      {MPI_ERR_RANK, E::rank},
      {MPI_ERR_COUNT, E::count},
      {MPI_ERR_BUFFER, E::buffer},
      {MPI_ERR_TRUNCATE, E::truncate},
      {MPI_ERR_WIN, E::win},
      {MPI_ERR_LOCKTYPE, E::locktype},
      {MPI_ERR_ASSERT, E::assert_},
      {MPI_ERR_DISP, E::disp},
      {MPI_ERR_SIZE, E::size},
      {MPI_ERR_INFO, E::info},
      {MPI_ERR_INFO_KEY, E::info},
      {MPI_ERR_INFO_VALUE, E::info},
      {MPI_ERR_INFO_NOKEY, E::info},
      {MPI_ERR_RMA_SYNC, E::rma_sync},
      {MPI_ERR_RMA_RANGE, E::rma_range},
      {MPI_ERR_RMA_CONFLICT, E::rma_conflict},
      {MPI_ERR_RMA_ATTACH, E::rma_attach},
      {MPI_ERR_RMA_SHARED, E::rma_shared},
      {MPI_ERR_RMA_FLAVOR, E::rma_flavor},
      {MPI_ERR_UNSUPPORTED_OPERATION, E::unsupported},
      {MPI_ERR_INTERN, E::intern},
      // Classes rma has no name of its own for: the nearest one, the MPI class in the text.
      {MPI_ERR_GROUP, E::arg},
      {MPI_ERR_TAG, E::arg},
      {MPI_ERR_ROOT, E::arg},
      {MPI_ERR_BASE, E::arg},
      {MPI_ERR_NO_MEM, E::other},
      {MPI_ERR_OTHER, E::other},
  };
  auto it = table.find(mpi_class);
  return it == table.end() ? E::other : it->second;
}

std::string error_string(int code) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  if (MPI_Error_string(code, text, &len) != MPI_SUCCESS)
    return "MPI error code " + std::to_string(code);
  std::string s(text, static_cast<std::size_t>(len));
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

class MpiImpl;

class MpiWindow final : public Window {
 public:
  MpiWindow(MpiImpl& impl, int id, MPI_Win win, const rma::WindowConfig& c, void* base,
            int ranks)
      : impl_(impl),
        id_(id),
        win_(win),
        flavor_(c.flavor),
        base_(base),
        size_(c.flavor == rma::Flavor::dynamic ? 0 : c.size),
        locks_(static_cast<std::size_t>(ranks)) {}

  int id() const override { return id_; }
  rma::Flavor flavor() const override { return flavor_; }
  std::string path() const override;
  std::string path_detail() const override;
  void* base() const override { return base_; }
  std::size_t size() const override { return size_; }
  bool freed() const override;
  bool passive_access() const override;
  std::shared_ptr<void> memory_keeper() const override { return nullptr; }
  rma::Result<rma::SharedRegion> shared_query(int rank) override;
  std::optional<rma::Counters> counters() const override { return std::nullopt; }

  MPI_Win handle() const { return win_; }

 private:
  friend class MpiImpl;
  MpiImpl& impl_;
  int id_;
  MPI_Win win_;
  rma::Flavor flavor_;
  void* base_;
  std::size_t size_;
  // Epochs as this rank opened them: MPI cannot be asked. Written by the main thread at every
  // synchronization call a benchmark replays, read by state() from the control thread:
  // atomics, not a lock (a state dump may see one call's change half made).
  std::atomic<bool> freed_{false};
  std::atomic<const char*> access_{"none"};
  std::atomic<const char*> exposure_{"none"};
  // Per target rank: 0 not locked, else 1 + the rma::LockType of the lock this rank holds.
  std::vector<std::atomic<std::uint8_t>> locks_;
  int locked_ = 0;  // targets locked now, MPI_PROC_NULL included (main thread only)
  bool null_locked_ = false;  // MPI_PROC_NULL is locked: an epoch, with no rank to show
  std::atomic<bool> lock_all_{false};
};

class MpiRequest final : public Request {
 public:
  MpiRequest(MpiImpl& impl, MPI_Request req, int window, int target)
      : impl_(impl), req_(req), window_(window), target_(target) {}
  ~MpiRequest() override;
  rma::Status wait() override;
  rma::Result<bool> test() override;

 private:
  MpiImpl& impl_;
  MPI_Request req_;
  int window_;
  int target_;
};

class MpiImpl final : public Implementation {
 public:
  explicit MpiImpl(std::string osc) : osc_(std::move(osc)) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm_group(MPI_COMM_WORLD, &world_group_);
    // A private communicator for poke(): probing it never matches a script's message.
    MPI_Comm_dup(MPI_COMM_WORLD, &poke_comm_);
    name_ = mpi_impl_name(osc_);
  }

  std::string name() const override { return name_; }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::size_t eager_limit() const override { return 0; }  // the library does not say
  bool supports_layouts() const override { return true; }

  rma::Result<Window*> create_window(const rma::WindowConfig& config) override;
  rma::Result<void*> alloc_mem(std::size_t bytes) override;
  rma::Status free_mem(void* base) override;
  rma::Status execute(const call::Call& call, Outcome* out) override;
  std::optional<rma::Counters> counters() const override { return std::nullopt; }
  rma::RankState state() const override;
  void poke() override {
    int flag = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, poke_comm_, &flag, MPI_STATUS_IGNORE);
  }

  rma::Status finalize();

  // A failed MPI call as a Status: "MPI_Put: window 2, target 1: <MPI's text>".
  rma::Status failure(int code, const char* call, int window, int target) const {
    int cls = MPI_ERR_OTHER;
    MPI_Error_class(code, &cls);
    std::string where = call;
    if (window >= 0) where += ": window " + std::to_string(window);
    if (target >= -1) where += (window >= 0 ? ", target " : ": target ") + std::to_string(target);
    return {error_class_of(cls), where + ": " + error_string(code)};
  }

  CallSlot& slot() { return slot_; }

 private:
  rma::Status window_call(const call::Call& c, MpiWindow& w, Outcome* out);
  rma::Status layout_types(const call::Call& c, MPI_Datatype& odt, int& on, MPI_Datatype& rdt,
                           int& rn, MPI_Datatype& tdt, int& tn);
  rma::Status job_call(const call::Call& c, Outcome* out);
  void note_epoch(const call::Call& c, MpiWindow& w, bool test_flag);
  // Makes group_ the group of these world ranks. A replayed post or start names the same
  // ranks every iteration: the group is kept rather than made and freed per call, as a
  // program written against MPI keeps it.
  int group_of(const std::vector<int>& ranks) {
    if (group_ != MPI_GROUP_NULL && ranks == group_ranks_) return MPI_SUCCESS;
    if (group_ != MPI_GROUP_NULL) MPI_Group_free(&group_);
    group_ranks_.clear();
    const int rc = MPI_Group_incl(world_group_, static_cast<int>(ranks.size()), ranks.data(), &group_);
    if (rc == MPI_SUCCESS) group_ranks_ = ranks;
    return rc;
  }

  std::string osc_;
  std::string name_;
  int rank_ = 0;
  int size_ = 0;
  MPI_Group world_group_ = MPI_GROUP_NULL;
  MPI_Comm poke_comm_ = MPI_COMM_NULL;
  MpiTypes types_;  // derived types, built on first use and freed before MPI_Finalize
  MPI_Group group_ = MPI_GROUP_NULL;  // the last post's or start's (group_of)
  const Window* last_win_ = nullptr;  // the last call's window, and it as ours (execute)
  MpiWindow* last_mpi_win_ = nullptr;
  std::vector<int> group_ranks_;
  CallSlot slot_;
  mutable std::mutex state_mu_;
  std::vector<std::unique_ptr<MpiWindow>> windows_;
};

std::string MpiWindow::path() const {
  const std::string n = impl_.name();
  return n.substr(0, n.find(' '));
}
std::string MpiWindow::path_detail() const {
  return impl_.name();
}

bool MpiWindow::freed() const {
  return freed_.load(std::memory_order_relaxed);
}

bool MpiWindow::passive_access() const {
  return lock_all_.load(std::memory_order_relaxed) || locked_ > 0;
}

rma::Result<rma::SharedRegion> MpiWindow::shared_query(int rank) {
  if (freed())
    return rma::Status(rma::ErrorClass::win,
                       "MPI_Win_shared_query: window " + std::to_string(id_) + " was freed");
  Tracked t(impl_.slot(), "MPI_Win_shared_query", id_, rank);
  MPI_Aint size = 0;
  int disp_unit = 1;
  void* base = nullptr;
  const int rc = MPI_Win_shared_query(win_, mpi_rank(rank), &size, &disp_unit, &base);
  if (rc != MPI_SUCCESS) return impl_.failure(rc, "MPI_Win_shared_query", id_, rank);
  rma::SharedRegion r;
  r.base = base;
  r.size = static_cast<std::size_t>(size);
  r.disp_unit = disp_unit;
  return r;
}

MpiRequest::~MpiRequest() {
  // A request dropped before completion: MPI keeps it going; we only give up the handle.
  if (req_ != MPI_REQUEST_NULL) MPI_Request_free(&req_);
}

rma::Status MpiRequest::wait() {
  Tracked t(impl_.slot(), "MPI_Wait", window_, target_);
  const int rc = MPI_Wait(&req_, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) return impl_.failure(rc, "MPI_Wait", window_, target_);
  return {};
}

rma::Result<bool> MpiRequest::test() {
  Tracked t(impl_.slot(), "MPI_Test", window_, target_);
  int flag = 0;
  const int rc = MPI_Test(&req_, &flag, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) return impl_.failure(rc, "MPI_Test", window_, target_);
  return flag != 0;
}

rma::Result<Window*> MpiImpl::create_window(const rma::WindowConfig& config) {
  const char* call = "MPI_Win_allocate";
  switch (config.flavor) {
    case rma::Flavor::create:
      call = "MPI_Win_create";
      break;
    case rma::Flavor::allocate:
      call = "MPI_Win_allocate";
      break;
    case rma::Flavor::shared:
      call = "MPI_Win_allocate_shared";
      break;
    case rma::Flavor::dynamic:
      call = "MPI_Win_create_dynamic";
      break;
  }
  Tracked t(slot_, call, -1, -2);
  MPI_Info info = MPI_INFO_NULL;
  if (!config.info.empty()) {
    MPI_Info_create(&info);
    for (const auto& [k, v] : config.info) MPI_Info_set(info, k.c_str(), v.c_str());
  }
  MPI_Win win = MPI_WIN_NULL;
  void* base = nullptr;
  const auto bytes = static_cast<MPI_Aint>(config.size);
  int rc = MPI_SUCCESS;
  switch (config.flavor) {
    case rma::Flavor::create:
      base = config.base;
      rc = MPI_Win_create(base, bytes, config.disp_unit, info, MPI_COMM_WORLD, &win);
      break;
    case rma::Flavor::allocate:
      rc = MPI_Win_allocate(bytes, config.disp_unit, info, MPI_COMM_WORLD, &base, &win);
      break;
    case rma::Flavor::shared:
      rc = MPI_Win_allocate_shared(bytes, config.disp_unit, info, MPI_COMM_WORLD, &base, &win);
      break;
    case rma::Flavor::dynamic:
      rc = MPI_Win_create_dynamic(info, MPI_COMM_WORLD, &win);
      break;
  }
  if (info != MPI_INFO_NULL) MPI_Info_free(&info);
  if (rc != MPI_SUCCESS) return failure(rc, call, -1, -2);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  std::lock_guard g(state_mu_);
  const int id = static_cast<int>(windows_.size()) + 1;
  windows_.push_back(std::make_unique<MpiWindow>(*this, id, win, config, base, size_));
  return static_cast<Window*>(windows_.back().get());
}

rma::Result<void*> MpiImpl::alloc_mem(std::size_t bytes) {
  Tracked t(slot_, "MPI_Alloc_mem", -1, -2);
  void* p = nullptr;
  const int rc = MPI_Alloc_mem(static_cast<MPI_Aint>(bytes), MPI_INFO_NULL, &p);
  if (rc != MPI_SUCCESS) return failure(rc, "MPI_Alloc_mem", -1, -2);
  return p;
}

rma::Status MpiImpl::free_mem(void* base) {
  Tracked t(slot_, "MPI_Free_mem", -1, -2);
  const int rc = MPI_Free_mem(base);
  if (rc != MPI_SUCCESS) return failure(rc, "MPI_Free_mem", -1, -2);
  return {};
}

rma::Status MpiImpl::execute(const call::Call& c, Outcome* out) {
  if (info(c.kind).family == call::Family::job) return job_call(c, out);
  // A replay names the same window call after call: its cast is kept (windows live as long as
  // this object), since dynamic_cast's type walk cost more per call than osc/sm's MPI_Put.
  MpiWindow* w = c.win == last_win_ ? last_mpi_win_ : dynamic_cast<MpiWindow*>(c.win);
  if (!w) return {rma::ErrorClass::win, std::string(mpi_name(c.kind)) + ": no window of this MPI"};
  last_win_ = c.win;
  last_mpi_win_ = w;
  // MPI_WIN_NULL after MPI_Win_free: passing it on is erroneous in MPI, not a test of the
  // library; the harness answers as the reference does.
  if (w->freed_.load(std::memory_order_relaxed))
    return {rma::ErrorClass::win,
            std::string(mpi_name(c.kind)) + ": window " + std::to_string(w->id_) + " was freed"};
  if (c.count > static_cast<std::size_t>(INT_MAX))
    return {rma::ErrorClass::count, std::string(mpi_name(c.kind)) + ": count " +
                                        std::to_string(c.count) + " exceeds MPI's int"};
  return window_call(c, *w, out);
}

rma::Status MpiImpl::job_call(const call::Call& c, Outcome* out) {
  const char* name = mpi_name(c.kind);
  const int peer = has_target(c.kind) ? c.target : -2;
  Tracked t(slot_, name, -1, peer);
  if (c.bytes > static_cast<std::size_t>(INT_MAX))
    return {rma::ErrorClass::count,
            std::string(name) + ": " + std::to_string(c.bytes) + " bytes exceed MPI's int"};
  const int n = static_cast<int>(c.bytes);
  int rc = MPI_SUCCESS;
  switch (c.kind) {
    case Kind::barrier:
      rc = MPI_Barrier(MPI_COMM_WORLD);
      break;
    case Kind::send:
      rc = MPI_Send(c.origin, n, MPI_BYTE, mpi_rank(c.target), c.tag, MPI_COMM_WORLD);
      break;
    case Kind::recv: {
      MPI_Status st;
      rc = MPI_Recv(c.result, n, MPI_BYTE, mpi_rank(c.target), c.tag, MPI_COMM_WORLD, &st);
      int got = 0;
      if (rc == MPI_SUCCESS && MPI_Get_count(&st, MPI_BYTE, &got) == MPI_SUCCESS)
        set_received(out, static_cast<std::size_t>(got));
      break;
    }
    default:
      return {rma::ErrorClass::intern, std::string(name) + ": not a job call"};
  }
  if (rc != MPI_SUCCESS) return failure(rc, name, -1, peer);
  return {};
}

// The MPI types and counts of a call's layouts; a count beyond an int is COUNT.
rma::Status MpiImpl::layout_types(const call::Call& c, MPI_Datatype& odt, int& on,
                                  MPI_Datatype& rdt, int& rn, MPI_Datatype& tdt, int& tn) {
  auto side = [&](const rma::Layout& l, MPI_Datatype& dt, int& n) -> rma::Status {
    if (!l.type) return {};
    if (l.count > INT_MAX)
      return {rma::ErrorClass::count, std::string(mpi_name(c.kind)) + ": a count of " +
                                          std::to_string(l.count) + " is beyond MPI's int"};
    const MpiTypes::Built b = types_.get(l.type);
    if (b.rc != MPI_SUCCESS) return failure(b.rc, b.call, -1, -2);
    dt = b.type;
    n = static_cast<int>(l.count);
    return {};
  };
  RMA_TRY(side(c.origin_layout, odt, on));
  RMA_TRY(side(c.result_layout, rdt, rn));
  return side(c.target_layout, tdt, tn);
}

rma::Status MpiImpl::window_call(const call::Call& c, MpiWindow& w, Outcome* out) {
  const KindInfo& kind = info(c.kind);
  const char* name = kind.name;
  const int target = kind.has_target ? c.target : -2;
  Tracked t(slot_, name, w.id_, target);
  const MPI_Win win = w.win_;
  const MPI_Datatype dt = mpi_dtype(c.dtype);
  const int n = static_cast<int>(c.count);
  // Each side's (count, type): the call's own, or its layout's (rma/datatype.hpp).
  MPI_Datatype odt = dt, rdt = dt, tdt = dt;
  int on = n, rn = n, tn = n;
  if (c.has_layout()) RMA_TRY(layout_types(c, odt, on, rdt, rn, tdt, tn));
  const int tr = mpi_rank(c.target);
  const auto disp = static_cast<MPI_Aint>(c.disp);
  const int asserts = mpi_asserts(c.asserts);
  MPI_Request req = MPI_REQUEST_NULL;
  int flag = 0;
  int rc = MPI_SUCCESS;

  auto with_group = [&](auto fn) {
    const int grc = group_of(c.group);
    return grc != MPI_SUCCESS ? grc : fn(group_);
  };

  switch (c.kind) {
    case Kind::put:
      rc = MPI_Put(c.origin, on, odt, tr, disp, tn, tdt, win);
      break;
    case Kind::get:
      rc = MPI_Get(c.result, on, odt, tr, disp, tn, tdt, win);
      break;
    case Kind::accumulate:
      rc = MPI_Accumulate(c.origin, on, odt, tr, disp, tn, tdt, mpi_op(c.op), win);
      break;
    case Kind::get_accumulate:
      rc = MPI_Get_accumulate(c.origin, on, odt, c.result, rn, rdt, tr, disp, tn, tdt, mpi_op(c.op),
                              win);
      break;
    case Kind::fetch_and_op:
      rc = MPI_Fetch_and_op(c.origin, c.result, dt, tr, disp, mpi_op(c.op), win);
      break;
    case Kind::compare_and_swap:
      rc = MPI_Compare_and_swap(c.origin, c.compare, c.result, dt, tr, disp, win);
      break;
    case Kind::rput:
      rc = MPI_Rput(c.origin, on, odt, tr, disp, tn, tdt, win, &req);
      break;
    case Kind::rget:
      rc = MPI_Rget(c.result, on, odt, tr, disp, tn, tdt, win, &req);
      break;
    case Kind::raccumulate:
      rc = MPI_Raccumulate(c.origin, on, odt, tr, disp, tn, tdt, mpi_op(c.op), win, &req);
      break;
    case Kind::rget_accumulate:
      rc = MPI_Rget_accumulate(c.origin, on, odt, c.result, rn, rdt, tr, disp, tn, tdt, mpi_op(c.op),
                               win, &req);
      break;
    case Kind::fence:
      rc = MPI_Win_fence(asserts, win);
      break;
    case Kind::post:
      rc = with_group([&](MPI_Group g) { return MPI_Win_post(g, asserts, win); });
      break;
    case Kind::start:
      rc = with_group([&](MPI_Group g) { return MPI_Win_start(g, asserts, win); });
      break;
    case Kind::complete:
      rc = MPI_Win_complete(win);
      break;
    case Kind::wait:
      rc = MPI_Win_wait(win);
      break;
    case Kind::test:
      rc = MPI_Win_test(win, &flag);
      break;
    case Kind::lock:
      rc = MPI_Win_lock(c.lock_type == rma::LockType::shared ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE,
                        tr, asserts, win);
      break;
    case Kind::unlock:
      rc = MPI_Win_unlock(tr, win);
      break;
    case Kind::lock_all:
      rc = MPI_Win_lock_all(asserts, win);
      break;
    case Kind::unlock_all:
      rc = MPI_Win_unlock_all(win);
      break;
    case Kind::flush:
      rc = MPI_Win_flush(tr, win);
      break;
    case Kind::flush_local:
      rc = MPI_Win_flush_local(tr, win);
      break;
    case Kind::flush_all:
      rc = MPI_Win_flush_all(win);
      break;
    case Kind::flush_local_all:
      rc = MPI_Win_flush_local_all(win);
      break;
    case Kind::sync:
      rc = MPI_Win_sync(win);
      break;
    case Kind::attach:
      rc = MPI_Win_attach(win, const_cast<void*>(c.origin), static_cast<MPI_Aint>(c.bytes));
      break;
    case Kind::detach:
      rc = MPI_Win_detach(win, c.origin);
      break;
    case Kind::free: {
      MPI_Win h = win;
      rc = MPI_Win_free(&h);
      break;
    }
    case Kind::barrier:
    case Kind::send:
    case Kind::recv:
      return {rma::ErrorClass::intern, std::string(name) + ": a job call on a window"};
  }
  if (rc != MPI_SUCCESS) return failure(rc, name, w.id_, target);
  if (kind.family == call::Family::request) {
    if (!out) {
      MPI_Request_free(&req);
      return {rma::ErrorClass::intern, std::string(name) + ": no place for the request"};
    }
    out->request = std::make_unique<MpiRequest>(*this, req, w.id_, target);
  }
  if (c.kind == Kind::test && out) out->flag = flag != 0;
  if (kind.family == call::Family::synchronization || c.kind == Kind::free)
    note_epoch(c, w, flag != 0);
  return {};
}

// Records the epochs a successful call opened or closed, for passive_access() and state().
void MpiImpl::note_epoch(const call::Call& c, MpiWindow& w, bool test_flag) {
  constexpr auto r = std::memory_order_relaxed;
  switch (c.kind) {
    case Kind::fence: {
      const bool last = (c.asserts & rma::assert_nosucceed) != 0;
      w.access_.store(last ? "none" : "fence", r);
      w.exposure_.store(last ? "none" : "fence", r);
      break;
    }
    case Kind::post:
      w.exposure_.store("post", r);
      break;
    case Kind::start:
      w.access_.store("pscw", r);
      break;
    case Kind::complete:
      w.access_.store("none", r);
      break;
    case Kind::wait:
      w.exposure_.store("none", r);
      break;
    case Kind::test:
      if (test_flag) w.exposure_.store("none", r);
      break;
    case Kind::lock:
      if (c.target >= 0 && c.target < size_) {
        auto& slot = w.locks_[static_cast<std::size_t>(c.target)];
        if (slot.load(r) == 0) ++w.locked_;
        slot.store(static_cast<std::uint8_t>(1 + static_cast<int>(c.lock_type)), r);
      } else if (!w.null_locked_) {
        w.null_locked_ = true;
        ++w.locked_;
      }
      w.access_.store("lock", r);
      break;
    case Kind::unlock:
      if (c.target >= 0 && c.target < size_) {
        auto& slot = w.locks_[static_cast<std::size_t>(c.target)];
        if (slot.load(r) != 0) --w.locked_;
        slot.store(0, r);
      } else if (w.null_locked_) {
        w.null_locked_ = false;
        --w.locked_;
      }
      if (w.locked_ == 0) w.access_.store("none", r);
      break;
    case Kind::lock_all:
      w.lock_all_.store(true, r);
      w.access_.store("lock_all", r);
      break;
    case Kind::unlock_all:
      w.lock_all_.store(false, r);
      w.access_.store("none", r);
      break;
    case Kind::free:
      w.freed_.store(true, r);
      break;
    default:
      break;
  }
}

rma::RankState MpiImpl::state() const {
  rma::RankState s;
  s.rank = rank_;
  s.call = slot_.snapshot();
  constexpr auto r = std::memory_order_relaxed;
  std::lock_guard g(state_mu_);  // windows_ grows on the main thread
  for (const auto& w : windows_) {
    if (w->freed_.load(r)) continue;
    rma::WindowState ws;
    ws.id = w->id_;
    ws.flavor = std::string(rma::to_string(w->flavor_));
    ws.path = name_;
    ws.access_epoch = w->access_.load(r);
    ws.exposure_epoch = w->exposure_.load(r);
    for (std::size_t target = 0; target < w->locks_.size(); ++target) {
      const int held = w->locks_[target].load(r);
      if (held == 0) continue;
      rma::TargetState ts;
      ts.target = static_cast<int>(target);
      ts.lock = std::string(rma::to_string(static_cast<rma::LockType>(held - 1))) +
                " (MPI_Win_lock returned)";
      ws.targets.push_back(ts);
    }
    // What the library holds and queues is not observable from outside it.
    ws.lock_holders = "not observable";
    ws.lock_waiters = "not observable";
    s.windows.push_back(std::move(ws));
  }
  return s;
}

rma::Status MpiImpl::finalize() {
  for (auto& w : windows_) {
    if (w->freed_.load(std::memory_order_relaxed)) continue;
    call::Call c;
    c.kind = Kind::free;
    c.win = w.get();
    RMA_TRY(window_call(c, *w, nullptr));
  }
  types_.free_all();
  MPI_Comm_free(&poke_comm_);
  if (group_ != MPI_GROUP_NULL) MPI_Group_free(&group_);
  MPI_Group_free(&world_group_);
  Tracked t(slot_, "MPI_Finalize", -1, -2);
  const int rc = MPI_Finalize();
  if (rc != MPI_SUCCESS) return failure(rc, "MPI_Finalize", -1, -2);
  return {};
}

}  // namespace

std::string mpi_library_name() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  if (MPI_Get_library_version(text, &len) != MPI_SUCCESS) return "mpi (version unknown)";
  const std::string v(text, static_cast<std::size_t>(len));
  auto word_after = [&](std::size_t at) {
    while (at < v.size() && (v[at] == ' ' || v[at] == '\t' || v[at] == 'v')) ++at;
    std::size_t end = at;
    while (end < v.size() && v[end] != ',' && v[end] != ' ' && v[end] != '\n' && v[end] != '\t')
      ++end;
    return v.substr(at, end - at);
  };
  if (auto at = v.find("MPICH Version:"); at != std::string::npos)
    return "mpich " + word_after(at + 14);
  if (auto at = v.find("Open MPI "); at != std::string::npos)
    return "openmpi " + word_after(at + 9);
  std::string first = v.substr(0, v.find('\n'));
  if (first.size() > 60) first.resize(60);
  return first.empty() ? "mpi (version unknown)" : first;
}

std::string mpi_impl_name(const std::string& osc) {
  return mpi_library_name() + (osc.empty() ? "" : " osc=" + osc);
}

rma::Result<std::unique_ptr<Implementation>> make_mpi_implementation(const MpiOptions& options) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  const int required = options.thread_multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED;
  int provided = MPI_THREAD_SINGLE;
  if (!initialized) {
    if (MPI_Init_thread(nullptr, nullptr, required, &provided) != MPI_SUCCESS)
      return rma::Status(rma::ErrorClass::other, "MPI_Init_thread failed");
  } else {
    MPI_Query_thread(&provided);
  }
  // Errors are values from here on: the job's calls, and every window (set at creation).
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  if (provided < required)
    return rma::Status(
        rma::ErrorClass::unsupported,
        "MPI_Init_thread: the library provides thread level " + std::to_string(provided) +
            ", below the " +
            (options.thread_multiple ? "MPI_THREAD_MULTIPLE" : "MPI_THREAD_SERIALIZED") +
            " asked for");
  return std::unique_ptr<Implementation>(std::make_unique<MpiImpl>(options.osc));
}

rma::Status finalize_mpi(Implementation& impl) {
  auto* m = dynamic_cast<MpiImpl*>(&impl);
  if (!m) return {rma::ErrorClass::arg, "finalize_mpi: not an MPI implementation"};
  return m->finalize();
}

}  // namespace harness::impl
