#include "fabric/fabric_bootstrap.hpp"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sstream>

namespace rma::fabric {
namespace {

// Every rank publishes "<topic>.<rank>"; after the fence each reads everyone's. Keys carry
// their owner's rank, as PMIx needs (a reader names the process whose key space it reads).
Result<std::vector<std::string>> gather_lines(bootstrap::Bootstrap& boot, const std::string& topic,
                                              const std::string& mine) {
  RMA_TRY(boot.put(topic + "." + std::to_string(boot.rank()), mine));
  RMA_TRY(boot.fence());
  std::vector<std::string> lines;
  for (int r = 0; r < boot.size(); ++r) {
    auto v = boot.get(topic + "." + std::to_string(r));
    if (!v) return v.status();
    lines.push_back(std::move(v.value()));
  }
  return lines;
}

}  // namespace

bool JobHosts::all_local() const {
  for (const auto& h : hosts)
    if (h != hosts.front()) return false;
  return true;
}

Result<JobHosts> exchange_hosts(bootstrap::Bootstrap& boot) {
  // A host is a name and a network namespace: ranks in different namespaces of one machine
  // (containers, the veth test) cannot reach each other's loopback interface.
  char host[HOST_NAME_MAX + 1] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '?';
  struct stat net {};
  const auto netns = ::stat("/proc/self/ns/net", &net) == 0 ? std::to_string(net.st_ino) : "?";
  auto lines =
      gather_lines(boot, "fabric.host", std::to_string(::getpid()) + " " + host + "/net:" + netns);
  if (!lines) return lines.status();
  JobHosts j;
  for (const auto& l : lines.value()) {
    std::istringstream in(l);
    long pid = 0;
    std::string h;
    in >> pid >> h;
    j.pids.push_back(static_cast<pid_t>(pid));
    j.hosts.push_back(h);
  }
  return j;
}

Result<std::vector<std::string>> exchange_names(bootstrap::Bootstrap& boot,
                                                const std::string& mine) {
  auto lines = gather_lines(boot, "fabric.addr", to_hex(mine));
  if (!lines) return lines.status();
  std::vector<std::string> names;
  for (const auto& l : lines.value()) {
    auto b = from_hex(l);
    if (!b) return b.status();
    names.push_back(std::move(b.value()));
  }
  return names;
}

std::string to_hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

Result<std::string> from_hex(const std::string& hex) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  if (hex.size() % 2) return Status{ErrorClass::intern, "bootstrap: odd-length address " + hex};
  std::string out(hex.size() / 2, '\0');
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return Status{ErrorClass::intern, "bootstrap: bad address " + hex};
    out[i] = static_cast<char>(hi << 4 | lo);
  }
  return out;
}

}  // namespace rma::fabric
