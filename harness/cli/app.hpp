// app.hpp — the rmabench command line (CLI11): run, list, describe, info.
//
// Exit codes: 0 all cases passed, 1 a case failed, 2 usage error (one line on stderr naming
// what was wrong), 3 the run itself could not be carried out, 4 the run was stopped by
// SIGINT/SIGTERM (the report is incomplete; the case in flight is `interrupted`).
#pragma once

namespace harness::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitRunError = 3;
inline constexpr int kExitInterrupted = 4;
// What --help says of them.
inline constexpr const char* kExitCodesHelp =
    "Exit codes: 0 all cases passed, 1 a case failed, 2 usage error, 3 the run could not be "
    "carried out, 4 the run was stopped by SIGINT/SIGTERM (report \"complete\": false, the case "
    "in flight `interrupted`).";

int run_app(int argc, char** argv);

}  // namespace harness::cli
