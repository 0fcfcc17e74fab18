// case_runner.hpp — runs a case script's hooks in one rank: loads the script, sets rma.opt,
// then setup, run (its iterations), check and teardown, with a barrier between phases, and
// measures the RMA packets this rank sent during `run` (where the implementation can observe
// them: else "messages" is null and "messages_reason" says why).
#pragma once

#include <nlohmann/json.hpp>

#include "impl/implementation.hpp"
#include "launcher/control.hpp"
#include "suite/case_spec.hpp"
#include "worker/state_board.hpp"

namespace harness::worker {

// The rank's result message ({"t":"result", ...}); "early" is true when the rank stopped
// before the last phase (a Lua error, fail() or skip()) and its peers may be stuck.
nlohmann::json run_case_script(const suite::CaseSpec& spec, impl::Implementation& impl,
                               launcher::ControlChannel& ctrl, StateBoard& board);

}  // namespace harness::worker
