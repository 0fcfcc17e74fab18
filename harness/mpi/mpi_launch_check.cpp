// mpi_launch_check.cpp — the launcher's MPI path (launcher/mpi_launch.hpp) on a real MPI,
// without the Lua layer: `mpi_launch_check <mpi> <probe>` runs mpi_launch_probe through the
// MPI's launcher for each behaviour and checks the verdict (pass, deadlock naming MPI_Win_wait
// on both ranks within 5 s of the deadline, crash naming SIGSEGV, crash of a rank that exited),
// then that no probe process is left and no /dev/shm entry appeared. Exit 0 when all held.
#include <dirent.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "launcher/launcher.hpp"
#include "mpi/mpi_catalog.hpp"
#include "mpi/mpi_launch.hpp"

namespace {

int g_failed = 0;

void check(bool cond, const std::string& what) {
  if (!cond) {
    std::fprintf(stderr, "check failed: %s\n", what.c_str());
    ++g_failed;
  }
}

// Processes whose command line contains `needle` (pgrep -f), other than this one, zombies
// included (their command line is empty; their name is the first 15 bytes of the file's).
int processes_named(const std::string& needle) {
  int n = 0;
  if (DIR* d = ::opendir("/proc")) {
    while (dirent* e = ::readdir(d)) {
      const std::string pid = e->d_name;
      if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
      std::ifstream f("/proc/" + pid + "/cmdline");
      const std::string cmd((std::istreambuf_iterator<char>(f)), {});
      std::ifstream c("/proc/" + pid + "/comm");
      std::string comm;
      std::getline(c, comm);
      if (cmd.find("mpi_launch_check") != std::string::npos) continue;
      if (cmd.find(needle) != std::string::npos || (cmd.empty() && comm == needle.substr(0, 15)))
        ++n;
    }
    ::closedir(d);
  }
  return n;
}

std::string text_of(const reports::CaseResult& r) {
  std::string s = std::string(reports::to_string(r.status)) + ": " + r.reason;
  for (const auto& f : r.failures) s += "\n  " + f.where + ": " + f.message;
  s += "\n  states: " + r.rank_states.dump();
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace harness;
  if (argc != 3) {
    std::fprintf(stderr, "usage: mpi_launch_check <mpi> <probe executable>\n");
    return 2;
  }
  const mpi::MpiBuild* b = mpi::find_mpi_build(argv[1]);
  if (!b || b->launcher.empty()) {
    std::fprintf(stderr, "%s: not in the catalog\n", argv[1]);
    return 2;
  }
  mpi::MpiLaunch mpi;
  mpi.spelling = mpi.name = b->name;
  mpi.launcher = b->launcher;
  mpi.launcher_kind = b->launcher_kind;
  mpi.worker = argv[2];
  launcher::LaunchOptions lo;
  lo.external = &mpi;
  const auto shm_before = launcher::shm_entries();

  auto run = [&](const std::string& behave, double timeout) {
    suite::CaseSpec c;
    c.stem = "probe";
    c.script = "probe.lua";
    c.ranks = 2;
    c.progress = rma::ProgressMode::calls;
    c.impl = mpi.spelling;
    c.options = {{"behave", behave}};
    c.timeout_s = timeout;
    c.id = suite::make_case_id(c);
    const auto t0 = std::chrono::steady_clock::now();
    auto out = launcher::run_case(c, lo).result;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%s: %s (%.1f s)\n", c.id.c_str(), reports::to_string(out.status).data(), s);
    return std::make_pair(out, s);
  };

  auto [pass, pass_s] = run("pass", 30);
  check(pass.status == reports::Verdict::pass, "pass: " + text_of(pass));

  // The deadline counts from the ranks' hello, before MPI_Init: it must leave them, after
  // MPI_Init, long enough in MPI_Win_wait to be taken as blocked (rma::kStuckAfterS). (When
  // it counted from the launch, a 3 s deadline once left them 0.33 s after mpirun's 2.8 s
  // start on a loaded CI machine, and read timeout.) The whole pass run bounds the start-up.
  const double dl_timeout = 10;
  auto [dl, dl_s] = run("deadlock", dl_timeout);
  check(dl.status == reports::Verdict::deadlock, "deadlock: " + text_of(dl));
  check(dl_s < pass_s + dl_timeout + 5,
        "deadlock reported within the pass run's time + timeout + 5 s: " + std::to_string(dl_s));
  int waiting = 0;
  for (const auto& st : dl.rank_states) waiting += st.value("call", "") == "MPI_Win_wait";
  check(waiting == 2, "both ranks named in MPI_Win_wait: " + dl.rank_states.dump());

  auto [sv, sv_s] = run("segv", 30);
  check(sv.status == reports::Verdict::crash, "segv: " + text_of(sv));
  check(sv.reason.find("rank 1 was killed by SIGSEGV") != std::string::npos,
        "the crash names rank 1 and SIGSEGV: " + sv.reason);

  auto [ex, ex_s] = run("exit", 30);
  check(ex.status == reports::Verdict::crash, "exit: " + text_of(ex));
  // Open MPI's mpirun says which rank exited with which code; hydra only exits with the code.
  bool rank1_named = false;
  for (const auto& f : ex.failures)
    rank1_named |=
        f.rank == 1 && (f.message.find("rank 1 exited with code 3") != std::string::npos ||
                        f.message.find("rank 1 ended without a result") != std::string::npos);
  check(rank1_named, "the crash names rank 1: " + text_of(ex));
  if (mpi.launcher_kind == "openmpi")
    check(ex.reason.find("rank 1 exited with code 3") != std::string::npos,
          "mpirun's report gives rank 1's exit code: " + ex.reason);

  const std::string probe = std::string(argv[2]);
  const std::string probe_name = probe.substr(probe.rfind('/') + 1);
  check(processes_named(probe_name) == 0, "no probe process left running");
  // New names nobody has open: another job's live segment (an MPI run beside this one, a
  // reference run's) is not a leak of ours.
  std::string leaked;
  const auto in_use = launcher::shm_in_use();
  for (const auto& e : launcher::shm_entries())
    if (!shm_before.count(e) && !in_use.count(e) && !launcher::is_reference_segment(e))
      leaked += " " + e;
  check(leaked.empty(), "no /dev/shm entry left:" + leaked);
  std::printf("%s\n", g_failed ? "FAILED" : "all checks held");
  return g_failed ? 1 : 0;
}
