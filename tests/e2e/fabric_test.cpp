// End-to-end on the fabric backend: a rank killed mid-epoch (crash, survivors name it,
// nothing left), rmabench as the ranks of Open MPI's mpirun (PMIx bootstrap, one report),
// and two network namespaces joined by a veth pair acting as two hosts — with the veth taken
// down mid-epoch, each rank's wait ends with PROC_FAILED naming the other within the
// liveness timeout plus 2 s (rma_impl/fabric/fabric_liveness.hpp), under the rmabench
// launcher and under mpirun.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <thread>

#include <gtest/gtest.h>

#include "netns_hosts.hpp"
#include "run_rmabench.hpp"

namespace {

using nlohmann::json;

const json& only_case(const json& report) {
  EXPECT_EQ(report["cases"].size(), 1u) << report.dump(2);
  return report["cases"][0];
}

TEST(FabricE2E, RankKilledMidEpochIsACrashTheSurvivorNames) {
  const std::string dir = e2e::temp_dir("fabric-kill");
  auto bg = e2e::start({"run", "tests/e2e/scripts/epochs_forever.lua", "--backend", "fabric",
                        "--timeout", "30", "--report-dir", dir});
  std::vector<pid_t> ranks;
  for (int i = 0; i < 1000 && ranks.size() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ranks = e2e::worker_pids(bg.pid);
  }
  ASSERT_EQ(ranks.size(), 2u);
  // Endpoints open and addresses exchanged: the ranks are in their epochs by then.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  const auto t0 = std::chrono::steady_clock::now();
  ::kill(ranks[1], SIGKILL);
  auto r = e2e::finish(bg, 60);
  const double after_kill =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_LT(after_kill, 10.0) << r.out;
  const json c = only_case(e2e::read_json(dir + "/report.json"));
  EXPECT_EQ(c["status"], "crash") << c.dump(2);
  EXPECT_NE(c["reason"].get<std::string>().find("SIGKILL"), std::string::npos) << c.dump(2);
  // The survivor's own error names the dead peer (it is not merely stopped).
  bool named = false;
  for (const auto& f : c["failures"]) {
    const std::string m = f["message"];
    if (m.find("PROC_FAILED") != std::string::npos) {
      EXPECT_NE(m.find("rank " + std::to_string(f["rank"] == 0 ? 1 : 0)), std::string::npos) << m;
      named = true;
    }
  }
  EXPECT_TRUE(named) << c.dump(2);
  EXPECT_TRUE(e2e::leftover_ranks(r.pid).empty());
  EXPECT_TRUE(e2e::leftover_segments(r.pid).empty());
}

// The am protocol does not know which transport carries it: every count equals the shm one,
// case for case (what the transport adds, credits and fragments, is counted apart).
TEST(FabricE2E, AmMessageCountsEqualShmCaseForCase) {
  json by_backend[2];
  const char* backends[2] = {"shm", "fabric"};
  for (int b = 0; b < 2; ++b) {
    by_backend[b] = json::array();
    for (const char* filter : {"passive/", "fence/"}) {
      const std::string dir = e2e::temp_dir(std::string("counts-") + backends[b] + "-" +
                                            (filter[0] == 'p' ? "p" : "f"));
      auto r = e2e::run({"run", "suites/quick.lua", "--path", "am", "--backend", backends[b],
                         "--filter", filter, "--report-dir", dir, "--format", "json"},
                        600);
      ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
      const json report = e2e::read_json(dir + "/report.json");
      for (const auto& c : report["cases"]) by_backend[b].push_back(c);
    }
  }
  std::map<std::string, json> shm;
  for (const auto& c : by_backend[0]) {
    std::string id = c["id"];
    id.replace(id.find("[shm,"), 5, "[");
    shm[id] = c["messages"];
  }
  int compared = 0;
  for (const auto& c : by_backend[1]) {
    std::string id = c["id"];
    id.replace(id.find("[fabric,"), 8, "[");
    ASSERT_TRUE(shm.count(id)) << id;
    EXPECT_EQ(c["messages"]["by_type"], shm[id]["by_type"]) << id;
    ++compared;
  }
  EXPECT_GE(compared, 20);
}

TEST(FabricE2E, MpirunStartsFourRanksThatWriteOneReport) {
  const std::string mpirun = e2e::find_program("mpirun");
  if (mpirun.empty())
    GTEST_SKIP() << "mpirun is not installed (ci/setup.sh --with-extras installs openmpi-bin)";
  const std::string dir = e2e::temp_dir("mpirun");
  auto r = e2e::run_program(
      mpirun,
      {"--allow-run-as-root", "--oversubscribe", "-np", "4", RMABENCH_EXE, "run",
       "lua_scripts/fence/fence_ring.lua", "--backend", "fabric", "--report-dir", dir},
      300);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = e2e::read_json(dir + "/report.json");
  const json& c = only_case(report);
  EXPECT_EQ(c["status"], "pass") << c.dump(2);
  EXPECT_EQ(c["ranks"], 4);
  EXPECT_EQ(c["backend"], "fabric");
  EXPECT_TRUE(e2e::schema_errors(dir + "/report.json").empty());
}

// udp;ofi_rxd's fetching and compare atomics go by packets on the direct path (fabric
// atomics_quirk): cas_mutex, whose retry loop makes its count depend on timing, keeps its
// script's "varies" there, so the gate does not compare the fallen-back ops' packets. Before,
// the rank reported a plain direct declaration and a second run failed the gate.
TEST(FabricE2E, DirectOpsThatFellBackKeepTheScriptsVaries) {
  const auto info = e2e::run({"info"}, 60);
  if (info.out.find("\n  udp;ofi_rxd\n") == std::string::npos)
    GTEST_SKIP() << "libfabric offers no udp;ofi_rxd here";
  const std::string dir = e2e::temp_dir("udp-varies");
  auto r = e2e::run({"run", "lua_scripts/atomics/cas_mutex.lua", "-n", "4", "--path", "direct",
                     "--backend", "fabric", "--provider", "udp;ofi_rxd", "--report-dir", dir},
                    300);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = e2e::read_json(dir + "/report.json");
  const json& c = only_case(report);
  EXPECT_EQ(c["status"], "pass") << c.dump(2);
  EXPECT_EQ(c["path"], "direct");
  EXPECT_GT(c["messages"]["direct"]["am_fallback"].get<long>(), 0) << c.dump(2);
  EXPECT_GT(c["messages"]["total"].get<long>(), 0);
  EXPECT_TRUE(c["messages"]["varies"].get<bool>()) << c.dump(2);
  EXPECT_TRUE(c["messages"]["expected"].empty()) << c.dump(2);
}

// Under PMIx, as under the launcher, a provider libfabric does not offer is refused before any
// case (every fabric case would end in the same endpoint error): rank 0 says so once, and no
// rank runs a case or leaves a report behind.
TEST(FabricE2E, MpirunRefusesAnUnknownProviderBeforeAnyCase) {
  const std::string mpirun = e2e::find_program("mpirun");
  if (mpirun.empty())
    GTEST_SKIP() << "mpirun is not installed (ci/setup.sh --with-extras installs openmpi-bin)";
  const std::string dir = e2e::temp_dir("mpirun-provider");
  auto r = e2e::run_program(mpirun,
                            {"--allow-run-as-root", "--oversubscribe", "-np", "2", RMABENCH_EXE,
                             "run", "lua_scripts/passive/lock_put_unlock.lua", "--backend",
                             "fabric", "--provider", "no_such_provider", "--report-dir", dir},
                            120);
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  const std::string all = r.out + r.err;
  const std::string said = "rmabench: error: --provider no_such_provider: libfabric offers no";
  const auto first = all.find(said);
  ASSERT_NE(first, std::string::npos) << all;
  EXPECT_EQ(all.find(said, first + 1), std::string::npos) << "said more than once:\n" << all;
  EXPECT_EQ(all.find("lock_put_unlock["), std::string::npos) << "a case ran:\n" << all;
  EXPECT_FALSE(std::filesystem::exists(dir + "/report.json"));
}

// Two namespaces "rmabench-e2e-<pid>-h0/h1", joined by a veth pair (netns_hosts.hpp).
class TwoHosts : public ::testing::Test {
 protected:
  void SetUp() override {
    hosts_ = std::make_unique<e2e::NetnsHosts>(std::to_string(::getpid()),
                                               std::vector<std::string>{"h0", "h1"});
    if (!hosts_->skip_reason().empty()) GTEST_SKIP() << hosts_->skip_reason();
    ASSERT_TRUE(hosts_->error().empty()) << hosts_->error();
    ip_ = hosts_->ip();
    ns_ = {hosts_->ns(0), hosts_->ns(1)};
  }
  void TearDown() override { hosts_.reset(); }
  std::string veth(int host) const { return hosts_->veth(host); }
  std::string ns_pattern() const { return hosts_->ns_prefix() + "h{rank}"; }
  // Takes host 1's veth end down once `ready` exists (the ranks are in their epochs), on a
  // thread of its own while the run goes on; join() before reading `down`.
  std::thread cut_when(const std::string& ready, bool& down) {
    return std::thread([this, ready, &down] {
      for (int i = 0; i < 1200 && !std::filesystem::exists(ready); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      down =
          std::filesystem::exists(ready) &&
          e2e::run_program(ip_, {"-n", ns_[1], "link", "set", veth(1), "down"}, 30).exit_code == 0;
    });
  }
  // Every rank's failure is its own PROC_FAILED naming the other rank, from a wait that
  // returned within the liveness timeout plus 2 s (the script's `stall_s`: the time since
  // the rank's last finished epoch, which bounds the wait from above).
  static void expect_proc_failed(const json& c, double liveness_s) {
    EXPECT_EQ(c["status"], "fail") << c.dump(2);
    ASSERT_FALSE(c["failures"].empty()) << c.dump(2);
    for (const auto& f : c["failures"]) {
      const int rank = f["rank"];
      const std::string m = f["message"];
      EXPECT_NE(m.find("PROC_FAILED"), std::string::npos) << m;
      EXPECT_NE(m.find("rank " + std::to_string(1 - rank) + " is unreachable"), std::string::npos)
          << m;
      const std::string key = "rank" + std::to_string(rank) + ".stall_s";
      ASSERT_TRUE(c["metrics"].contains(key)) << c.dump(2);
      EXPECT_LE(c["metrics"][key].get<double>(), liveness_s + 2) << c.dump(2);
    }
  }
  std::unique_ptr<e2e::NetnsHosts> hosts_;
  std::string ip_;
  std::vector<std::string> ns_;
};

TEST_F(TwoHosts, TwoRanksOneInEachNamespacePassOverTcp) {
  const std::string dir = e2e::temp_dir("two-hosts");
  const std::string prefix = ip_ + " netns exec " + ns_pattern();
  auto r = e2e::run(
      {"run", "lua_scripts/passive/lock_put_unlock.lua", "-n", "2", "--backend", "fabric",
       "--provider", "tcp;ofi_rxm", "--rank-exec", prefix, "--timeout", "30", "--report-dir", dir},
      120);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json c = only_case(e2e::read_json(dir + "/report.json"));
  EXPECT_EQ(c["status"], "pass") << c.dump(2);
  EXPECT_EQ(c["messages"]["total"], 2) << c.dump(2);  // the am counts, as on one host

  // Proof that the ranks could only meet over the veth pair: with it down, no case passes.
  ASSERT_EQ(e2e::run_program(ip_, {"-n", ns_[1], "link", "set", veth(1), "down"}, 30).exit_code, 0);
  r = e2e::run({"run", "lua_scripts/passive/lock_put_unlock.lua", "-n", "2", "--backend", "fabric",
                "--provider", "tcp;ofi_rxm", "--rank-exec", prefix, "--timeout", "5",
                "--report-dir", dir + "/down"},
               120);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(e2e::leftover_ranks(r.pid).empty());
}

TEST_F(TwoHosts, LinkDownMidEpochIsProcFailedNamingThePeer) {
  const std::string dir = e2e::temp_dir("partition");
  const std::string ready = dir + "/epochs-flowing";
  bool down = false;
  std::thread cut = cut_when(ready, down);
  auto r =
      e2e::run({"run", "tests/e2e/scripts/partition_epochs.lua", "-n", "2", "--backend", "fabric",
                "--provider", "tcp;ofi_rxm", "--rank-exec", ip_ + " netns exec " + ns_pattern(),
                "--timeout", "60", "-o", "ready=" + ready, "--report-dir", dir},
               180, {"RMA_LIVENESS_S=3"});
  cut.join();
  ASSERT_TRUE(down) << "the ranks never got into their epochs: " << r.out << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  expect_proc_failed(only_case(e2e::read_json(dir + "/report.json")), 3);
  EXPECT_TRUE(e2e::leftover_ranks(r.pid).empty());
}

// Under mpirun no parent watches: the liveness check is the transport's own, and rank 0's
// report holds the case. PMIx listens on the launcher's 127.0.0.1, so each rank runs through
// scripts/netns_rank.py, which forwards that port into the rank's namespace.
TEST_F(TwoHosts, LinkDownMidEpochUnderMpirunIsProcFailedNamingThePeer) {
  const std::string mpirun = e2e::find_program("mpirun");
  if (mpirun.empty())
    GTEST_SKIP() << "mpirun is not installed (ci/setup.sh --with-extras installs openmpi-bin)";
  const std::string python = e2e::find_program("python3");
  if (python.empty()) GTEST_SKIP() << "no python3 for scripts/netns_rank.py";
  const std::string src = e2e::source_dir();
  const std::string dir = e2e::temp_dir("partition-mpirun");
  const std::string ready = dir + "/epochs-flowing";
  bool down = false;
  std::thread cut = cut_when(ready, down);
  auto r = e2e::run_program(mpirun,
                            {"--allow-run-as-root",
                             "--oversubscribe",
                             "-np",
                             "2",
                             "--wdir",
                             src,
                             "-x",
                             "RMA_LIVENESS_S=3",
                             python,
                             src + "/tests/e2e/scripts/netns_rank.py",
                             ns_pattern(),
                             RMABENCH_EXE,
                             "run",
                             src + "/tests/e2e/scripts/partition_epochs.lua",
                             "--backend",
                             "fabric",
                             "--provider",
                             "tcp;ofi_rxm",
                             "--timeout",
                             "60",
                             "-o",
                             "ready=" + ready,
                             "--report-dir",
                             dir},
                            180);
  cut.join();
  ASSERT_TRUE(down) << "the ranks never got into their epochs: " << r.out << r.err;
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  const json report = e2e::read_json(dir + "/report.json");
  expect_proc_failed(only_case(report), 3);
  EXPECT_TRUE(e2e::schema_errors(dir + "/report.json").empty());
}

}  // namespace
