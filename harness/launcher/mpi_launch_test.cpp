#include "launcher/mpi_launch.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>

namespace harness::launcher {
namespace {

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
  c.path = path;
  c.progress = progress;
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
  EXPECT_EQ(cases_for_mpi({spec("am", "async")}, mpi, true)[0].progress, "async");
}

TEST(MpiLaunch, ReferenceIdsAreUnchanged) {
  EXPECT_EQ(spec("am", "async").id, "quick/passive/lock_put_unlock[shm,am,np=2]");
}

TEST(MpiLaunch, ProgressModesMapOrSkip) {
  const auto mpich = make("hydra"), ompi = make("openmpi");
  EXPECT_EQ(mpi_skip_reason(mpich, spec("am", "calls")), "");
  EXPECT_EQ(mpi_skip_reason(mpich, spec("am", "async")), "");
  EXPECT_NE(mpi_skip_reason(ompi, spec("am", "async")), "");
  EXPECT_NE(mpi_skip_reason(mpich, spec("am", "sync-only")).find("reference"), std::string::npos);
  const auto env = mpi_case_env(mpich, spec("am", "async"));
  ASSERT_FALSE(env.empty());
  EXPECT_EQ(env.front(), (std::pair<std::string, std::string>{"MPIR_CVAR_ASYNC_PROGRESS", "1"}));
  EXPECT_EQ(mpi_case_env(mpich, spec("am", "calls")).size(), 1u);  // only the run's own A=1
}

TEST(MpiLaunch, UnknownImplementationIsAUsageError) {
  EXPECT_THROW(resolve_mpi("lam", "/nowhere", {}, {}), suite::UsageError);
  EXPECT_THROW(mpi_for_run("ref", {"--mca x y"}, {}), suite::UsageError);
  EXPECT_FALSE(mpi_for_run("ref", {}, {}).has_value());
}

TEST(MpiLaunch, ControlSocketConnects) {
  const std::string name = "@rmabench.test." + std::to_string(::getpid());
  const int l = listen_control_socket(name);
  ASSERT_GE(l, 0);
  const int c = connect_control_socket(name);
  EXPECT_GE(c, 0);
  if (c >= 0) ::close(c);
  ::close(l);
  EXPECT_LT(connect_control_socket(name), 0);
}

}  // namespace
}  // namespace harness::launcher
