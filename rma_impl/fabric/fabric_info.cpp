// What libfabric offers on this host: providers with RDM endpoints, one line per
// (provider, fabric, domain).
#include <rdma/fabric.h>

#include <set>
#include <tuple>

#include "fabric/fabric_api.hpp"
#include "rma/runtime.hpp"

namespace rma {

std::vector<ProviderInfo> fabric_providers() {
  std::vector<ProviderInfo> out;
  auto loaded = fabric::api();
  if (!loaded) return out;
  const fabric::Api& fi = *loaded.value();
  fi_info* hints = fi.dupinfo(nullptr);
  if (!hints) return out;
  hints->ep_attr->type = FI_EP_RDM;
  hints->caps = FI_MSG;
  fi_info* list = nullptr;
  if (fi.getinfo(FI_VERSION(1, 17), nullptr, nullptr, 0, hints, &list) == 0) {
    std::set<std::tuple<std::string, std::string, std::string>> seen;
    for (fi_info* i = list; i; i = i->next) {
      ProviderInfo p{i->fabric_attr->prov_name ? i->fabric_attr->prov_name : "?",
                     i->fabric_attr->name ? i->fabric_attr->name : "?",
                     i->domain_attr->name ? i->domain_attr->name : "?"};
      if (seen.insert({p.name, p.fabric, p.domain}).second) out.push_back(std::move(p));
    }
    fi.freeinfo(list);
  }
  fi.freeinfo(hints);
  return out;
}

}  // namespace rma
