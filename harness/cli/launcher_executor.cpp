#include "cli/launcher_executor.hpp"

#include <filesystem>
#include <iostream>

namespace harness::cli {

std::string self_exe() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find the rmabench executable: " + ec.message());
  return p.string();
}

LauncherExecutor::LauncherExecutor(const RunArgs& args, const launcher::Topology& topology,
                                   bool warn_shared_cores, std::vector<mpi::MpiLaunch> mpis,
                                   launcher::PmixJob* pmix)
    : mpis_(std::move(mpis)), topology_(topology), warn_shared_cores_(warn_shared_cores) {
  options_.pmix = pmix;
  options_.self_exe = self_exe();
  options_.topology = &topology_;
  options_.verbose = args.verbose;
  options_.rank_exec = args.rank_exec;
  launcher::sweep_stale_segments();
}

Executed LauncherExecutor::execute(const suite::CaseSpec& spec) {
  if (warn_shared_cores_ && spec.ranks > topology_.cores())
    std::cerr << "rmabench: warning: " << spec.id << ": " << spec.ranks << " ranks on "
              << topology_.cores()
              << " cores share cores; latencies include the scheduler's time slicing\n";
  options_.external = nullptr;
  if (!spec.on_reference()) {
    for (const auto& m : mpis_)
      if (m.spelling == spec.impl) options_.external = &m;
    if (!options_.external)
      throw launcher::LaunchError(spec.id + ": no launch for --impl " + spec.impl);
  }
  return {launcher::run_case(spec, options_)};
}

}  // namespace harness::cli
