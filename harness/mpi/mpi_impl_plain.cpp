// mpi_impl_plain.cpp — an MPI library's plain loops (impl::PlainLoop): the C loops of
// mpi_plain_loop.h on MPI_COMM_WORLD, which the worker times beside the replays of the same
// pattern; a failing MPI call in them is a Status like any call's. Compiled per MPI, with its
// <mpi.h>.
#include "mpi/mpi_impl_detail.hpp"
#include "mpi/mpi_plain_loop.h"

namespace harness::mpi {
namespace {

class MpiPlainLoop final : public PlainLoop {
 public:
  MpiPlainLoop(const MpiImpl& impl, rmabench_plain* loop) : impl_(impl), loop_(loop) {}
  ~MpiPlainLoop() override { rmabench_plain_close(loop_); }  // collective, as the open was
  MpiPlainLoop(const MpiPlainLoop&) = delete;
  MpiPlainLoop& operator=(const MpiPlainLoop&) = delete;
  bool active() const override { return rmabench_plain_active(loop_) != 0; }
  rma::Status run(std::uint64_t n) override {
    const int rc = rmabench_plain_run(loop_, static_cast<long long>(n));
    if (rc == MPI_SUCCESS) [[likely]]
      return rma::Status::ok();
    return impl_.failure(rc, "plain-C loop", -1, -2);
  }

 private:
  const MpiImpl& impl_;
  rmabench_plain* loop_;
};

}  // namespace

rma::Result<std::unique_ptr<PlainLoop>> MpiImpl::plain_loop(const PlainPattern& p) {
  const rmabench_plain_config c = {p.pattern.c_str(), p.op.c_str(), p.sync.c_str(),
                                   p.flavor.c_str(), static_cast<long long>(p.size)};
  char why[200] = "";
  rmabench_plain* loop = rmabench_plain_open(&c, MPI_COMM_WORLD, why, sizeof why);
  if (!loop)
    return rma::Status(rma::ErrorClass::unsupported, "no plain-C loop: " + std::string(why));
  return std::unique_ptr<PlainLoop>(std::make_unique<MpiPlainLoop>(*this, loop));
}

}  // namespace harness::mpi
