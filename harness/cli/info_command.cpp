// `rmabench info`: the host as hwloc sees it, the backends compiled in, and the libfabric
// providers that offer reliable-datagram (RDM) endpoints here.
#include <iostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "launcher/topology.hpp"
#include "rma/runtime.hpp"
#include "version.hpp"

namespace harness::cli {

int info_command() {
  std::cout << "rmabench " << rmabench_version() << " (" << git_revision() << ")\n\n";
  launcher::Topology topo;
  std::cout << "topology (hwloc):\n  " << topo.text() << "\n";
  std::cout << "backends:";
  for (const auto& b : rma::compiled_backends()) std::cout << " " << b.name;
  std::cout << "\n\nfabric providers with RDM endpoints (libfabric):\n";
  const auto providers = rma::fabric_providers();
  if (providers.empty()) std::cout << "  none\n";
  for (const auto& p : providers)
    std::cout << "  " << p.name << "  fabric " << p.fabric << ", domain " << p.domain << "\n";
  return kExitOk;
}

}  // namespace harness::cli
