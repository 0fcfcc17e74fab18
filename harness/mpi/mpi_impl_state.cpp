// mpi_impl_state.cpp — what an MPI rank knows of itself (mpi_impl.hpp): the epochs each call
// opened or closed, the state dump the parent asks for at a deadline, and the library's start
// (MPI_Init_thread, its name and version) and end (MPI_Finalize). Compiled per MPI.
#include "mpi/mpi_impl_detail.hpp"

namespace harness::mpi {

using call::Kind;

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

}  // namespace harness::mpi
