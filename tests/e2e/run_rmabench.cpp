#include "run_rmabench.hpp"
#include "support/temp_dir.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace e2e {
namespace {

using Clock = std::chrono::steady_clock;

std::string read_all(int fd) {
  std::string s;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) s.append(buf, static_cast<std::size_t>(n));
  return s;
}

pid_t spawn(const std::string& exe, const std::vector<std::string>& args, int out_fd, int err_fd,
            const std::vector<std::string>& env = {}) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
  posix_spawn_file_actions_adddup2(&fa, err_fd, 2);
  posix_spawn_file_actions_addchdir_np(&fa, source_dir().c_str());
  std::vector<std::string> store{exe};
  store.insert(store.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : store) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_store;
  for (char** e = environ; *e; ++e) env_store.emplace_back(*e);
  env_store.insert(env_store.end(), env.begin(), env.end());
  std::vector<char*> envp;
  for (auto& e : env_store) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("spawn " + exe + ": " + std::strerror(rc));
  return pid;
}

int wait_with_timeout(pid_t pid, double timeout_s) {
  const auto until = Clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    int st = 0;
    pid_t r = ::waitpid(pid, &st, WNOHANG);
    if (r == pid) return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    if (Clock::now() >= until) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &st, 0);
      return -1;
    }
    ::usleep(2000);
  }
}

std::string environ_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<pid_t> all_pids() {
  std::vector<pid_t> out;
  DIR* d = ::opendir("/proc");
  while (dirent* e = d ? ::readdir(d) : nullptr) {
    const pid_t p = static_cast<pid_t>(std::atoi(e->d_name));
    if (p > 0) out.push_back(p);
  }
  if (d) ::closedir(d);
  return out;
}

}  // namespace

std::string source_dir() {
  return RMABENCH_SOURCE_DIR;
}

std::string temp_dir(const std::string& tag) {
  const auto p = test_support::program_temp_dir().path() / tag;
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p.string();
}

Background start_program(const std::string& exe, const std::vector<std::string>& args) {
  char path[] = "/tmp/rmabench-e2e-out-XXXXXX";
  int fd = ::mkstemp(path);
  ::unlink(path);
  Background b;
  b.out_fd = fd;
  b.pid = spawn(exe, args, fd, fd);
  return b;
}

Background start(const std::vector<std::string>& args) {
  return start_program(RMABENCH_EXE, args);
}

RunResult run_with(const std::string& exe, const std::vector<std::string>& args, double timeout_s,
                   const std::vector<std::string>& env);

RunResult finish(Background& b, double timeout_s) {
  RunResult r;
  const auto t0 = Clock::now();
  r.pid = b.pid;
  r.exit_code = wait_with_timeout(b.pid, timeout_s);
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  ::lseek(b.out_fd, 0, SEEK_SET);
  r.out = read_all(b.out_fd);
  ::close(b.out_fd);
  return r;
}

RunResult run(const std::vector<std::string>& args, double timeout_s,
              const std::vector<std::string>& env) {
  return run_with(RMABENCH_EXE, args, timeout_s, env);
}

RunResult run_program(const std::string& exe, const std::vector<std::string>& args,
                      double timeout_s) {
  return run_with(exe, args, timeout_s, {});
}

std::string find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string d; std::getline(dirs, d, ':');) {
    const std::string p = d + "/" + name;
    if (::access(p.c_str(), X_OK) == 0) return p;
  }
  return "";
}

RunResult run_with(const std::string& exe, const std::vector<std::string>& args, double timeout_s,
                   const std::vector<std::string>& env) {
  char out_path[] = "/tmp/rmabench-e2e-out-XXXXXX";
  char err_path[] = "/tmp/rmabench-e2e-err-XXXXXX";
  int out_fd = ::mkstemp(out_path);
  int err_fd = ::mkstemp(err_path);
  ::unlink(out_path);
  ::unlink(err_path);
  RunResult r;
  const auto t0 = Clock::now();
  r.pid = spawn(exe, args, out_fd, err_fd, env);
  r.exit_code = wait_with_timeout(r.pid, timeout_s);
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  ::lseek(out_fd, 0, SEEK_SET);
  ::lseek(err_fd, 0, SEEK_SET);
  r.out = read_all(out_fd);
  r.err = read_all(err_fd);
  ::close(out_fd);
  ::close(err_fd);
  return r;
}

std::vector<pid_t> leftover_ranks(pid_t parent) {
  const std::string mark = "RMABENCH_PARENT=" + std::to_string(parent) + '\0';
  std::vector<pid_t> out;
  for (pid_t p : all_pids()) {
    const std::string env = environ_of(p);
    if (env.find(mark) != std::string::npos) out.push_back(p);
  }
  return out;
}

std::vector<pid_t> worker_pids(pid_t parent) {
  return leftover_ranks(parent);
}

std::vector<std::string> leftover_segments(pid_t parent) {
  const std::string prefix = "rmabench." + std::to_string(parent) + ".";
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator("/dev/shm")) {
    const std::string n = e.path().filename().string();
    if (n.rfind(prefix, 0) == 0) out.push_back(n);
  }
  return out;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  return nlohmann::json::parse(in);
}

std::string schema_errors(const std::string& report_json) {
  const std::string cmd = "/usr/bin/python3 " + source_dir() + "/reports/schema/validate.py " +
                          source_dir() + "/reports/schema/report.schema.json " + report_json +
                          " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return "cannot run the schema validator";
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  const int rc = ::pclose(p);
  return rc == 0 ? "" : (out.empty() ? "validator failed" : out);
}

std::vector<std::string> built_mpis() {
  const auto info = run({"info"});
  std::vector<std::string> out;
  std::istringstream in(info.out);
  bool listing = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("implementations under test", 0) == 0) {
      listing = true;
      continue;
    }
    if (!listing) continue;
    if (line.empty()) break;
    std::istringstream words(line);
    std::string name, worker;
    words >> name >> worker;
    if (name != "ref" && worker.rfind("rmabench-worker-", 0) == 0) out.push_back(name);
  }
  return out;
}

}  // namespace e2e
