// What libfabric offers on this host, one entry per provider with reliable-datagram (RDM)
// endpoints: its domains, whether it has RMA and atomics, and which of MPI's (op, dtype)
// pairs it executes natively (asked of a domain with fi_query_atomic); and whether it offers
// a provider as a run names it (checked before any rank starts).
#include <rdma/fabric.h>
#include <rdma/fi_domain.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <string_view>

#include "fabric/fabric_api.hpp"
#include "fabric/fabric_atomics.hpp"
#include "fabric/fabric_fid.hpp"
#include "rma/runtime.hpp"

namespace rma {
namespace {

using fabric::Api;

// Every RDM entry offering `caps` (of `provider` only, when given), or null; `rc` gets
// fi_getinfo's answer.
fi_info* list_rdm(const Api& fi, std::uint64_t caps, const std::string& provider = "",
                  int* rc = nullptr) {
  fi_info* hints = fi.dupinfo(nullptr);
  if (!hints) return nullptr;
  if (!provider.empty()) hints->fabric_attr->prov_name = ::strdup(provider.c_str());
  hints->ep_attr->type = FI_EP_RDM;
  hints->caps = caps;
  hints->mode = FI_CONTEXT | FI_CONTEXT2;
  hints->domain_attr->mr_mode = static_cast<int>(FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED |
                                                 FI_MR_PROV_KEY | FI_MR_ENDPOINT);
  fi_info* list = nullptr;
  const int got = fi.getinfo(fabric::kApiVersion, nullptr, nullptr, 0, hints, &list);
  if (got != 0) list = nullptr;
  if (rc) *rc = got;
  fi.freeinfo(hints);
  return list;
}

std::string name_of(const fi_info* i) {
  return i->fabric_attr->prov_name ? i->fabric_attr->prov_name : "?";
}

bool loopback(const fi_info* i) {
  return i->domain_attr->name && std::string_view(i->domain_attr->name) == "lo";
}

// The (op, dtype) pairs MPI allows that are not native, grouped by op: "prod(f32,f64)".
std::string missing(const fabric::AtomicTable& t) {
  std::string out;
  for (int o = 0; o < op_count; ++o) {
    const auto op = static_cast<Op>(o);
    std::string types;
    for (int d = 0; d < dtype_count; ++d) {
      const auto dt = static_cast<Dtype>(d);
      if (!op_valid_for(op, dt)) continue;
      const bool native = op == Op::no_op
                              ? t.max_count(fabric::AtomicKind::fetch, op, dt) > 0
                              : t.max_count(fabric::AtomicKind::accumulate, op, dt) > 0 &&
                                    t.max_count(fabric::AtomicKind::fetch, op, dt) > 0;
      if (!native) types += (types.empty() ? "" : ",") + std::string(to_string(dt));
    }
    if (!types.empty())
      out += (out.empty() ? "" : " ") + std::string(to_string(op)) + "(" + types + ")";
  }
  return out;
}

void query(const Api& fi, const fi_info* entry, ProviderInfo& p) {
  fabric::Fid<fid_fabric> fab;
  fabric::Fid<fid_domain> dom;
  if (fi.fabric(entry->fabric_attr, fab.out(), nullptr) != 0) return;
  if (fi_domain(fab.get(), const_cast<fi_info*>(entry), dom.out(), nullptr) != 0) return;
  const fabric::AtomicTable t = fabric::query_atomics(dom.get(), p.name);
  p.atomics_note = std::string(fabric::atomics_quirk(p.name));
  p.accumulate_atomics = t.coverage(fabric::AtomicKind::accumulate);
  p.fetch_atomics = t.coverage(fabric::AtomicKind::fetch);
  p.compare_atomics = t.coverage(fabric::AtomicKind::compare);
  p.missing_atomics = missing(t);
}

}  // namespace

std::vector<ProviderInfo> fabric_providers() {
  std::vector<ProviderInfo> out;
  auto loaded = fabric::api();
  if (!loaded) return out;
  const Api& fi = *loaded.value();
  fi_info* msg = list_rdm(fi, FI_MSG);
  if (!msg) return out;
  std::map<std::string, std::size_t> index;
  for (fi_info* i = msg; i; i = i->next) {
    const std::string name = name_of(i);
    auto [it, fresh] = index.emplace(name, out.size());
    if (fresh) {
      out.emplace_back();
      out.back().name = name;
    }
    ProviderInfo& p = out[it->second];
    const std::string fab = i->fabric_attr->name ? i->fabric_attr->name : "?";
    const std::string dom = i->domain_attr->name ? i->domain_attr->name : "?";
    const std::string both = dom + " (" + fab + ")";
    if (std::find(p.domains.begin(), p.domains.end(), both) == p.domains.end())
      p.domains.push_back(both);
    if (p.domain.empty() || (loopback(i) && p.domain != "lo")) {
      p.fabric = fab;
      p.domain = dom;
    }
  }
  fi.freeinfo(msg);

  if (fi_info* rma = list_rdm(fi, FI_MSG | FI_RMA)) {
    for (fi_info* i = rma; i; i = i->next)
      if (auto it = index.find(name_of(i)); it != index.end()) out[it->second].rma = true;
    fi.freeinfo(rma);
  }
  if (fi_info* atomic = list_rdm(fi, FI_MSG | FI_RMA | FI_ATOMIC)) {
    std::set<std::string> asked;
    for (fi_info* i = atomic; i; i = i->next) {
      auto it = index.find(name_of(i));
      if (it == index.end()) continue;
      ProviderInfo& p = out[it->second];
      p.atomics = true;
      // One domain per provider answers for all: its loopback one when it has one.
      if (asked.count(p.name) || (!loopback(i) && p.domain == "lo")) continue;
      asked.insert(p.name);
      query(fi, i, p);
    }
    fi.freeinfo(atomic);
  }
  return out;
}

Status fabric_provider_available(const std::string& provider) {
  auto loaded = fabric::api();
  if (!loaded)
    return {ErrorClass::unsupported,
            "fabric provider '" + provider + "': " + loaded.status().message()};
  const Api& fi = *loaded.value();
  int rc = 0;
  fi_info* found = list_rdm(fi, FI_MSG, provider, &rc);
  if (!found)
    return {ErrorClass::unsupported,
            "libfabric offers no reliable-datagram endpoint of provider '" + provider + "' here (" +
                fabric::error_text("fi_getinfo", rc) + ")"};
  fi.freeinfo(found);
  return Status::ok();
}

}  // namespace rma
