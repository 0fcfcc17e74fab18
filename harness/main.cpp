// rmabench: the command line (see `rmabench --help`), and, as `rmabench __worker`, the rank
// processes the launcher starts.
#include <cstring>

#include "cli/app.hpp"
#include "worker/worker.hpp"

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "__worker") == 0) return harness::worker::worker_main();
  return harness::cli::run_app(argc, argv);
}
