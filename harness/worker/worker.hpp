// worker.hpp — the rank process: `rmabench __worker`, started by the launcher (never by
// hand). It says hello on its control channel (fd 3), receives its case, creates the
// implementation under test through the launcher's bootstrap (fd 4), runs the case script (or
// benchmark) and reports.
#pragma once

#include <memory>

#include "impl/implementation.hpp"
#include "rma/bootstrap.hpp"
#include "suite/case_spec.hpp"

namespace harness::worker {

int worker_main();

// The implementation under test for one rank of a case: the reference, with the case's
// backend, progress mode, path, eager limit, provider and segment names. Collective.
rma::Result<std::unique_ptr<impl::Implementation>> make_implementation(
    const suite::CaseSpec& spec, rma::bootstrap::Bootstrap& boot);

}  // namespace harness::worker
