// End-to-end under Slurm: rmabench as the tasks of `srun --mpi=pmix` on the one-node Slurm
// of ci/slurm.sh (brought up here when it is not up, and taken down again after). Task 0
// watches every case and each task's agent starts its ranks (harness/launcher/pmix_job.hpp),
// so a case ends under Slurm as it does with forked ranks: the quick suite's am cases on
// fabric, must-deadlock ones included, write one report holding every case, with Slurm's
// job, step and nodes in its context; a deadlock is judged at the deadline with each rank's
// state; a rank that raises or exits mid-case is that case's error or crash, and the step
// goes on.
// `--impl mpich|openmpi` run inside an allocation (salloc) start each case as an srun job
// step instead of the library's launcher, and pass and deadlock as they do with it.
// Skipped, with the reason, where Slurm is not installed or cannot start.
#include <filesystem>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "run_rmabench.hpp"

namespace {

using nlohmann::json;

class SlurmE2E : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    srun_ = e2e::find_program("srun");
    if (srun_.empty()) {
      skip_ = "Slurm is not installed (bash ci/slurm.sh up installs it)";
      return;
    }
    const std::string bash = e2e::find_program("bash");
    if (e2e::run_program(bash, {"ci/slurm.sh", "status"}, 60).exit_code == 0) return;
    auto up = e2e::run_program(bash, {"ci/slurm.sh", "up"}, 600);
    if (up.exit_code != 0) {
      skip_ = "bash ci/slurm.sh up failed: " + up.err.substr(0, 2000);
      return;
    }
    brought_up_ = true;
  }
  static void TearDownTestSuite() {
    if (brought_up_) e2e::run_program(e2e::find_program("bash"), {"ci/slurm.sh", "down"}, 120);
  }
  void SetUp() override {
    if (!skip_.empty()) GTEST_SKIP() << skip_;
  }

  // srun --mpi=pmix -n N rmabench ARGS...
  static e2e::RunResult srun(int n, const std::vector<std::string>& args, double timeout_s) {
    std::vector<std::string> all = {"--mpi=pmix", "-n", std::to_string(n), RMABENCH_EXE};
    all.insert(all.end(), args.begin(), args.end());
    return e2e::run_program(srun_, all, timeout_s);
  }

  static inline std::string srun_, skip_;
  static inline bool brought_up_ = false;
};

