// provider_check.hpp — `--provider` checked in the parent before any case runs (exit 2):
// a provider applies to the reference's fabric backend only, so it is refused when no case of
// the run is on it (it would only have renamed the cases, and ids are what a baseline is
// matched by); and a provider libfabric does not offer here is refused with the list of those
// it does, where otherwise every fabric case would end in the same endpoint error.
//
//   check_provider(args.overrides.provider, plan.expansion, args.input, libfabric_providers());
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rma/status.hpp"
#include "suite/manifest.hpp"

namespace harness::cli {

// What libfabric is asked: whether it offers a provider here, and the names of those it does.
struct ProviderCatalog {
  std::function<rma::Status(const std::string&)> available;
  std::function<std::vector<std::string>()> names;
};
ProviderCatalog libfabric_providers();

// suite::UsageError naming the provider and what is wrong with it; nothing when `provider`
// (nullopt or empty: the default) fits the cases of `ex`, which `input` expanded to.
void check_provider(const std::optional<std::string>& provider, const suite::Expansion& ex,
                    const std::string& input, const ProviderCatalog& catalog);

}  // namespace harness::cli
