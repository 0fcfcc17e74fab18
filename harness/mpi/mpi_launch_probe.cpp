// mpi_launch_probe.cpp — a stand-in for the MPI worker that runs no script: it exercises the
// launcher's MPI path (mpi_launch_check.cpp) with what a case can do to it, inside the same
// rank body as the worker (mpi_rank.hpp's run_rank). The case option `behave` says what: pass
// (a barrier, a result, bye), deadlock (both ranks post and wait for an access epoch that
// never comes: blocked in MPI_Win_wait), segv (rank 1 dies of SIGSEGV while rank 0 waits in
// MPI_Barrier), exit (rank 1 exits with code 3 without a result).
#include <signal.h>
#include <unistd.h>

#include <string>

#include "mpi/mpi_rank.hpp"

int main() {
  using namespace harness;
  return mpi::run_rank([](impl::Implementation& impl, const mpi::RankLink& link,
                          worker::StateBoard& board) -> nlohmann::json {
    const int rank = link.rank;
    const auto it = link.spec.options.find("behave");
    const std::string behave = it == link.spec.options.end() ? "pass" : it->second;
    // The parent's "state?" reads the implementation's call slot, as a script's would.
    board.attach(&impl, nullptr);
    if (behave == "deadlock") {
      rma::WindowConfig c;
      c.size = 8;
      auto w = impl.create_window(c);
      if (!w) ::_exit(73);
      call::Call post;
      post.kind = call::Kind::post;
      post.win = *w;
      post.group = {1 - rank};
      call::Call wait = post;
      wait.kind = call::Kind::wait;
      (void)impl.execute(post);
      (void)impl.execute(wait);  // never returns: nobody starts an access epoch
    } else if (behave == "segv" && rank == 1) {
      ::raise(SIGSEGV);
    } else if (behave == "exit" && rank == 1) {
      ::_exit(3);
    }
    call::Call barrier;  // Kind::barrier
    (void)impl.execute(barrier);
    return {{"rank", rank}, {"status", "pass"}};
  });
}
