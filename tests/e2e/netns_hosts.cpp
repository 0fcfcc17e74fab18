// netns_hosts.cpp — two namespace hosts joined by a veth pair (see the header).
#include "netns_hosts.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "run_rmabench.hpp"

namespace e2e {

NetnsHosts::NetnsHosts(const std::string& tag, std::vector<std::string> names,
                       const std::string& subnet)
    : names_(std::move(names)) {
  ip_ = find_program("ip");
  if (ip_.empty()) {
    skip_ = "no `ip` command (Debian's iproute2) to make namespaces";
    return;
  }
  if (::geteuid() != 0) {
    skip_ = "making network namespaces needs root";
    return;
  }
  prefix_ = "rmabench-e2e-" + tag + "-";
  const std::string pid = std::to_string(::getpid());
  for (std::size_t i = 0; i < names_.size(); ++i) {
    ns_.push_back(prefix_ + names_[i]);
    veth_.push_back("rbv" + pid + (i == 0 ? "a" : "b"));
  }
  // Names resolve in each namespace as on a cluster: /etc/netns/NS/hosts.
  std::string hosts = "127.0.0.1 localhost\n";
  for (std::size_t i = 0; i < names_.size(); ++i)
    hosts += subnet + std::to_string(i + 1) + " " + names_[i] + "\n";
  for (const auto& n : ns_) {
    etc_.push_back("/etc/netns/" + n);
    std::filesystem::create_directories(etc_.back());
    std::ofstream(etc_.back() + "/hosts") << hosts;
  }
  std::vector<std::vector<std::string>> steps = {
      {"netns", "add", ns_[0]},
      {"netns", "add", ns_[1]},
      {"link", "add", veth_[0], "type", "veth", "peer", "name", veth_[1]},
  };
  for (int i = 0; i < 2; ++i) {
    const std::string v = veth_[static_cast<std::size_t>(i)], n = ns_[static_cast<std::size_t>(i)];
    steps.push_back({"link", "set", v, "netns", n});
    steps.push_back({"-n", n, "addr", "add", subnet + std::to_string(i + 1) + "/24", "dev", v});
    steps.push_back({"-n", n, "link", "set", "lo", "up"});
    steps.push_back({"-n", n, "link", "set", v, "up"});
  }
  for (const auto& s : steps) {
    const auto r = run_program(ip_, s, 30);
    if (r.exit_code != 0) {
      std::string cmd = "ip";
      for (const auto& w : s) cmd += " " + w;
      // No namespace at all: this sandbox cannot make them.
      (&s == &steps.front() ? skip_ : error_) =
          "cannot make network namespaces here (`" + cmd + "`: " + r.err + ")";
      return;
    }
    made_ = true;
  }
}

NetnsHosts::~NetnsHosts() {
  // Deleting a namespace deletes the veth end in it, and with it the pair.
  if (made_)
    for (const auto& n : ns_) run_program(ip_, {"netns", "delete", n}, 30);
  for (const auto& d : etc_) std::filesystem::remove_all(d);
}

std::vector<std::string> NetnsHosts::on_host(int host, const std::vector<std::string>& argv,
                                             const std::vector<std::string>& env) const {
  std::vector<std::string> w = {"netns", "exec", ns(host), "/usr/bin/env"};
  w.insert(w.end(), env.begin(), env.end());
  // unshare execs sh, which names the host and execs the command: one pid all the way.
  w.insert(w.end(),
           {"unshare", "--uts", "/bin/sh", "-c", "hostname \"$0\" && exec \"$@\"", name(host)});
  w.insert(w.end(), argv.begin(), argv.end());
  return w;
}

std::vector<pid_t> NetnsHosts::pids(int host) const {
  std::vector<pid_t> out;
  const auto r = run_program(ip_, {"netns", "pids", ns(host)}, 30);
  std::istringstream in(r.out);
  for (long p; in >> p;) out.push_back(static_cast<pid_t>(p));
  return out;
}

std::string NetnsHosts::processes(int host) const {
  std::string out;
  for (pid_t p : pids(host)) {
    std::ifstream comm("/proc/" + std::to_string(p) + "/comm");
    std::string c;
    std::getline(comm, c);
    out += std::to_string(p) + " " + c + "\n";
  }
  return out;
}

}  // namespace e2e
