// mpi_impl.cpp — the calls of call/call.hpp on an MPI library (see mpi_impl.hpp): our
// vocabulary's MPI names (ops, asserts, each call's MPI function read off call.hpp's
// RMABENCH_CALLS, error classes) and the execute switch: job calls and window calls.
// Compiled once per MPI, with that MPI's <mpi.h>; nothing here depends on which one.
#include "mpi/mpi_impl_detail.hpp"

#include <array>
#include <climits>
#include <map>
#include <string_view>

namespace harness::mpi {

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

namespace {

// MPI's function for a call, from the call's name and family in call.hpp: "MPI_Win_" and the
// name for the synchronization and memory calls (MPI_Win_lock_all), else "MPI_" and the name
// with its first letter upper case (MPI_Get_accumulate, MPI_Barrier).
struct MpiName {
  char text[32]{};
};
constexpr MpiName mpi_name_of(std::string_view name, call::Family family) {
  const bool win = family == call::Family::synchronization || family == call::Family::memory;
  const std::string_view prefix = win ? "MPI_Win_" : "MPI_";
  MpiName n;
  std::size_t i = 0;
  for (char ch : prefix) n.text[i++] = ch;
  for (char ch : name) {
    const bool upper = !win && i == prefix.size() && ch >= 'a' && ch <= 'z';
    n.text[i++] = upper ? static_cast<char>(ch - 'a' + 'A') : ch;
  }
  return n;
}

constexpr auto kNames = [] {
  std::array<MpiName, static_cast<std::size_t>(call::kind_count)> a{};
  for (std::size_t i = 0; i < a.size(); ++i) {
    const call::Description& d = call::describe(static_cast<Kind>(i));
    a[i] = mpi_name_of(d.name, d.family);
  }
  return a;
}();
static_assert(std::string_view(kNames[static_cast<std::size_t>(Kind::get_accumulate)].text) ==
              "MPI_Get_accumulate");
static_assert(std::string_view(kNames[static_cast<std::size_t>(Kind::flush_local_all)].text) ==
              "MPI_Win_flush_local_all");

// The three facts per kind in one table, looked up once per call a replay makes instead of
// three switches (each an indirect jump), as the reference's dispatch reads call::describe's.
constexpr auto kKinds = [] {
  std::array<KindInfo, static_cast<std::size_t>(call::kind_count)> a{};
  for (std::size_t i = 0; i < a.size(); ++i) {
    const call::Description& d = call::describe(static_cast<Kind>(i));
    a[i] = {kNames[i].text, d.args.has(call::Arg::target), d.family};
  }
  return a;
}();

// A recv's byte count into Outcome::received where the interface has that field (it comes
// with the harness's Lua bindings on the seam); a no-op where it does not yet.
template <class O>
void set_received(O* out, std::size_t bytes) {
  if constexpr (requires(O o) { o.received = bytes; }) {
    if (out) out->received = bytes;
  }
}

}  // namespace

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

// --- The execute switch ------------------------------------------------------------------

rma::Status MpiImpl::execute(const call::Call& c, Outcome* out) {
  if (info(c.kind).family == call::Family::job) return job_call(c, out);
  // A replay names the same window call after call: its cast is kept (windows live as long as
  // this object), since dynamic_cast's type walk cost more per call than osc/sm's MPI_Put.
  MpiWindow* w = c.win == last_win_ ? last_mpi_win_ : dynamic_cast<MpiWindow*>(c.win);
  if (!w) return {rma::ErrorClass::win, std::string(info(c.kind).name) + ": no window of this MPI"};
  last_win_ = c.win;
  last_mpi_win_ = w;
  // MPI_WIN_NULL after MPI_Win_free: passing it on is erroneous in MPI, not a test of the
  // library; the harness answers as the reference does.
  if (w->freed_.load(std::memory_order_relaxed))
    return {rma::ErrorClass::win,
            std::string(info(c.kind).name) + ": window " + std::to_string(w->id_) + " was freed"};
  if (c.count > static_cast<std::size_t>(INT_MAX))
    return {rma::ErrorClass::count, std::string(info(c.kind).name) + ": count " +
                                        std::to_string(c.count) + " exceeds MPI's int"};
  return window_call(c, *w, out);
}

rma::Status MpiImpl::job_call(const call::Call& c, Outcome* out) {
  const char* name = info(c.kind).name;
  const int peer = info(c.kind).has_target ? c.target : -2;
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
      return {rma::ErrorClass::count, std::string(info(c.kind).name) + ": a count of " +
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

// A communication call (put ... rget_accumulate): MPI's error as a Status, or a layout's.
rma::Status MpiImpl::communicate(const call::Call& c, MpiWindow& w, const char* name, int target,
                                 MPI_Request* req) {
  const MPI_Win win = w.win_;
  const MPI_Datatype dt = mpi_dtype(c.dtype);
  const int n = static_cast<int>(c.count);
  // Each side's (count, type): the call's own, or its layout's (rma/datatype.hpp).
  MPI_Datatype odt = dt, rdt = dt, tdt = dt;
  int on = n, rn = n, tn = n;
  if (c.has_layout()) RMA_TRY(layout_types(c, odt, on, rdt, rn, tdt, tn));
  const int tr = mpi_rank(c.target);
  const auto disp = static_cast<MPI_Aint>(c.disp);
  int rc = MPI_SUCCESS;
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
      rc = MPI_Rput(c.origin, on, odt, tr, disp, tn, tdt, win, req);
      break;
    case Kind::rget:
      rc = MPI_Rget(c.result, on, odt, tr, disp, tn, tdt, win, req);
      break;
    case Kind::raccumulate:
      rc = MPI_Raccumulate(c.origin, on, odt, tr, disp, tn, tdt, mpi_op(c.op), win, req);
      break;
    case Kind::rget_accumulate:
      rc = MPI_Rget_accumulate(c.origin, on, odt, c.result, rn, rdt, tr, disp, tn, tdt,
                               mpi_op(c.op), win, req);
      break;
    default:
      return {rma::ErrorClass::intern, std::string(name) + ": not a communication call"};
  }
  if (rc != MPI_SUCCESS) return failure(rc, name, w.id_, target);
  return {};
}

// A synchronization or memory call on a window: MPI's return code.
int MpiImpl::synchronize(const call::Call& c, MpiWindow& w, int* flag) {
  const MPI_Win win = w.win_;
  const int tr = mpi_rank(c.target);
  const int asserts = mpi_asserts(c.asserts);
  auto with_group = [&](auto fn) {
    const int grc = group_of(c.group);
    return grc != MPI_SUCCESS ? grc : fn(group_);
  };
  int rc = MPI_SUCCESS;
  switch (c.kind) {
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
      rc = MPI_Win_test(win, flag);
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
    default:
      break;  // window_call sends only these here
  }
  return rc;
}

// --- Bindings for replays -------------------------------------------------------------------
// The calls a benchmark repeats most, each straight to its MPI function: the reference binds
// the same calls to its own methods (ref_implementation.cpp), so the harness adds the same
// per call to both. What execute() checks per call is checked here once (the window is this
// MPI's, the count fits an int, no layout); a freed window still goes through execute().

template <Kind kind>
bool MpiImpl::run_bound(void* window, const call::Call& c, rma::Status& failure) {
  MpiWindow& w = *static_cast<MpiWindow*>(window);
  MpiImpl& self = w.impl_;
  if (w.freed_.load(std::memory_order_relaxed)) [[unlikely]] {
    failure = self.execute(c, nullptr);
    return failure.is_ok();
  }
  const char* name = info(kind).name;
  Tracked t(self.slot_, name, w.id_, c.target);
  const int tr = mpi_rank(c.target);
  const auto disp = static_cast<MPI_Aint>(c.disp);
  const int n = static_cast<int>(c.count);
  int rc = MPI_SUCCESS;
  if constexpr (kind == Kind::put) {
    const MPI_Datatype dt = mpi_dtype(c.dtype);
    rc = MPI_Put(c.origin, n, dt, tr, disp, n, dt, w.win_);
  } else if constexpr (kind == Kind::get) {
    const MPI_Datatype dt = mpi_dtype(c.dtype);
    rc = MPI_Get(c.result, n, dt, tr, disp, n, dt, w.win_);
  } else if constexpr (kind == Kind::accumulate) {
    const MPI_Datatype dt = mpi_dtype(c.dtype);
    rc = MPI_Accumulate(c.origin, n, dt, tr, disp, n, dt, mpi_op(c.op), w.win_);
  } else if constexpr (kind == Kind::lock) {
    rc = MPI_Win_lock(c.lock_type == rma::LockType::shared ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE,
                      tr, mpi_asserts(c.asserts), w.win_);
  } else if constexpr (kind == Kind::unlock) {
    rc = MPI_Win_unlock(tr, w.win_);
  } else {
    static_assert(kind == Kind::flush);
    rc = MPI_Win_flush(tr, w.win_);
  }
  if (rc != MPI_SUCCESS) [[unlikely]] {
    failure = self.failure(rc, name, w.id_, c.target);
    return false;
  }
  if constexpr (kind == Kind::lock || kind == Kind::unlock) self.note_epoch(c, w, false);
  return true;
}

Implementation::Bound MpiImpl::bind(const call::Call& c) {
  if (c.has_layout() || c.count > static_cast<std::size_t>(INT_MAX)) return {};
  auto* w = dynamic_cast<MpiWindow*>(c.win);
  if (!w) return {};
  switch (c.kind) {
    case Kind::put:
      return {run_bound<Kind::put>, w};
    case Kind::get:
      return {run_bound<Kind::get>, w};
    case Kind::accumulate:
      return {run_bound<Kind::accumulate>, w};
    case Kind::lock:
      return {run_bound<Kind::lock>, w};
    case Kind::unlock:
      return {run_bound<Kind::unlock>, w};
    case Kind::flush:
      return {run_bound<Kind::flush>, w};
    default:
      return {};
  }
}

rma::Status MpiImpl::window_call(const call::Call& c, MpiWindow& w, Outcome* out) {
  const KindInfo& kind = info(c.kind);
  const char* name = kind.name;
  const int target = kind.has_target ? c.target : -2;
  Tracked t(slot_, name, w.id_, target);
  MPI_Request req = MPI_REQUEST_NULL;
  int flag = 0;
  switch (kind.family) {
    case call::Family::communication:
    case call::Family::request:
      RMA_TRY(communicate(c, w, name, target, &req));
      break;
    case call::Family::synchronization:
    case call::Family::memory:
      if (const int rc = synchronize(c, w, &flag); rc != MPI_SUCCESS)
        return failure(rc, name, w.id_, target);
      break;
    case call::Family::job:
      return {rma::ErrorClass::intern, std::string(name) + ": a job call on a window"};
  }
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

}  // namespace harness::mpi
