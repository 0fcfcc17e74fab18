// mpi_worker_main.cpp — the rank process of `rmabench run|bench --impl <mpi>`: one executable
// per MPI (rmabench-worker-mpich, rmabench-worker-openmpi, ...), started by that MPI's
// launcher. Its life around the case is mpi_rank.hpp's run_rank; the case itself runs on the
// same case and benchmark runners as the reference's worker, on mpi_impl.cpp.
#include "mpi/mpi_rank.hpp"
#include "worker/rank_life.hpp"

int main() {
  using namespace harness;
  return mpi::run_rank(
      [](impl::Implementation& impl, const mpi::RankLink& link, worker::StateBoard& board) {
        return worker::run_by_mode(link.spec, impl, *link.ctrl, board);
      });
}
