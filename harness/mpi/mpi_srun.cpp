// mpi_srun.cpp — an MPI library's ranks as one srun job step per case (see the header).
#include "mpi/mpi_srun.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "launcher/control_socket.hpp"
#include "mpi/mpi_launch.hpp"
#include "suite/manifest.hpp"

namespace harness::mpi {
namespace {

std::string on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string d; std::getline(dirs, d, ':');) {
    const std::string p = d + "/" + name;
    if (!d.empty() && ::access(p.c_str(), X_OK) == 0) return p;
  }
  return "";
}

// The launcher's `--mca NAME VALUE` words as Open MPI's environment; any other word is not
// srun's.
Env mca_env(const MpiLaunch& mpi) {
  Env env;
  for (std::size_t i = 0; i < mpi.args.size(); ++i) {
    if (mpi.args[i] == "--mca" && i + 2 < mpi.args.size()) {
      env.emplace_back("OMPI_MCA_" + mpi.args[i + 1], mpi.args[i + 2]);
      i += 2;
      continue;
    }
    throw suite::UsageError("--mpi-arg " + mpi.args[i] +
                            ": srun starts the ranks (--mpi-start srun), and takes no words of " +
                            std::filesystem::path(mpi.launcher).filename().string() +
                            " (only --mca NAME VALUE, passed as OMPI_MCA_NAME)");
  }
  return env;
}

class SrunStart final : public Start {
 public:
  SrunStart(std::string srun, std::string plugin, Env mca, std::string address)
      : srun_(std::move(srun)),
        plugin_(std::move(plugin)),
        mca_(std::move(mca)),
        address_(std::move(address)) {}
  std::string program(const MpiLaunch&) const override { return srun_; }
  std::vector<std::string> command(const MpiLaunch& mpi, int ranks, const Env& env) const override {
    // srun hands its own environment to the tasks: set through env(1), which execs srun, so
    // no value needs srun's --export quoting.
    std::vector<std::string> argv{"/usr/bin/env"};
    for (const Env* e : {&env, &mca_})
      for (const auto& [k, v] : *e) argv.push_back(k + "=" + v);
    argv.insert(argv.end(), {srun_, "--mpi=" + plugin_, "-n", std::to_string(ranks),
                             "--kill-on-bad-exit=1", mpi.worker});
    return argv;
  }
  launcher::ControlReach control_reach() const override {
    return {launcher::ControlReach::Kind::tcp, address_};
  }
  int stop_signal() const override { return SIGTERM; }
  nlohmann::json context() const override {
    nlohmann::json j = {
        {"how", "srun"}, {"srun", srun_}, {"mpi", plugin_}, {"control_address", address_}};
    if (const char* id = std::getenv("SLURM_JOB_ID")) j["job_id"] = id;
    return j;
  }

 private:
  std::string srun_, plugin_;
  Env mca_;
  std::string address_;
};

}  // namespace

std::string srun_mpi_plugin(const std::string& launcher_kind) {
  return launcher_kind == "hydra" ? "pmi2" : "pmix";
}

std::shared_ptr<const Start> srun_start(const MpiLaunch& mpi) {
  const std::string srun = on_path("srun");
  if (srun.empty())
    throw suite::UsageError("--mpi-start srun: no srun on PATH (a Slurm client is needed)");
  return std::make_shared<const SrunStart>(srun, srun_mpi_plugin(mpi.launcher_kind), mca_env(mpi),
                                           launcher::own_address());
}

}  // namespace harness::mpi
