#include "worker/worker.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "impl/ref_implementation.hpp"
#include "launcher/control.hpp"
#include "rma/bootstrap.hpp"
#include "rma/pending_names.hpp"
#include "rma/runtime.hpp"
#include "rma/trace.hpp"
#include "suite/case_spec.hpp"
#include "worker/rank_life.hpp"
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
  c.progress = spec.progress;
  c.default_path = spec.path;
  // A paired bench case gives each of its windows its protocol; the first is the default.
  c.default_protocol = spec.protocols.front();
  c.eager_limit = spec.eager_limit;
  c.provider = spec.provider;
  c.name_prefix = spec.name_prefix;
  return c;
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
  launcher::Hello hello;
  hello.rank = rank;
  hello.pid = ::getpid();
  // On a socket others could reach (a PMIx job's agent started it), the rank proves it is
  // the case's.
  if (const char* token = std::getenv("RMABENCH_TOKEN")) hello.token = token;
  const std::optional<suite::CaseSpec> given = greet(*ctrl, hello);
  if (!given) return 71;
  const suite::CaseSpec& spec = *given;

  auto* board = new StateBoard;
  answer_parent(ctrl, board, rank);

  // --trace: on before the runtime exists, so that every packet is numbered (rma/trace.hpp).
  if (spec.trace) rma::trace::enable(kTraceEvents);
  auto boot = rma::bootstrap::launcher_client(kKvFd, rank, size);
  board->set_phase("runtime");
  auto im = make_implementation(spec, *boot);
  if (!im) report_early_error(*ctrl, rank, "runtime", im.status().to_string());
  send_result(*ctrl, run_by_mode(spec, *im.value(), *ctrl, *board));
  board->detach();
  im.value().reset();
  ctrl->send(launcher::Bye{});
  ::_exit(0);
}

}  // namespace harness::worker
