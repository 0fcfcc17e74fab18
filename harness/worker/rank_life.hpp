// rank_life.hpp — what every rank process does around its case, whichever implementation it
// runs (the reference's `rmabench __worker`, an MPI library's worker): say hello and receive
// the case, answer the parent from a control thread while the case runs, run the case's
// script as its mode says, send the result, and after an early end wait to be stopped.
#pragma once

#include <optional>
#include <string>

#include "impl/implementation.hpp"
#include "launcher/control.hpp"
#include "suite/case_spec.hpp"
#include "worker/state_board.hpp"

namespace harness::worker {

// After an early end the rank's peers may be blocked; the launcher stops the whole case, so
// the rank just waits for that (or for its parent's death).
[[noreturn]] void wait_to_be_stopped();

// Sends the hello; the case the parent answers with, or nullopt when it sent anything else
// or went away.
std::optional<suite::CaseSpec> greet(launcher::ControlChannel& ctrl, const launcher::Hello& hello);

// The control thread: state queries answered from `board`, stop_compute passed to a
// computing benchmark target. When the parent closes the channel nobody is left to report
// to: the segment names still pending are removed and the process exits (72).
void answer_parent(launcher::ControlChannel* ctrl, StateBoard* board, int rank);

// Runs the case as its mode says (a conformance run, a benchmark, the floor): its result.
nlohmann::json run_by_mode(const suite::CaseSpec& spec, impl::Implementation& impl,
                           launcher::ControlChannel& ctrl, StateBoard& board);

// Sends a result (with `impl` named when not empty: an MPI rank's library and version) and,
// when the case ended early, waits to be stopped. Returns after a result that is the case's
// collective end.
void send_result(launcher::ControlChannel& ctrl, nlohmann::json body,
                 const std::string& impl_name = "");

// A rank that could not create its implementation (no runtime, MPI_Init failed): the error
// as its result, then it waits to be stopped.
[[noreturn]] void report_early_error(launcher::ControlChannel& ctrl, int rank,
                                     const std::string& where, const std::string& message,
                                     const std::string& impl_name = "");

}  // namespace harness::worker
