// MPI libraries under test across two hosts (docs/conformance-mpi.md, "Across hosts"): the
// hosts are two network namespaces joined by a veth pair (netns_hosts.hpp), rmabench runs on
// host0 and each library's launcher starts rank 1 on host1 through scripts/netns_rsh.sh, the
// ranks reaching rmabench's control socket over TCP. For MPICH and Open MPI each: a few cases
// pass with the report saying which rank ran on which host; a deadlock across the hosts is
// named with both ranks' MPI calls within the deadline + 5 s; a rank killed on host1 is a
// crash; nothing is left running in either namespace. Needs root (ip netns).
// Open MPI runs with osc=pt2pt: Debian's Open MPI has no one-sided component across hosts by
// default (docs/conformance-mpi.md, "Across hosts": osc/rdma finds no RDMA-capable BTL over
// TCP, and /etc/openmpi/openmpi-mca-params.conf excludes pt2pt and ucx).
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include <gtest/gtest.h>

#include "netns_hosts.hpp"
#include "run_rmabench.hpp"

namespace {

using nlohmann::json;

class MpiHosts : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    library_ = GetParam().substr(0, GetParam().find(':'));
    const auto worker =
        std::filesystem::path(RMABENCH_EXE).parent_path() / ("rmabench-worker-" + library_);
    if (!std::filesystem::exists(worker))
      GTEST_SKIP() << worker << " is not built (ci/setup.sh --with-extras installs the MPIs)";
    hosts_ = std::make_unique<e2e::NetnsHosts>(std::to_string(::getpid()));
    if (!hosts_->skip_reason().empty()) GTEST_SKIP() << hosts_->skip_reason();
    ASSERT_TRUE(hosts_->error().empty()) << hosts_->error();
  }
  void TearDown() override {
    if (hosts_ && hosts_->skip_reason().empty()) {
      // Nothing of the run is left on either host: not a rank, not a proxy, not rmabench. A
      // remote daemon (Open MPI's orted) ends its own teardown after mpirun, which rmabench
      // gives 3 s: it gets a bounded while more, as a host's daemons would.
      std::string left0, left1;
      for (int i = 0; i < 60; ++i) {
        left0 = hosts_->processes(0);
        left1 = hosts_->processes(1);
        if (left0.empty() && left1.empty()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
      }
      EXPECT_EQ(left0, "") << "left running on host0 15 s after the run";
      EXPECT_EQ(left1, "") << "left running on host1 15 s after the run";
    }
    hosts_.reset();
  }

  // `rmabench run ARGS --impl MPI --mpi-hosts host0,host1` started on host0.
  std::vector<std::string> on_host0(std::vector<std::string> args) const {
    args.insert(args.begin(), RMABENCH_EXE);
    for (const std::string& w :
         {std::string("--impl"), GetParam(), std::string("--mpi-hosts"), std::string("host0,host1"),
          std::string("--mpi-rsh"), e2e::source_dir() + "/tests/e2e/scripts/netns_rsh.sh"})
      args.push_back(w);
    return hosts_->on_host(0, args, {"NETNS_RSH_PREFIX=" + hosts_->ns_prefix()});
  }

  // Ranks of this run's library on `host` (their pids), as `ip netns pids` sees them.
  std::vector<pid_t> workers_on(int host) const {
    std::vector<pid_t> out;
    for (pid_t p : hosts_->pids(host)) {
      std::ifstream comm("/proc/" + std::to_string(p) + "/comm");
      std::string c;
      std::getline(comm, c);
      if (c.rfind("rmabench-worker", 0) == 0) out.push_back(p);
    }
    return out;
  }

  std::unique_ptr<e2e::NetnsHosts> hosts_;
  std::string library_;  // mpich, openmpi
};

TEST_P(MpiHosts, CasesPassWithEachRankOnItsHost) {
  const std::string dir = e2e::temp_dir("mpi-hosts-pass-" + library_);
  auto r = e2e::run_program(
      hosts_->ip(),
      on_host0({"run", "lua_scripts/passive/lock_put_unlock.lua",
                "lua_scripts/pscw/post_start_put.lua", "lua_scripts/fence/fence_put_fence.lua",
                "-n", "2", "--timeout", "30", "--report-dir", dir}),
      240);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = e2e::read_json(dir + "/report.json");
  ASSERT_EQ(report["cases"].size(), 3u) << report.dump(2);
  for (const auto& c : report["cases"]) {
    EXPECT_EQ(c["status"], "pass") << c.dump(2);
    ASSERT_EQ(c["hosts"].size(), 2u) << c.dump(2);
    EXPECT_EQ(c["hosts"][0], "host0 (netns " + hosts_->ns(0) + ")") << c.dump(2);
    EXPECT_EQ(c["hosts"][1], "host1 (netns " + hosts_->ns(1) + ")") << c.dump(2);
  }
  const json& start = report["context"]["options"]["impl"]["start"];
  EXPECT_EQ(start["hosts"], json({"host0", "host1"})) << start.dump();
  EXPECT_EQ(start["control_address"], "10.231.0.1") << start.dump();
  EXPECT_TRUE(e2e::schema_errors(dir + "/report.json").empty());
}

TEST_P(MpiHosts, DeadlockAcrossHostsNamesBothRanksCalls) {
  const std::string dir = e2e::temp_dir("mpi-hosts-deadlock-" + library_);
  // Open MPI needs several seconds across the hosts to start its ranks, outside the deadline
  // (it counts from their hello), and some to get them through MPI_Init, inside it.
  const double timeout = 10;
  const double start_up = 15;
  auto r = e2e::run_program(hosts_->ip(),
                            on_host0({"run", "tests/e2e/scripts/wait_unstarted.lua", "--timeout",
                                      "10", "--report-dir", dir}),
                            120);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;  // the deadlock it expects
  const json c = e2e::read_json(dir + "/report.json")["cases"][0];
  EXPECT_EQ(c["status"], "deadlock") << c.dump(2);
  EXPECT_LT(c["duration_s"].get<double>(), start_up + timeout + 5) << c.dump(2);
  ASSERT_EQ(c["rank_states"].size(), 2u) << c.dump(2);
  for (const auto& s : c["rank_states"]) EXPECT_EQ(s.value("call", ""), "MPI_Win_wait") << s.dump();
  EXPECT_EQ(c["hosts"][1], "host1 (netns " + hosts_->ns(1) + ")") << c.dump(2);
}

TEST_P(MpiHosts, RankKilledOnTheRemoteHostIsACrash) {
  const std::string dir = e2e::temp_dir("mpi-hosts-kill-" + library_);
  auto bg = e2e::start_program(hosts_->ip(), on_host0({"run", "tests/e2e/scripts/wait_forever.lua",
                                                       "--timeout", "60", "--report-dir", dir}));
  std::vector<pid_t> remote;
  for (int i = 0; i < 600 && remote.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    remote = workers_on(1);
  }
  ASSERT_EQ(remote.size(), 1u) << "no rank appeared on host1";
  // Past MPI_Init: the ranks are in their barrier loop by then.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  ::kill(remote[0], SIGKILL);
  auto r = e2e::finish(bg, 90);
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const json c = e2e::read_json(dir + "/report.json")["cases"][0];
  EXPECT_EQ(c["status"], "crash") << c.dump(2);
  EXPECT_NE(c["reason"].get<std::string>().find("rank 1"), std::string::npos) << c.dump(2);
}

INSTANTIATE_TEST_SUITE_P(Libraries, MpiHosts, ::testing::Values("mpich", "openmpi:osc=pt2pt"),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           return p.param.substr(0, p.param.find(':'));
                         });

}  // namespace
