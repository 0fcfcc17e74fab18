// mpi_impl_window.cpp — windows and requests on an MPI library (mpi_impl.hpp): creating a
// window of each flavor with MPI_ERRORS_RETURN, memory from MPI_Alloc_mem, what a window
// answers of itself, and request-based calls' requests. Compiled per MPI, with its <mpi.h>.
#include "mpi/mpi_impl_detail.hpp"

namespace harness::mpi {

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

}  // namespace harness::mpi
