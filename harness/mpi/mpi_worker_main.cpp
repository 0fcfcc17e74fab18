// mpi_worker_main.cpp — the rank process of `rmabench run|bench --impl <mpi>`: one executable
// per MPI (rmabench-worker-mpich, rmabench-worker-openmpi, ...), started by that MPI's
// launcher. It connects to the parent (mpi_rank.hpp), initializes MPI at the thread level the
// case's progress mode needs, and runs the same case and benchmark runners as the reference's
// worker, on impl/mpi_implementation.cpp.
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <thread>

#include "impl/mpi_implementation.hpp"
#include "mpi/mpi_rank.hpp"
#include "worker/bench_runner.hpp"
#include "worker/case_runner.hpp"
#include "worker/state_board.hpp"

namespace {

[[noreturn]] void wait_to_be_stopped() {
  for (;;) ::pause();
}

}  // namespace

int main() {
  using namespace harness;
  // The launcher's proxy is this process's parent: die with it.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  // Open MPI's one-sided component, as `--mca osc NAME` set it for the ranks.
  std::string osc;
  if (const char* o = std::getenv("OMPI_MCA_osc")) osc = o;
  const std::string impl_name = impl::mpi_impl_name(osc);
  auto link = mpi::connect_to_parent(impl_name);
  if (!link) return 70;
  launcher::ControlChannel* ctrl = link->ctrl;
  const int rank = link->rank;
  const suite::CaseSpec& spec = link->spec;

  auto* board = new worker::StateBoard;  // lives until _exit
  board->set_phase("MPI_Init");
  std::thread([ctrl, board, rank] {
    while (auto m = ctrl->receive()) {
      const std::string t = m->value("t", "");
      if (t == "state?") ctrl->send(board->snapshot(rank));
      if (t == "stop_compute")
        worker::compute_stop_batch().store(m->value("batch", std::uint64_t{0}),
                                           std::memory_order_release);
    }
    ::_exit(72);  // the parent closed the channel: nobody is left to report to
  }).detach();

  impl::MpiOptions options;
  // MPICH's asynchronous progress thread (MPIR_CVAR_ASYNC_PROGRESS, set by the parent for
  // progress=async) needs MPI_THREAD_MULTIPLE.
  options.thread_multiple = spec.progress == "async";
  options.osc = osc;
  auto made = impl::make_mpi_implementation(options);
  if (!made) {
    ctrl->send({{"t", "result"},
                {"rank", rank},
                {"status", "error"},
                {"early", true},
                {"impl", impl_name},
                {"failures", {{{"where", "MPI_Init"}, {"message", made.status().to_string()}}}}});
    wait_to_be_stopped();
  }
  mpi::report_fatal_signals(ctrl->fd());
  impl::Implementation& impl = *made.value();
  board->set_phase("runtime");
  nlohmann::json result = spec.mode == "bench" ? worker::run_bench_script(spec, impl, *ctrl, *board)
                                               : worker::run_case_script(spec, impl, *ctrl, *board);
  result["impl"] = impl.name();
  const bool early = result.value("early", false);
  ctrl->send(result);
  if (early) wait_to_be_stopped();
  board->detach();
  if (rma::Status s = impl::finalize_mpi(impl); !s)
    ctrl->send({{"t", "log"}, {"text", "MPI_Finalize: " + s.to_string()}});
  ctrl->send({{"t", "bye"}});
  ::_exit(0);
}
