// `rmabench info`: the host as hwloc sees it, the backends compiled in, and the libfabric
// providers that offer reliable-datagram (RDM) endpoints here, one block per provider with
// its RMA and native-atomics support and its domains.
#include <iostream>
#include <string>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "launcher/topology.hpp"
#include "mpi/mpi_catalog.hpp"
#include "rma/runtime.hpp"
#include "version.hpp"

namespace harness::cli {

int info_command() {
  std::cout << "rmabench " << rmabench_version() << " (" << git_revision() << ")\n\n";
  launcher::Topology topo;
  std::cout << "topology (hwloc):\n  " << topo.text() << "\n";
  std::cout << "backends:";
  for (const auto& b : rma::compiled_backends()) std::cout << " " << b.name;
  std::cout
      << "\n\nimplementations under test (--impl):\n  ref        the reference implementation\n";
  for (const auto& m : mpi::mpi_builds()) {
    std::cout << "  " << m.name << std::string(m.name.size() < 10 ? 10 - m.name.size() : 1, ' ')
              << " ";
    if (m.built)
      std::cout << m.worker << " via " << m.launcher << " (built with " << m.wrapper << ")\n";
    else
      std::cout << m.missing << "\n";
  }
  std::cout << "\nfabric providers with RDM endpoints (libfabric):\n";
  const auto providers = rma::fabric_providers();
  if (providers.empty()) std::cout << "  none\n";
  auto ratio = [](std::pair<int, int> r) {
    return std::to_string(r.first) + "/" + std::to_string(r.second);
  };
  for (const auto& p : providers) {
    std::cout << "  " << p.name << "\n    RDM yes, RMA " << (p.rma ? "yes" : "no") << ", atomics ";
    if (!p.atomics) {
      std::cout << "no\n";
    } else {
      std::cout << "native (op x dtype pairs MPI allows): accumulate "
                << ratio(p.accumulate_atomics) << ", fetch " << ratio(p.fetch_atomics)
                << ", compare_and_swap " << ratio(p.compare_atomics) << "\n";
      if (!p.missing_atomics.empty()) std::cout << "    not native: " << p.missing_atomics << "\n";
      if (!p.atomics_note.empty()) std::cout << "    note: " << p.atomics_note << "\n";
    }
    std::cout << "    domains:";
    for (std::size_t i = 0; i < p.domains.size(); ++i)
      std::cout << (i ? ", " : " ") << p.domains[i];
    std::cout << "\n";
  }
  return kExitOk;
}

}  // namespace harness::cli
