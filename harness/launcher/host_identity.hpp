// host_identity.hpp — where a rank runs, as it says in its hello and the report records
// (which rank ran on which host): the host name, the name of the network namespace it is in
// when `ip netns` named one (namespaces acting as hosts), and a node key that tells the
// parent whether the rank's pid means anything here (same kernel, same pid namespace).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace harness::launcher {

struct HostIdentity {
  std::string host;   // gethostname()
  std::string netns;  // the /run/netns/NAME this process's network namespace is, or ""
  std::string node;   // "BOOT_ID/PIDNS_INODE": equal keys share pids
};

HostIdentity this_host();

// The hello's fields and back; a hello without them (an older rank) reads as "".
void put_host(nlohmann::json& hello, const HostIdentity& h);
HostIdentity host_of(const nlohmann::json& hello);

// "host1" or "host1 (netns rmabench-42-host1)": the report's per-rank entry.
std::string host_label(const HostIdentity& h);

}  // namespace harness::launcher
