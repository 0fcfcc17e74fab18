// mpi_launch_probe.cpp — a stand-in for the MPI worker that runs no script: it exercises the
// launcher's MPI path (mpi_launch_check.cpp) with what a case can do to it. The case option
// `behave` says what: pass (a barrier, a result, bye), deadlock (both ranks post and wait for
// an access epoch that never comes: blocked in MPI_Win_wait), segv (rank 1 dies of SIGSEGV
// while rank 0 waits in MPI_Barrier), exit (rank 1 exits with code 3 without a result).
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <thread>

#include "impl/mpi_implementation.hpp"
#include "mpi/mpi_rank.hpp"

int main() {
  using namespace harness;
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  auto link = mpi::connect_to_parent();
  if (!link) return 70;
  launcher::ControlChannel* ctrl = link->ctrl;
  const int rank = link->rank;
  const auto it = link->spec.options.find("behave");
  const std::string behave = it == link->spec.options.end() ? "pass" : it->second;

  auto made = impl::make_mpi_implementation({});
  if (!made) return 71;
  impl::Implementation* impl = made.value().get();
  mpi::report_fatal_signals(ctrl->fd());
  std::thread([ctrl, impl, rank] {
    while (auto m = ctrl->receive()) {
      if (m->value("t", "") != "state?") continue;
      const rma::RankState st = impl->state();
      ctrl->send({{"t", "state"},
                  {"rank", rank},
                  {"call", st.call.call},
                  {"blocked", st.call.blocked},
                  {"target", st.call.target},
                  {"window", st.call.window}});
    }
    ::_exit(72);
  }).detach();

  call::Call barrier;  // Kind::barrier
  if (behave == "deadlock") {
    rma::WindowConfig c;
    c.size = 8;
    auto w = impl->create_window(c);
    if (!w) return 73;
    call::Call post;
    post.kind = call::Kind::post;
    post.win = *w;
    post.group = {1 - rank};
    call::Call wait = post;
    wait.kind = call::Kind::wait;
    (void)impl->execute(post);
    (void)impl->execute(wait);  // never returns: nobody starts an access epoch
  } else if (behave == "segv" && rank == 1) {
    ::raise(SIGSEGV);
  } else if (behave == "exit" && rank == 1) {
    ::_exit(3);
  }
  (void)impl->execute(barrier);
  ctrl->send({{"t", "result"}, {"rank", rank}, {"status", "pass"}, {"impl", impl->name()}});
  (void)impl::finalize_mpi(*impl);
  ctrl->send({{"t", "bye"}});
  ::_exit(0);
}
