#include "worker/worker.hpp"

#include <sys/prctl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <thread>

#include "impl/ref_implementation.hpp"
#include "launcher/control.hpp"
#include "rma/bootstrap.hpp"
#include "rma/pending_names.hpp"
#include "rma/runtime.hpp"
#include "rma/trace.hpp"
#include "suite/case_spec.hpp"
#include "worker/bench_runner.hpp"
#include "worker/case_runner.hpp"
#include "worker/floor_bench.hpp"
#include "worker/state_board.hpp"

namespace harness::worker {
namespace {

constexpr int kCtrlFd = 3;
constexpr int kKvFd = 4;
// --trace: events one rank keeps (about 3.5 MB); beyond it the oldest go, counted.
constexpr std::size_t kTraceEvents = 65536;

int env_int(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : -1;
}

rma::RuntimeConfig runtime_config(const suite::CaseSpec& spec) {
  rma::RuntimeConfig c;
  c.backend = spec.backend;
  c.progress = rma::parse_progress_mode(spec.progress).value_or(rma::ProgressMode::async);
  c.default_path = rma::parse_path(spec.path).value_or(rma::Path::am);
  // A paired bench case gives each of its windows its protocol; the first is the default.
  c.default_protocol =
      rma::parse_protocol(suite::case_protocols(spec).front()).value_or(rma::Protocol::fewest);
  c.eager_limit = spec.eager_limit;
  c.provider = spec.provider;
  c.name_prefix = spec.name_prefix;
  return c;
}

// After an early end the rank's peers may be blocked; the launcher stops the whole case, so
// this rank just waits for that (or for the parent's death signal).
[[noreturn]] void wait_to_be_stopped() {
  for (;;) ::pause();
}

// The parent's death arrives as SIGTERM (the launcher itself stops ranks with SIGKILL): the
// names of segments still waiting for their ranks go first, then the rank dies of the signal
// as it would have. A SIGKILL here would leave such a name in /dev/shm until the next run.
void on_parent_death(int sig) {
  rma::unlink_pending_names();
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

rma::Result<std::unique_ptr<impl::Implementation>> make_implementation(
    const suite::CaseSpec& spec, rma::bootstrap::Bootstrap& boot) {
  return impl::make_reference(runtime_config(spec), boot);
}

int worker_main() {
  // Die with the parent, whatever happens to it.
  struct sigaction sa {};
  sa.sa_handler = on_parent_death;
  ::sigaction(SIGTERM, &sa, nullptr);
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  const int parent = env_int("RMABENCH_PARENT");
  if (parent <= 0 || ::getppid() != parent) return 70;
  const int rank = env_int("RMABENCH_RANK");
  const int size = env_int("RMABENCH_SIZE");

  auto* ctrl = new launcher::ControlChannel(kCtrlFd);  // lives until _exit
  ctrl->send({{"t", "hello"}, {"rank", rank}, {"pid", ::getpid()}});
  auto msg = ctrl->receive();
  if (!msg || msg->value("t", "") != "case") return 71;
  const suite::CaseSpec spec = suite::case_from_json(*msg);

  auto* board = new StateBoard;
  std::thread([ctrl, board, rank] {
    while (auto m = ctrl->receive()) {
      const std::string t = m->value("t", "");
      if (t == "state?") ctrl->send(board->snapshot(rank));
      if (t == "stop_compute")
        compute_stop_batch().store(m->value("batch", std::uint64_t{0}),
                                          std::memory_order_release);
    }
    // The parent closed the channel: nobody is left to report to. Often this comes before
    // the parent-death signal, so the names on_parent_death would remove go here too.
    rma::unlink_pending_names();
    ::_exit(72);
  }).detach();

  // --trace: on before the runtime exists, so that every packet is numbered (rma/trace.hpp).
  if (spec.trace) rma::trace::enable(kTraceEvents);
  auto boot = rma::bootstrap::launcher_client(kKvFd, rank, size);
  board->set_phase("runtime");
  auto im = make_implementation(spec, *boot);
  if (!im) {
    ctrl->send({{"t", "result"},
                {"rank", rank},
                {"status", "error"},
                {"early", true},
                {"failures", {{{"where", "runtime"}, {"message", im.status().to_string()}}}}});
    wait_to_be_stopped();
  }
  nlohmann::json result = spec.mode == "bench"   ? run_bench_script(spec, *im.value(), *ctrl, *board)
                          : spec.mode == "floor" ? run_floor_bench(spec, *im.value(), *ctrl, *board)
                                                 : run_case_script(spec, *im.value(), *ctrl, *board);
  const bool early = result.value("early", false);
  ctrl->send(result);
  if (early) wait_to_be_stopped();
  board->detach();
  im.value().reset();
  ctrl->send({{"t", "bye"}});
  ::_exit(0);
}

}  // namespace harness::worker
