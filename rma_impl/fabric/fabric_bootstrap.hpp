// fabric_bootstrap.hpp — what the fabric transport exchanges through the bootstrap before it
// exists: every rank's host and pid (to pick the loopback interface when all ranks share a
// host, and to tell a dead local peer from a slow one), then every endpoint's address.
//
// Rank 0 gathers each round and publishes it as one value, so a job of n ranks costs O(n)
// bootstrap requests instead of n².
//
//   auto hosts = exchange_hosts(boot);          // before opening the endpoint
//   auto names = exchange_names(boot, my_name); // after posting receives
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "rma/bootstrap.hpp"
#include "rma/status.hpp"

namespace rma::fabric {

struct JobHosts {
  std::vector<std::string> hosts;  // by rank
  std::vector<pid_t> pids;         // by rank
  bool all_local() const;
  bool same_host(int a, int b) const {
    return hosts[static_cast<std::size_t>(a)] == hosts[static_cast<std::size_t>(b)];
  }
};

Result<JobHosts> exchange_hosts(bootstrap::Bootstrap& boot);
// Every rank's endpoint name (raw bytes), in rank order.
Result<std::vector<std::string>> exchange_names(bootstrap::Bootstrap& boot,
                                                const std::string& mine);

// Hex, so that binary addresses survive the bootstrap's string values.
std::string to_hex(const std::string& bytes);
Result<std::string> from_hex(const std::string& hex);

}  // namespace rma::fabric
