// spawn.hpp — how the harness starts every child program (a rank, an MPI launcher, a PMIx
// agent): posix_spawn in a process group (a new one, or the case's), with no
// signal blocked and the ones the harness catches back at their defaults, so that a child
// never inherits our handlers or our mask; descriptors placed with dup2, stdin optionally
// /dev/null.
#pragma once

#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

namespace harness::launcher {

struct SpawnSpec {
  std::vector<std::string> argv;
  // The child's environment; null: this process's.
  const std::vector<std::string>* env = nullptr;
  pid_t process_group = 0;   // 0: the child leads a new one
  bool search_path = false;  // argv[0] looked up in PATH (posix_spawnp)
  bool stdin_null = false;
  std::vector<std::pair<int, int>> dup2;  // {descriptor here, its number in the child}
};

// Starts the child; returns 0 and its pid, or posix_spawn's error number.
int spawn_process(const SpawnSpec& spec, pid_t& pid);

// This process's environment without its RMABENCH_ variables: what a child starts from, so
// that nothing meant for this process (a rank number, a parent) leaks into it.
std::vector<std::string> environment_for_child();

// A rank's environment (worker/worker.cpp reads it): environment_for_child(), then its rank,
// the case's size and its parent, this process (the rank checks it is its child).
std::vector<std::string> rank_environment(int rank, int size);

// "posix_spawn <program>: <why>" for an error number spawn_process returned.
std::string spawn_error(const SpawnSpec& spec, int error);

}  // namespace harness::launcher
