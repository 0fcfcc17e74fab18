// --provider against the run's cases and what libfabric offers here (provider_check.hpp).
#include "cli/provider_check.hpp"

#include "rma/runtime.hpp"

namespace harness::cli {
namespace {

// An MPI under --impl picks its own transport: only the reference's fabric cases take one.
bool on_fabric(const suite::CaseSpec& c) {
  return c.on_reference() && c.on_fabric();
}

}  // namespace

ProviderCatalog libfabric_providers() {
  return {rma::fabric_provider_available, [] {
            std::vector<std::string> names;
            for (const auto& p : rma::fabric_providers()) names.push_back(p.name);
            return names;
          }};
}

void check_provider(const std::optional<std::string>& provider, const suite::Expansion& ex,
                    const std::string& input, const ProviderCatalog& catalog) {
  if (!provider || provider->empty()) return;
  bool fabric = false;
  for (const auto& c : ex.cases) fabric |= on_fabric(c);
  for (const auto& [c, reason] : ex.excluded) fabric |= on_fabric(c);
  if (!fabric)
    throw suite::UsageError(
        "--provider applies to the reference implementation's fabric backend only (an MPI "
        "under --impl picks its own transport), and no case of " +
        input + " runs there (add --backend fabric, or leave out --provider " + *provider + ")");
  if (const rma::Status s = catalog.available(*provider); !s) {
    std::string names;
    for (const auto& n : catalog.names()) names += (names.empty() ? "" : ", ") + n;
    throw suite::UsageError("--provider " + *provider + ": " + s.message() +
                            "; providers here: " + (names.empty() ? "none" : names) +
                            " (`rmabench info` says what each offers)");
  }
}

}  // namespace harness::cli
