// run_rmabench.hpp — end-to-end test helpers: run the built rmabench with a hard timeout,
// capture what it printed and how it exited, and look for anything it left behind
// (rank processes, shared-memory segments).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace e2e {

struct RunResult {
  int exit_code = -1;  // -1: killed by the helper's own timeout
  std::string out;
  std::string err;
  pid_t pid = 0;  // the rmabench parent's pid
  double seconds = 0;
};

// Runs RMABENCH_EXE with `args` from the source tree's root; kills it after `timeout_s`.
// `env` entries ("NAME=value") are added to the environment.
RunResult run(const std::vector<std::string>& args, double timeout_s = 60,
              const std::vector<std::string>& env = {});

// Runs another program (a full path, see find_program) the same way.
RunResult run_program(const std::string& exe, const std::vector<std::string>& args,
                      double timeout_s = 60);
// The full path of `name` on PATH, "" when there is none.
std::string find_program(const std::string& name);

// Starts rmabench in the background (for tests that act on it while it runs).
struct Background {
  pid_t pid = 0;
  int out_fd = -1;
};
Background start(const std::vector<std::string>& args);
// Another program (a full path) the same way.
Background start_program(const std::string& exe, const std::vector<std::string>& args);
RunResult finish(Background& b, double timeout_s);

// Rank processes started by the rmabench parent `pid` that still exist.
std::vector<pid_t> leftover_ranks(pid_t parent);
// Rank pids of a running parent (children that are rmabench workers).
std::vector<pid_t> worker_pids(pid_t parent);
// /dev/shm entries made for the parent `pid`.
std::vector<std::string> leftover_segments(pid_t parent);

nlohmann::json read_json(const std::string& path);
std::string temp_dir(const std::string& tag);

// The MPIs this build has workers for (`mpich`, `openmpi`), from `rmabench info`.
std::vector<std::string> built_mpis();
std::string source_dir();

// Validates a report with reports/schema/validate.py (python3-jsonschema); "" when valid.
std::string schema_errors(const std::string& report_json);

}  // namespace e2e
