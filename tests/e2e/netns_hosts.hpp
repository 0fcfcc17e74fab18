// netns_hosts.hpp — two network namespaces acting as two hosts for end-to-end tests, joined
// by a veth pair (10.231.0.1 and .2 unless told otherwise), made by the test and deleted with
// it. Each has an /etc/netns/NS/hosts naming both hosts (`ip netns exec` binds it over
// /etc/hosts), so that host names resolve inside them as on a cluster; `on_host` runs a
// command there with the host's own name (a UTS namespace of its own), and
// scripts/netns_rsh.sh is the ssh an MPI launcher uses to reach them.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace e2e {

class NetnsHosts {
 public:
  // Hosts `names` (two) in namespaces "rmabench-e2e-<tag>-<name>"; `subnet` "10.231.0." gets
  // .1 and .2.
  NetnsHosts(const std::string& tag, std::vector<std::string> names = {"host0", "host1"},
             const std::string& subnet = "10.231.0.");
  ~NetnsHosts();
  NetnsHosts(const NetnsHosts&) = delete;
  NetnsHosts& operator=(const NetnsHosts&) = delete;

  // Why there are no hosts ("" when they were made): no root, no `ip`, no namespaces here
  // (a test skips with it), or the step that failed (a test fails with it).
  const std::string& skip_reason() const { return skip_; }
  const std::string& error() const { return error_; }

  const std::string& name(int host) const { return names_[static_cast<std::size_t>(host)]; }
  const std::string& ns(int host) const { return ns_[static_cast<std::size_t>(host)]; }
  std::string ns_prefix() const { return prefix_; }  // ns(i) == ns_prefix() + name(i)
  std::string veth(int host) const { return veth_[static_cast<std::size_t>(host)]; }
  const std::string& ip() const { return ip_; }

  // `ip` words that run `argv` on `host`: in its namespace, with its host name, `env`
  // ("NAME=value") in its environment.
  std::vector<std::string> on_host(int host, const std::vector<std::string>& argv,
                                   const std::vector<std::string>& env = {}) const;
  // The pids in `host`'s namespace (`ip netns pids`).
  std::vector<pid_t> pids(int host) const;
  // What the pids in `host`'s namespace run: "pid comm" lines, "" when none.
  std::string processes(int host) const;

 private:
  std::string ip_, prefix_, skip_, error_;
  std::vector<std::string> names_, ns_, veth_, etc_;
  bool made_ = false;
};

}  // namespace e2e
