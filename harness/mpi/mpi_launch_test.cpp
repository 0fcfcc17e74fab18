#include "mpi/mpi_launch.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "launcher/rank_results.hpp"
#include "suite/manifest.hpp"
#include "suite/script_info.hpp"
#include "support/temp_dir.hpp"

namespace harness::mpi {
namespace {
using namespace harness::launcher;  // the rank results and the launcher report it reads

MpiLaunch make(const std::string& kind) {
  MpiLaunch m;
  m.spelling = m.name = kind == "hydra" ? "mpich" : kind == "openmpi" ? "openmpi" : "mine";
  m.launcher = "/usr/bin/mpiexec";
  m.launcher_kind = kind;
  m.worker = "/build/rmabench-worker-x";
  m.args = {"--mca", "osc", "sm"};
  m.env = {{"A", "1"}};
  return m;
}

suite::CaseSpec spec(const std::string& path, const std::string& progress) {
  suite::CaseSpec c;
  c.suite = "quick";
  c.stem = "passive/lock_put_unlock";
  c.path = suite::parse_or_throw(rma::parse_path(path), "path", path);
  c.progress = suite::parse_or_throw(rma::parse_progress_mode(progress), "progress", progress);
  c.id = suite::make_case_id(c);
  return c;
}

TEST(MpiLaunch, CommandLinePassesEnvironmentTheLaunchersWay) {
  const std::vector<std::pair<std::string, std::string>> env = {{"RMABENCH_CONTROL", "@x"}};
  const auto hydra = mpi_command(make("hydra"), 3, env);
  EXPECT_EQ(hydra,
            (std::vector<std::string>{"/usr/bin/mpiexec", "-n", "3", "-genv", "RMABENCH_CONTROL",
                                      "@x", "--mca", "osc", "sm", "/build/rmabench-worker-x"}));
  const auto ompi = mpi_command(make("openmpi"), 2, env);
  EXPECT_NE(std::find(ompi.begin(), ompi.end(), "--oversubscribe"), ompi.end());
  EXPECT_NE(std::find(ompi.begin(), ompi.end(), "RMABENCH_CONTROL=@x"), ompi.end());
  const auto generic = mpi_command(make("generic"), 2, env);
  EXPECT_EQ(generic[generic.size() - 3], "env");
  EXPECT_EQ(generic[generic.size() - 2], "RMABENCH_CONTROL=@x");
  EXPECT_EQ(generic.back(), "/build/rmabench-worker-x");
}

TEST(MpiLaunch, CasesRunOnceWithTheImplInTheirId) {
  const auto mpi = make("hydra");
  const auto out = cases_for_mpi({spec("am", "async"), spec("direct", "async")}, mpi, false);
  ASSERT_EQ(out.size(), 1u);  // am and direct are one case on a library
  EXPECT_EQ(out[0].id, "quick/passive/lock_put_unlock[impl=mpich,np=2,progress=calls]");
  EXPECT_EQ(out[0].impl, "mpich");
  // Asked for on the command line, async stays async.
  EXPECT_EQ(cases_for_mpi({spec("am", "async")}, mpi, true)[0].progress, rma::ProgressMode::async);
}

TEST(MpiLaunch, ReferenceIdsAreUnchanged) {
  EXPECT_EQ(spec("am", "async").id, "quick/passive/lock_put_unlock[shm,am,np=2]");
}

TEST(MpiLaunch, ProgressModesMapOrSkip) {
  const auto mpich = make("hydra"), ompi = make("openmpi");
  EXPECT_EQ(mpi_skip_reason(mpich, spec("am", "calls")), "");
  EXPECT_EQ(mpi_skip_reason(mpich, spec("am", "async")), "");
  EXPECT_NE(mpi_skip_reason(ompi, spec("am", "async")), "");
  EXPECT_NE(mpi_skip_reason(mpich, spec("am", "sync_only")).find("reference"), std::string::npos);
  const auto env = mpi_case_env(mpich, spec("am", "async"));
  ASSERT_FALSE(env.empty());
  EXPECT_EQ(env.front(), (std::pair<std::string, std::string>{"MPIR_CVAR_ASYNC_PROGRESS", "1"}));
  EXPECT_EQ(mpi_case_env(mpich, spec("am", "calls")).size(), 1u);  // only the run's own A=1
}

// The case as the suite code makes it, from either spelling a user may give: the skip names
// the reason. (Compared as text, the old spelling once drifted from the suite's, and a
// sync_only case on a library was skipped as an "unknown mode".)
TEST(MpiLaunch, ASyncOnlyCaseFromTheSuiteIsSkippedAsAReferenceMode) {
  const std::string script = test_support::program_temp_dir().write(
      "sync_only_skip.lua", "return { run = function(ctx) end }\n");
  for (const char* given : {"sync_only", "sync-only"}) {
    suite::Overrides o;
    o.progress = given;
    const suite::Expansion ex = suite::expand(script, o);
    ASSERT_EQ(ex.cases.size(), 1u);
    const auto mpich = cases_for_mpi(ex.cases, make("hydra"), true);
    ASSERT_EQ(mpich.size(), 1u);
    const std::string reason = mpi_skip_reason(make("hydra"), mpich[0]);
    EXPECT_NE(reason.find("mode of the reference implementation"), std::string::npos)
        << given << ": " << reason;
  }
}

TEST(MpiLaunch, UnknownImplementationIsAUsageError) {
  EXPECT_THROW(resolve_mpi("lam", "/nowhere", {}, {}), suite::UsageError);
  try {
    resolve_mpi("mpch:osc=rdma", "/nowhere", {}, {});
    ADD_FAILURE() << "a misspelt implementation was accepted";
  } catch (const suite::UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--impl mpch:osc=rdma: unknown implementation 'mpch' (did you mean 'mpich'?)");
  }
  EXPECT_THROW(mpi_for_run("ref", {"--mca x y"}, {}), suite::UsageError);
  EXPECT_FALSE(mpi_for_run("ref", {}, {}).has_value());
}

TEST(MpiLaunch, ControlSocketConnects) {
  std::string why;
  const ControlListener l = listen_control({}, "rmabench.test." + std::to_string(::getpid()));
  ASSERT_GE(l.fd, 0) << l.error;
  EXPECT_EQ(l.endpoint.front(), '@');
  const int c = connect_control(l.endpoint, std::chrono::seconds(1), &why);
  EXPECT_GE(c, 0) << why;
  if (c >= 0) ::close(c);
  ::close(l.fd);
  EXPECT_LT(connect_control(l.endpoint, std::chrono::seconds(1), &why), 0);
  EXPECT_NE(why.find("connect @rmabench.test."), std::string::npos) << why;
}

TEST(MpiLaunch, TcpControlSocketConnectsOnThePortItPicked) {
  const ControlListener l = listen_control({ControlReach::Kind::tcp, "127.0.0.1"}, "");
  ASSERT_GE(l.fd, 0) << l.error;
  EXPECT_EQ(l.endpoint.rfind("tcp:127.0.0.1:", 0), 0u) << l.endpoint;
  EXPECT_NE(l.endpoint, "tcp:127.0.0.1:0");
  std::string why;
  const int c = connect_control(l.endpoint, std::chrono::seconds(1), &why);
  EXPECT_GE(c, 0) << why;
  if (c >= 0) ::close(c);
  ::close(l.fd);
  // Nobody listens any more: the rank is told why, and does not wait.
  EXPECT_LT(connect_control(l.endpoint, std::chrono::seconds(1), &why), 0);
  EXPECT_NE(why.find("Connection refused"), std::string::npos) << why;
  EXPECT_LT(listen_control({ControlReach::Kind::tcp, "no-such-address"}, "").fd, 0);
}

// ---- impl_defined: what MPI leaves to the implementation, declared by the case ----------

TEST(ImplDefined, ReasonByOptionValueRanksOrWholeScript) {
  suite::ScriptInfo info;
  info.options.push_back({"op", "accumulate op", "string", "sum"});
  info.impl_defined = {{"op=no_op", "no_op is an extension"}, {"np=1", "buffering"}};
  EXPECT_EQ(suite::impl_defined_reason(info, {{"op", "no_op"}}, 4), "no_op is an extension");
  EXPECT_EQ(suite::impl_defined_reason(info, {{"op", "sum"}}, 4), "");
  EXPECT_EQ(suite::impl_defined_reason(info, {}, 4), "");  // the default, sum
  EXPECT_EQ(suite::impl_defined_reason(info, {}, 1), "buffering");
  EXPECT_EQ(suite::impl_defined_reason(info, {{"op", "no_op"}}, 1),
            "buffering; no_op is an extension");
  info.impl_defined = {{"", "every case"}};
  EXPECT_EQ(suite::impl_defined_reason(info, {{"op", "max"}}, 2), "every case");
}

std::string script_file(const std::string& tag, const std::string& body) {
  return test_support::program_temp_dir().write("impl_defined_test/" + tag + ".lua", body);
}

TEST(ImplDefined, CaseTableFieldIsChecked) {
  const auto ok =
      suite::load_script_info(script_file("ok",
                                          "return { options = { op = {\"op\", \"sum\"} },\n"
                                          "  impl_defined = { [\"op=no_op\"] = \"why\" } }\n"));
  EXPECT_EQ(ok.impl_defined.at("op=no_op"), "why");
  const auto bad_option =
      script_file("opt", "return {\n  impl_defined = { [\"opp=no_op\"] = \"why\" } }\n");
  try {
    (void)suite::load_script_info(bad_option);
    ADD_FAILURE() << "an undeclared option was accepted";
  } catch (const suite::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(":2: case table: field 'impl_defined': key \"opp=no_op\""),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(suite::load_script_info(script_file("num", "return { impl_defined = 3 }\n")),
               suite::UsageError);
  EXPECT_THROW(suite::load_script_info(script_file("key", "return { impl_defined = { \"x\" } }\n")),
               suite::UsageError);
}

suite::CaseSpec library_spec(const std::string& declared) {
  suite::CaseSpec c = spec("am", "calls");
  c.impl = "mpich";
  c.impl_defined = declared;
  c.id = suite::make_case_id(c);
  return c;
}

reports::CaseResult library_result(reports::Verdict v) {
  reports::CaseResult r = base_result(library_spec(""));
  r.impl = "mpich 4.0.2";
  r.status = v;
  if (v == reports::Verdict::fail) r.failures.push_back({0, "x.lua:3", "expected RMA_RANGE"});
  return r;
}

TEST(ImplDefined, ALibraryCaseThatDidNotPassGetsTheVerdict) {
  auto r = library_result(reports::Verdict::fail);
  apply_impl_defined(library_spec("MPI does not require range checks"), r);
  EXPECT_EQ(r.status, reports::Verdict::impl_defined);
  EXPECT_EQ(r.reason,
            "MPI leaves this to the implementation: MPI does not require range checks. "
            "mpich 4.0.2 fail: rank 0 x.lua:3: expected RMA_RANGE");
  EXPECT_EQ(r.failures.size(), 1u);  // still listed
  for (auto v : {reports::Verdict::pass, reports::Verdict::skip, reports::Verdict::interrupted}) {
    auto same = library_result(v);
    apply_impl_defined(library_spec("why"), same);
    EXPECT_EQ(same.status, v);
  }
  auto crash = library_result(reports::Verdict::crash);
  crash.failures.push_back({-1, "mpirun.openmpi", "mpirun.openmpi ... was stopped"});
  crash.reason = "rank 1 was killed by SIGSEGV";
  apply_impl_defined(library_spec("why"), crash);
  EXPECT_EQ(crash.reason,
            "MPI leaves this to the implementation: why. mpich 4.0.2 crash: rank 1 "
            "was killed by SIGSEGV");
  auto undeclared = library_result(reports::Verdict::fail);
  apply_impl_defined(library_spec(""), undeclared);
  EXPECT_EQ(undeclared.status, reports::Verdict::fail);
}

TEST(ImplDefined, TheReferenceIsNeverExcused) {
  suite::CaseSpec ref = spec("am", "async");
  ref.impl_defined = "why";
  reports::CaseResult r = base_result(ref);
  r.status = reports::Verdict::fail;
  apply_impl_defined(ref, r);
  EXPECT_EQ(r.status, reports::Verdict::fail);
  EXPECT_EQ(r.impl, "ref");
  EXPECT_EQ(r.path, "am");
  EXPECT_EQ(r.backend, "shm");
}

TEST(ImplDefined, LibraryResultsNameTheLibraryAndNullTheirCount) {
  reports::CaseResult r = base_result(library_spec(""));
  EXPECT_EQ(r.path, "");
  EXPECT_EQ(r.backend, "");
  std::vector<nlohmann::json> ranks = {
      {{"status", "pass"},
       {"impl", "mpich 4.0.2"},
       {"messages", nullptr},
       {"messages_reason", "not observable in mpich 4.0.2"}},
      {{"status", "pass"}, {"impl", "mpich 4.0.2"}, {"messages", nullptr}}};
  merge_rank_results(ranks, r);
  EXPECT_EQ(r.status, reports::Verdict::pass);
  EXPECT_EQ(r.impl, "mpich 4.0.2");
  EXPECT_EQ(r.path, "");
  EXPECT_FALSE(r.messages.measured);
  EXPECT_EQ(r.messages.unobservable, "not observable in mpich 4.0.2");
  // A crash: no rank reported, the count is still not observable (not a zero).
  reports::CaseResult crashed = base_result(library_spec(""));
  crashed.status = reports::Verdict::crash;
  merge_rank_results({nlohmann::json(), nlohmann::json()}, crashed);
  EXPECT_EQ(crashed.messages.unobservable,
            "not observable in mpich (its version unknown: no rank named it)");
}

TEST(ImplDefined, ACaseWithoutResultsNamesTheLibraryItsRanksSaidHelloWith) {
  // A crash or deadlock before any result: the hellos named the library with its version.
  reports::CaseResult crashed = base_result(library_spec(""));
  crashed.status = reports::Verdict::crash;
  merge_rank_results({nlohmann::json(), nlohmann::json()}, crashed, "mpich 4.0.2");
  EXPECT_EQ(crashed.impl, "mpich 4.0.2");
  EXPECT_EQ(crashed.path, "");
  EXPECT_FALSE(crashed.messages.measured);
  EXPECT_EQ(crashed.messages.unobservable, "not observable in mpich 4.0.2");
  EXPECT_EQ(crashed.status, reports::Verdict::crash);
  // A rank's result names it too; the two agree, the result's wins.
  reports::CaseResult one = base_result(library_spec(""));
  merge_rank_results(
      {{{"status", "fail"}, {"impl", "openmpi 4.1.4 osc=ucx"}, {"messages", nullptr}},
       nlohmann::json()},
      one, "openmpi 4.1.4 osc=sm");
  EXPECT_EQ(one.impl, "openmpi 4.1.4 osc=ucx");
  EXPECT_EQ(one.messages.unobservable, "not observable in openmpi 4.1.4 osc=ucx");
  // The reference is never renamed.
  reports::CaseResult ref = base_result(spec("am", "async"));
  merge_rank_results({nlohmann::json()}, ref, "mpich 4.0.2");
  EXPECT_EQ(ref.impl, "ref");
  EXPECT_EQ(ref.messages.unobservable, "");
}

// The launcher's own words about ranks that ended without a result: hydra names pids, Open MPI
// ranks; a hydra code that is the number of the signal its cleanup ended the job with says
// nothing certain about the rank and is not taken.
TEST(LauncherReport, HydraAndOpenMpiCodes) {
  const std::string hydra =
      "===================================================================================\n"
      "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n"
      "=   PID 4242 RUNNING AT host1\n"
      "=   EXIT CODE: 3\n"
      "=   CLEANING UP REMAINING PROCESSES\n";
  const LauncherReport h = parse_launcher_report(hydra);
  ASSERT_EQ(h.code_by_pid.size(), 1u);
  EXPECT_EQ(h.code_by_pid[0], std::make_pair(4242, 3));
  EXPECT_TRUE(h.code_by_rank.empty());

  const std::string ompi =
      "Primary job  terminated normally, but 1 process returned\n"
      "  Process name: [[1234,1],1]\n  Exit code:    3\n";
  const LauncherReport o = parse_launcher_report(ompi);
  ASSERT_EQ(o.code_by_rank.size(), 1u);
  EXPECT_EQ(o.code_by_rank[0], std::make_pair(1, 3));

  const LauncherReport s =
      parse_launcher_report("srun: error: vm: task 1: Exited with exit code 3\n");
  ASSERT_EQ(s.code_by_rank.size(), 1u);
  EXPECT_EQ(s.code_by_rank[0], std::make_pair(1, 3));
}

TEST(LauncherReport, HydraCodeThatIsTheJobsSignalIsNotTaken) {
  const std::string text =
      "=   PID 4242 RUNNING AT host1\n"
      "=   EXIT CODE: 1\n"
      "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Hangup (signal 1)\n";
  EXPECT_TRUE(parse_launcher_report(text).code_by_pid.empty());
  // Another code beside that exit string is the rank's own.
  const std::string other =
      "=   PID 4242 RUNNING AT host1\n"
      "=   EXIT CODE: 3\n"
      "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Hangup (signal 1)\n";
  ASSERT_EQ(parse_launcher_report(other).code_by_pid.size(), 1u);
  EXPECT_EQ(parse_launcher_report(other).code_by_pid[0].second, 3);
}

}  // namespace
}  // namespace harness::mpi
