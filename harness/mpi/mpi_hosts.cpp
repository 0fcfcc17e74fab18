// mpi_hosts.cpp — ranks on several hosts through the library's own launcher (see the header).
#include "mpi/mpi_hosts.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "mpi/mpi_launch.hpp"
#include "suite/manifest.hpp"

namespace harness::mpi {
namespace {

std::string numeric(const sockaddr* a) {
  char text[INET6_ADDRSTRLEN] = {};
  const void* raw =
      a->sa_family == AF_INET6
          ? static_cast<const void*>(&reinterpret_cast<const sockaddr_in6*>(a)->sin6_addr)
          : static_cast<const void*>(&reinterpret_cast<const sockaddr_in*>(a)->sin_addr);
  ::inet_ntop(a->sa_family, raw, text, sizeof text);
  return text;
}

// The address this host sends from toward `host` (a UDP connect: routing only, no packet),
// and the host's own address; throws UsageError when it does not resolve or has no route.
std::pair<std::string, std::string> route_to(const std::string& host, const std::string& field) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_DGRAM;
  hints.ai_family = AF_UNSPEC;
  addrinfo* res = nullptr;
  if (const int rc = ::getaddrinfo(host.c_str(), "9", &hints, &res); rc != 0)
    throw suite::UsageError(field + " " + host + ": unknown host (" + ::gai_strerror(rc) + ")");
  const int fd = ::socket(res->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  sockaddr_storage src{};
  socklen_t len = sizeof src;
  const bool routed = fd >= 0 && ::connect(fd, res->ai_addr, res->ai_addrlen) == 0 &&
                      ::getsockname(fd, reinterpret_cast<sockaddr*>(&src), &len) == 0;
  const std::string why = std::strerror(errno);
  if (fd >= 0) ::close(fd);
  const std::string dest = numeric(res->ai_addr);
  ::freeaddrinfo(res);
  if (!routed)
    throw suite::UsageError(field + " " + host + ": unreachable from this host (" + dest + ": " +
                            why + ")");
  return {numeric(reinterpret_cast<const sockaddr*>(&src)), dest};
}

std::string joined(const std::vector<std::string>& hosts, const std::string& suffix) {
  std::string out;
  for (const auto& h : hosts) out += (out.empty() ? "" : ",") + h + suffix;
  return out;
}

class HostsStart final : public Start {
 public:
  explicit HostsStart(HostPlan plan) : plan_(std::move(plan)) {}
  std::string program(const MpiLaunch& mpi) const override { return mpi.launcher; }
  std::vector<std::string> command(const MpiLaunch& mpi, int ranks, const Env& env) const override {
    return mpi_command(mpi, ranks, env, placement_words(mpi.launcher_kind, plan_, ranks));
  }
  launcher::ControlReach control_reach() const override {
    return {launcher::ControlReach::Kind::tcp, plan_.control_address};
  }
  // The launcher tears its job down on other hosts itself: Open MPI's plm_rsh puts its
  // remote-start agents in process groups of their own, so killing the launcher's group
  // would leave the remote daemons (orted) running.
  int stop_signal() const override { return SIGTERM; }
  nlohmann::json context() const override {
    return {{"how", "launcher"},
            {"hosts", plan_.hosts},
            {"map", plan_.placement == HostPlan::Placement::spread ? "spread" : "block"},
            {"rsh", plan_.rsh},
            {"control_address", plan_.control_address}};
  }

 private:
  HostPlan plan_;
};

}  // namespace

std::vector<std::string> read_hostfile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw suite::UsageError("--mpi-hostfile " + path + ": cannot be read");
  std::vector<std::string> hosts;
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string host;
    if (!(words >> host)) continue;
    host = host.substr(0, host.find(':'));
    if (host.empty())
      throw suite::UsageError("--mpi-hostfile " + path + ":" + std::to_string(n) +
                              ": no host name");
    hosts.push_back(host);
  }
  if (hosts.empty()) throw suite::UsageError("--mpi-hostfile " + path + ": names no host");
  return hosts;
}

HostPlan plan_hosts(const std::vector<std::string>& hosts, const std::string& field,
                    const std::string& map, const std::string& rsh) {
  HostPlan plan;
  plan.rsh = rsh;
  plan.placement = map == "block" ? HostPlan::Placement::block : HostPlan::Placement::spread;
  for (const auto& h : hosts) {
    if (h.empty() || h.find_first_of(" \t:") != std::string::npos)
      throw suite::UsageError(field + " '" + h + "': expected host names separated by commas");
    auto [source, dest] = route_to(h, field);
    // The first host that is not this one decides where the parent must be reachable.
    if (plan.control_address.empty() && source != dest) plan.control_address = source;
    plan.hosts.push_back(h);
  }
  if (plan.hosts.empty()) throw suite::UsageError(field + ": names no host");
  if (plan.control_address.empty()) plan.control_address = "127.0.0.1";
  return plan;
}

std::vector<std::string> placement_words(const std::string& kind, const HostPlan& plan, int ranks) {
  const int per_host =
      (ranks + static_cast<int>(plan.hosts.size()) - 1) / static_cast<int>(plan.hosts.size());
  const bool spread = plan.placement == HostPlan::Placement::spread;
  std::vector<std::string> w;
  if (kind == "hydra") {
    // A host without a count has one slot: hydra deals the ranks out one per host in turn.
    w = {"-hosts",
         spread ? joined(plan.hosts, "") : joined(plan.hosts, ":" + std::to_string(per_host))};
    if (!plan.rsh.empty()) w.insert(w.end(), {"-launcher", "ssh", "-launcher-exec", plan.rsh});
  } else if (kind == "openmpi") {
    w = {"--host", joined(plan.hosts, ":" + std::to_string(per_host)), "--map-by",
         spread ? "node" : "slot"};
    if (!plan.rsh.empty()) w.insert(w.end(), {"--mca", "plm_rsh_agent", plan.rsh});
  } else {
    throw suite::UsageError("--mpi-hosts: the launcher's host syntax is not known (kind '" + kind +
                            "'); give its words with --mpi-arg");
  }
  return w;
}

std::shared_ptr<const Start> hosts_start(const MpiLaunch& mpi, HostPlan plan) {
  (void)placement_words(mpi.launcher_kind, plan, 1);  // the kind's syntax is known
  return std::make_shared<const HostsStart>(std::move(plan));
}

}  // namespace harness::mpi
