// host_identity.cpp — a rank's host, network namespace and node key (see the header).
#include "launcher/host_identity.hpp"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

namespace harness::launcher {
namespace {

// The inode of a /proc/self/ns entry, "" when it cannot be read.
std::string ns_inode(const char* path) {
  struct stat st {};
  return ::stat(path, &st) == 0 ? std::to_string(st.st_ino) : "";
}

// `ip netns identify`: the name under /run/netns bound to the same namespace as ours.
std::string netns_name() {
  struct stat self {};
  if (::stat("/proc/self/ns/net", &self) != 0) return "";
  std::string found;
  if (DIR* d = ::opendir("/run/netns")) {
    while (dirent* e = ::readdir(d)) {
      if (e->d_name[0] == '.') continue;
      struct stat st {};
      const std::string p = std::string("/run/netns/") + e->d_name;
      if (::stat(p.c_str(), &st) == 0 && st.st_dev == self.st_dev && st.st_ino == self.st_ino) {
        found = e->d_name;
        break;
      }
    }
    ::closedir(d);
  }
  return found;
}

}  // namespace

HostIdentity this_host() {
  HostIdentity h;
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) == 0) h.host = name;
  h.netns = netns_name();
  std::ifstream boot("/proc/sys/kernel/random/boot_id");
  std::string boot_id;
  std::getline(boot, boot_id);
  h.node = boot_id + "/" + ns_inode("/proc/self/ns/pid");
  return h;
}

void put_host(nlohmann::json& hello, const HostIdentity& h) {
  hello["host"] = h.host;
  if (!h.netns.empty()) hello["netns"] = h.netns;
  hello["node"] = h.node;
}

HostIdentity host_of(const nlohmann::json& hello) {
  HostIdentity h;
  h.host = hello.value("host", std::string());
  h.netns = hello.value("netns", std::string());
  h.node = hello.value("node", std::string());
  return h;
}

std::string host_label(const HostIdentity& h) {
  return h.netns.empty() ? h.host : h.host + " (netns " + h.netns + ")";
}

}  // namespace harness::launcher
