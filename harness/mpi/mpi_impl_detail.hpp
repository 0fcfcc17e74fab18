// mpi_impl_detail.hpp — the classes behind mpi_impl.hpp, shared by its topic files: the
// name maps and the execute switch (mpi_impl.cpp), windows and requests (mpi_impl_window.cpp),
// epochs, state dumps and the library's start and end (mpi_impl_state.cpp). Private to them:
// it includes <mpi.h>, so only the per-MPI library (harness/mpi/mpi.cmake) compiles it.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "call/call.hpp"
#include "mpi/mpi_call_slot.hpp"
#include "mpi/mpi_impl.hpp"
#include "mpi/mpi_types.hpp"

namespace harness::mpi {

using impl::Implementation;
using impl::Outcome;
using impl::PlainLoop;
using impl::PlainPattern;
using impl::Request;
using impl::Window;

// --- Name maps (mpi_impl.cpp) ------------------------------------------------------------

MPI_Op mpi_op(rma::Op op);
int mpi_asserts(unsigned a);
int mpi_rank(int target);

// What a call is to MPI, looked up once per call a replay makes: the MPI function it becomes
// (what state dumps and error messages name), whether it names a target rank, its family.
struct KindInfo {
  const char* name = nullptr;
  bool has_target = false;
  call::Family family = call::Family::job;
};
const KindInfo& info(call::Kind k);

// rma's error class of an MPI error class, and MPI's text of an error code.
rma::ErrorClass error_class_of(int mpi_class);
std::string error_string(int code);

// --- The implementation ------------------------------------------------------------------

class MpiImpl;

class MpiWindow final : public Window {
 public:
  MpiWindow(MpiImpl& impl, int id, MPI_Win win, const rma::WindowConfig& c, void* base, int ranks)
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
  int locked_ = 0;            // targets locked now, MPI_PROC_NULL included (main thread only)
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
  Bound bind(const call::Call& call) override;
  rma::Result<std::unique_ptr<PlainLoop>> plain_loop(const PlainPattern& pattern) override;
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
  rma::Status communicate(const call::Call& c, MpiWindow& w, const char* name, int target,
                          MPI_Request* req);
  int synchronize(const call::Call& c, MpiWindow& w, int* flag);
  rma::Status layout_types(const call::Call& c, MPI_Datatype& odt, int& on, MPI_Datatype& rdt,
                           int& rn, MPI_Datatype& tdt, int& tn);
  rma::Status job_call(const call::Call& c, Outcome* out);
  // A bound call (bind): the MPI function of `kind`, tracked and noted as execute() does.
  template <call::Kind kind>
  static bool run_bound(void* window, const call::Call& c, rma::Status& failure);
  void note_epoch(const call::Call& c, MpiWindow& w, bool test_flag);
  // Makes group_ the group of these world ranks. A replayed post or start names the same
  // ranks every iteration: the group is kept rather than made and freed per call, as a
  // program written against MPI keeps it.
  int group_of(const std::vector<int>& ranks) {
    if (group_ != MPI_GROUP_NULL && ranks == group_ranks_) return MPI_SUCCESS;
    if (group_ != MPI_GROUP_NULL) MPI_Group_free(&group_);
    group_ranks_.clear();
    const int rc =
        MPI_Group_incl(world_group_, static_cast<int>(ranks.size()), ranks.data(), &group_);
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

}  // namespace harness::mpi
