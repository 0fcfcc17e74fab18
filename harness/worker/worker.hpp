// worker.hpp — the rank process: `rmabench __worker`, started by the launcher (never by
// hand). It says hello on its control channel (fd 3), receives its case, creates the
// runtime through the launcher's bootstrap (fd 4), runs the case script and reports.
#pragma once

namespace harness::worker {

int worker_main();

}  // namespace harness::worker
