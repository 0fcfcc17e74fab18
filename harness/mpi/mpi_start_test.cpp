// The ways of starting an MPI's ranks (mpi_start.hpp): each launcher's host syntax, hostfiles,
// the errors that name the field, the srun step's command line.
#include "mpi/mpi_start.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "mpi/mpi_hosts.hpp"
#include "mpi/mpi_launch.hpp"
#include "mpi/mpi_srun.hpp"
#include "suite/manifest.hpp"

namespace harness::mpi {
namespace {

using Words = std::vector<std::string>;

HostPlan plan(HostPlan::Placement p, std::string rsh = "") {
  HostPlan h;
  h.hosts = {"h0", "h1"};
  h.placement = p;
  h.rsh = std::move(rsh);
  return h;
}

MpiLaunch make(const std::string& kind) {
  MpiLaunch m;
  m.spelling = m.name = kind == "hydra" ? "mpich" : "openmpi";
  m.launcher = "/usr/bin/mpiexec";
  m.launcher_kind = kind;
  m.worker = "/build/rmabench-worker-x";
  return m;
}

TEST(MpiHosts, EachLauncherGetsHostsInItsOwnSyntax) {
  using P = HostPlan::Placement;
  EXPECT_EQ(placement_words("hydra", plan(P::spread), 4), (Words{"-hosts", "h0,h1"}));
  EXPECT_EQ(placement_words("hydra", plan(P::block), 3), (Words{"-hosts", "h0:2,h1:2"}));
  EXPECT_EQ(placement_words("openmpi", plan(P::spread), 2),
            (Words{"--host", "h0:1,h1:1", "--map-by", "node"}));
  EXPECT_EQ(placement_words("openmpi", plan(P::block), 4),
            (Words{"--host", "h0:2,h1:2", "--map-by", "slot"}));
  EXPECT_EQ(placement_words("hydra", plan(P::spread, "/x/agent"), 2),
            (Words{"-hosts", "h0,h1", "-launcher", "ssh", "-launcher-exec", "/x/agent"}));
  EXPECT_EQ(
      placement_words("openmpi", plan(P::spread, "/x/agent"), 2),
      (Words{"--host", "h0:1,h1:1", "--map-by", "node", "--mca", "plm_rsh_agent", "/x/agent"}));
  EXPECT_THROW(placement_words("generic", plan(P::spread), 2), suite::UsageError);
}

TEST(MpiHosts, TheCommandPlacesRanksAndTheControlIsTcp) {
  HostPlan p = plan(HostPlan::Placement::spread);
  p.control_address = "10.0.0.1";
  MpiLaunch m = make("hydra");
  m.start = hosts_start(m, p);
  const Words w = m.start->command(m, 2, {{"K", "V"}});
  EXPECT_EQ(w, (Words{"/usr/bin/mpiexec", "-n", "2", "-hosts", "h0,h1", "-genv", "K", "V",
                      "/build/rmabench-worker-x"}));
  EXPECT_EQ(m.control_reach().kind, launcher::ControlReach::Kind::tcp);
  EXPECT_EQ(m.control_reach().address, "10.0.0.1");
  EXPECT_EQ(m.start->context()["hosts"], nlohmann::json({"h0", "h1"}));
}

TEST(MpiHosts, UnknownHostIsAUsageErrorNamingTheFieldAndHost) {
  try {
    plan_hosts({"localhost", "no-such-host.invalid"}, "--mpi-hosts", "spread", "");
    FAIL() << "no error";
  } catch (const suite::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--mpi-hosts no-such-host.invalid: unknown host"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(plan_hosts({"a b"}, "--mpi-hosts", "spread", ""), suite::UsageError);
  // Every host is this one: the control socket stays on the loopback.
  EXPECT_EQ(plan_hosts({"localhost"}, "--mpi-hosts", "block", "").control_address, "127.0.0.1");
}

TEST(MpiHosts, HostfileNamesOneHostALine) {
  const auto path =
      std::filesystem::temp_directory_path() / ("rmabench-hostfile-" + std::to_string(::getpid()));
  std::ofstream(path) << "# nodes\nnode1 slots=4\n\nnode2:2  # second\n";
  EXPECT_EQ(read_hostfile(path.string()), (Words{"node1", "node2"}));
  std::ofstream(path) << "# nothing\n";
  EXPECT_THROW(read_hostfile(path.string()), suite::UsageError);
  std::filesystem::remove(path);
  EXPECT_THROW(read_hostfile(path.string()), suite::UsageError);
}

TEST(MpiStart, OptionsThatDoNotFitTogetherAreUsageErrors) {
  const MpiLaunch m = make("hydra");
  StartOptions o;
  o.hosts = {"localhost"};
  o.hostfile = "/etc/hosts";
  EXPECT_THROW(choose_start(m, o), suite::UsageError);
  o = {};
  o.rsh = "/x/agent";
  EXPECT_THROW(choose_start(m, o), suite::UsageError);
  o = {};
  o.start = "srun";
  o.hosts = {"localhost"};
  EXPECT_THROW(choose_start(m, o), suite::UsageError);
  o = {};
  o.start = "launcher";
  EXPECT_EQ(choose_start(m, o), local_start());
}

TEST(MpiSrun, OneStepACaseWithTheLibrarysPmi) {
  EXPECT_EQ(srun_mpi_plugin("hydra"), "pmi2");
  EXPECT_EQ(srun_mpi_plugin("openmpi"), "pmix");
  const std::string dir =
      std::filesystem::temp_directory_path() / ("rmabench-srun-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/srun") << "#!/bin/sh\n";
  std::filesystem::permissions(dir + "/srun", std::filesystem::perms::owner_all);
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", (dir + ":" + path).c_str(), 1);
  MpiLaunch m = make("openmpi");
  m.args = {"--mca", "osc", "ucx"};
  m.start = srun_start(m);
  EXPECT_EQ(m.program(), dir + "/srun");
  EXPECT_EQ(m.start->command(m, 2, {{"K", "V"}}),
            (Words{"/usr/bin/env", "K=V", "OMPI_MCA_osc=ucx", dir + "/srun", "--mpi=pmix", "-n",
                   "2", "--kill-on-bad-exit=1", "/build/rmabench-worker-x"}));
  EXPECT_EQ(m.control_reach().kind, launcher::ControlReach::Kind::tcp);
  EXPECT_NE(m.stop_signal(), 0);
  m.args = {"--bind-to", "core"};
  EXPECT_THROW(srun_start(m), suite::UsageError);
  ::setenv("PATH", path.c_str(), 1);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace harness::mpi
