// spawn.cpp — spawn_process (spawn.hpp): one posix_spawn set-up for every child.
#include "launcher/spawn.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

#include <cstring>

extern char** environ;

namespace harness::launcher {
namespace {

std::vector<char*> pointers(std::vector<std::string>& words) {
  std::vector<char*> out;
  for (auto& w : words) out.push_back(w.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

int spawn_process(const SpawnSpec& spec, pid_t& pid) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (spec.stdin_null) posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  for (const auto& [from, to] : spec.dup2) posix_spawn_file_actions_adddup2(&fa, from, to);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, spec.process_group);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int s : {SIGPIPE, SIGINT, SIGTERM, SIGCHLD}) sigaddset(&defaults, s);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);

  std::vector<std::string> words = spec.argv, env_store;
  if (spec.env) env_store = *spec.env;
  std::vector<char*> argv = pointers(words), envp = pointers(env_store);
  char* const* env = spec.env ? envp.data() : environ;
  pid = -1;
  const int rc = spec.search_path ? posix_spawnp(&pid, argv[0], &fa, &attr, argv.data(), env)
                                  : posix_spawn(&pid, argv[0], &fa, &attr, argv.data(), env);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  return rc;
}

std::vector<std::string> environment_for_child() {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "RMABENCH_", 9) != 0) env.emplace_back(*e);
  return env;
}

std::string spawn_error(const SpawnSpec& spec, int error) {
  return "posix_spawn " + (spec.argv.empty() ? std::string("(nothing)") : spec.argv.front()) +
         ": " + std::strerror(error);
}

std::vector<std::string> rank_environment(int rank, int size) {
  std::vector<std::string> env = environment_for_child();
  env.push_back("RMABENCH_RANK=" + std::to_string(rank));
  env.push_back("RMABENCH_SIZE=" + std::to_string(size));
  env.push_back("RMABENCH_PARENT=" + std::to_string(::getpid()));
  return env;
}

}  // namespace harness::launcher
