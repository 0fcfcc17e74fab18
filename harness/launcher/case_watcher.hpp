// case_watcher.hpp — runs one case whose ranks a RankStarter starts (rank_starter.hpp): serves
// the ranks' control messages and bootstrap keys, watches them against the case's deadline
// and the run's stop request, and turns what happened into a CaseOutcome through the one
// verdict rule (verdict.hpp). Whatever happened, the ranks are stopped and the case's shared
// segments removed before it returns.
#pragma once

#include "launcher/launcher.hpp"
#include "launcher/rank_starter.hpp"

namespace harness::launcher {

CaseOutcome watch_case(const suite::CaseSpec& spec, const LaunchOptions& options,
                       RankStarter& starter);

}  // namespace harness::launcher