TEST_F(SlurmE2E, QuickSuiteOnFabricWritesOneReportWithEveryCase) {
  const std::string dir = e2e::temp_dir("slurm-quick");
  // The am path only: the direct half adds time, not coverage of the launch (CI's slurm stage
  // runs both, gated).
  auto r = srun(
      4, {"run", "suites/quick.lua", "--backend", "fabric", "--path", "am", "--report-dir", dir},
      400);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = e2e::read_json(dir + "/report.json");

  // Every case the suite expands to, each once, at its own rank count.
  auto list = e2e::run({"list", "suites/quick.lua", "--backend", "fabric", "--path", "am"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  std::set<std::string> listed, reported;
  for (std::size_t a = 0, b; a < list.out.size(); a = b + 1) {
    b = list.out.find('\n', a);
    if (b == std::string::npos) b = list.out.size();
    const std::string line = list.out.substr(a, b - a);
    if (line.rfind("quick/", 0) == 0) listed.insert(line.substr(0, line.find(' ')));
  }
  int passed = 0, deadlocked = 0;
  for (const auto& c : report["cases"]) {
    reported.insert(c["id"].get<std::string>());
    // A must-deadlock case passes by deadlocking: it runs here, as without a launcher.
    const bool expected_deadlock = c.value("expected", "") == "deadlock";
    EXPECT_TRUE(c["status"] == "pass" || c["status"] == "skip" ||
                (expected_deadlock && c["status"] == "deadlock"))
        << c.dump(2);
    passed += c["status"] == "pass";
    deadlocked += expected_deadlock && c["status"] == "deadlock";
  }
  EXPECT_EQ(report["summary"]["failed"], 0);
  EXPECT_GE(deadlocked, 1) << "no must-deadlock case ran";
  EXPECT_EQ(report["cases"].size(), listed.size());
  EXPECT_EQ(reported, listed);
  EXPECT_GT(passed, 60);

  const json& ctx = report["context"]["options"];
  EXPECT_EQ(ctx["launcher"], "slurm") << ctx.dump();
  EXPECT_FALSE(ctx.value("job_id", std::string()).empty()) << ctx.dump();
  EXPECT_FALSE(ctx.value("step_id", std::string()).empty()) << ctx.dump();
  EXPECT_FALSE(ctx.value("nodelist", std::string()).empty()) << ctx.dump();
  EXPECT_EQ(ctx["ranks"], 4);
  EXPECT_TRUE(e2e::schema_errors(dir + "/report.json").empty());
}

TEST_F(SlurmE2E, DeadlockIsReportedWithBothStatesWithinTimeoutPlusFive) {
  const std::string dir = e2e::temp_dir("slurm-deadlock");
  // The helper's own limit is far past the bound: a hang fails the assertion, not the helper.
  auto r = srun(2,
                {"run", "tests/e2e/scripts/recv_nobody_sends.lua", "--backend", "fabric",
                 "--timeout", "5", "--report-dir", dir},
                60);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;  // a case failed
  EXPECT_LT(r.seconds, 5 + 5) << "srun took " << r.seconds << " s for a 5 s deadline";
  const json report = e2e::read_json(dir + "/report.json");
  ASSERT_EQ(report["cases"].size(), 1u) << report.dump(2);
  const json& c = report["cases"][0];
  EXPECT_EQ(c["status"], "deadlock") << c.dump(2);
  ASSERT_EQ(c["rank_states"].size(), 2u) << c.dump(2);
  EXPECT_EQ(c["rank_states"][0]["rank"], 0);
  EXPECT_EQ(c["rank_states"][0]["call"], "recv");
  EXPECT_EQ(c["rank_states"][0]["blocked"], true);
  EXPECT_EQ(c["rank_states"][1]["rank"], 1);
  EXPECT_EQ(c["rank_states"][1]["call"], "barrier");
  EXPECT_EQ(c["rank_states"][1]["blocked"], true);
  EXPECT_EQ(report["summary"]["failed"], 1);
  EXPECT_TRUE(e2e::schema_errors(dir + "/report.json").empty());
}

TEST_F(SlurmE2E, RankThatRaisesEndsTheCaseWithItsErrorAndTheStepEnds) {
  const std::string dir = e2e::temp_dir("slurm-raise");
  auto r = srun(2,
                {"run", "tests/e2e/scripts/raise_on_rank1.lua", "--backend", "fabric", "--timeout",
                 "30", "--report-dir", dir},
                60);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_LT(r.seconds, 30) << "the step ran to the case's deadline";
  const json report = e2e::read_json(dir + "/report.json");
  ASSERT_EQ(report["cases"].size(), 1u) << report.dump(2);
  const json& c = report["cases"][0];
  EXPECT_EQ(c["status"], "error") << c.dump(2);
  ASSERT_EQ(c["failures"].size(), 1u) << c.dump(2);
  EXPECT_EQ(c["failures"][0]["rank"], 1);
  EXPECT_NE(c["failures"][0]["message"].get<std::string>().find("boom on rank one"),
            std::string::npos);
}

TEST_F(SlurmE2E, RankThatExitsMidCaseIsACrashWithItsExitCodeAndTheNextCaseRuns) {
  const std::string dir = e2e::temp_dir("slurm-exit");
  // Rank 1 calls os.exit(3) while rank 0 waits in recv; the deadline (30 s) is not what ends
  // it. The rank is its task's agent's child, not a task: the step goes on to the next case.
  auto r = srun(2,
                {"run", "tests/e2e/scripts/exit_mid_run.lua", "tests/e2e/scripts/barrier4.lua",
                 "--backend", "fabric", "--ranks", "2", "--timeout", "30", "--report-dir", dir},
                90);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_LT(r.seconds, 30) << "the step ran to the case's deadline";
  const json report = e2e::read_json(dir + "/report.json");
  ASSERT_EQ(report["cases"].size(), 2u) << report.dump(2);
  const json& c = report["cases"][0];
  EXPECT_EQ(c["status"], "crash") << c.dump(2);
  EXPECT_EQ(c["reason"], "rank 1 exited with code 3") << c.dump(2);
  EXPECT_EQ(report["cases"][1]["status"], "pass") << report["cases"][1].dump(2);
  EXPECT_EQ(report["summary"]["failed"], 1);
  EXPECT_TRUE(e2e::schema_errors(dir + "/report.json").empty());
}

// rmabench itself inside an allocation: `salloc -n 2 rmabench run ... --impl MPI`.
class SlurmImpl : public SlurmE2E, public ::testing::WithParamInterface<std::string> {
 protected:
  void SetUp() override {
    SlurmE2E::SetUp();
    if (IsSkipped()) return;
    const auto worker =
        std::filesystem::path(RMABENCH_EXE).parent_path() / ("rmabench-worker-" + GetParam());
    if (!std::filesystem::exists(worker)) GTEST_SKIP() << worker << " is not built";
    salloc_ = e2e::find_program("salloc");
    if (salloc_.empty()) GTEST_SKIP() << "no salloc (Debian's slurm-client)";
  }
  e2e::RunResult in_allocation(std::vector<std::string> args, double timeout_s) const {
    args.insert(args.begin(), {"-n", "2", "--time=10", RMABENCH_EXE});
    for (const char* w : {"--impl", GetParam().c_str()}) args.emplace_back(w);
    return e2e::run_program(salloc_, args, timeout_s);
  }
  std::string salloc_;
};

TEST_P(SlurmImpl, CasesStartThroughSrunAndPass) {
  const std::string dir = e2e::temp_dir("slurm-impl-" + GetParam());
  auto r = in_allocation(
      {"run", "lua_scripts/passive/lock_put_unlock.lua", "lua_scripts/fence/fence_put_fence.lua",
       "-n", "2", "--timeout", "30", "--report-dir", dir},
      240);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = e2e::read_json(dir + "/report.json");
  const json& start = report["context"]["options"]["impl"]["start"];
  EXPECT_EQ(start["how"], "srun") << start.dump();
  EXPECT_EQ(start["mpi"], GetParam() == "mpich" ? "pmi2" : "pmix") << start.dump();
  ASSERT_EQ(report["cases"].size(), 2u) << report.dump(2);
  for (const auto& c : report["cases"]) {
    EXPECT_EQ(c["status"], "pass") << c.dump(2);
    EXPECT_EQ(c["hosts"].size(), 2u) << c.dump(2);
  }
}

// The deadline counts from the ranks' hello, MPI_Init included: 3 s was once not enough for
// two MPICH ranks to leave MPI_Init under srun on a loaded 2-core machine (a timeout with
// both ranks "in MPI_Init"), so the case gets 8. srun's start-up before the hello is outside
// it: the bound allows for it.
TEST_P(SlurmImpl, DeadlockThroughSrunNamesBothCallsWithinTimeoutPlusFive) {
  const std::string dir = e2e::temp_dir("slurm-impl-deadlock-" + GetParam());
  const double timeout_s = 8;
  const double start_up = 15;
  auto r = in_allocation({"run", "tests/e2e/scripts/wait_unstarted.lua", "--timeout",
                          std::to_string(timeout_s), "--report-dir", dir},
                         120);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;  // the deadlock it expects
  const json c = e2e::read_json(dir + "/report.json")["cases"][0];
  EXPECT_EQ(c["status"], "deadlock") << c.dump(2);
  EXPECT_LT(c["duration_s"].get<double>(), start_up + timeout_s + 5) << c.dump(2);
  ASSERT_EQ(c["rank_states"].size(), 2u) << c.dump(2);
  for (const auto& s : c["rank_states"]) EXPECT_EQ(s.value("call", ""), "MPI_Win_wait") << s.dump();
}

INSTANTIATE_TEST_SUITE_P(Libraries, SlurmImpl, ::testing::Values("mpich", "openmpi"),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
