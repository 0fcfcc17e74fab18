// external_launch.cpp — what the case watcher needs of ranks another program's launcher
// starts (see the header): the launcher's own report, /dev/shm before and after, the control
// socket.
#include "launcher/external_launch.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <regex>
#include <sstream>

namespace harness::launcher {
namespace {

sockaddr_un abstract_address(const std::string& at_name, socklen_t* len) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  // "@name": a leading NUL in sun_path makes the name abstract (Linux).
  const std::string name = at_name.substr(at_name.rfind('@', 0) == 0 ? 1 : 0);
  const std::size_t n = std::min(name.size(), sizeof(a.sun_path) - 2);
  std::memcpy(a.sun_path + 1, name.data(), n);
  *len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + n);
  return a;
}

}  // namespace

std::set<std::string> shm_entries() {
  std::set<std::string> out;
  if (DIR* d = ::opendir("/dev/shm")) {
    while (dirent* e = ::readdir(d))
      if (e->d_name[0] != '.') out.insert(e->d_name);
    ::closedir(d);
  }
  return out;
}

bool is_reference_segment(const std::string& name) {
  return name.rfind("rmabench.", 0) == 0;
}

std::set<std::string> shm_in_use() {
  std::set<std::string> in_use;
  DIR* proc = ::opendir("/proc");
  if (!proc) return in_use;
  while (dirent* e = ::readdir(proc)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    const std::string dir = std::string("/proc/") + e->d_name;
    if (FILE* maps = std::fopen((dir + "/maps").c_str(), "r")) {
      char line[4096];
      while (std::fgets(line, sizeof line, maps))
        if (const char* at = std::strstr(line, "/dev/shm/")) {
          std::string name(at + 9);
          while (!name.empty() && (name.back() == '\n' || name.back() == ' ')) name.pop_back();
          if (auto del = name.find(" (deleted)"); del != std::string::npos) name.resize(del);
          in_use.insert(name);
        }
      std::fclose(maps);
    }
    if (DIR* fds = ::opendir((dir + "/fd").c_str())) {
      while (dirent* f = ::readdir(fds)) {
        char target[4096];
        const ssize_t n = ::readlink((dir + "/fd/" + f->d_name).c_str(), target, sizeof target - 1);
        if (n > 9 && std::strncmp(target, "/dev/shm/", 9) == 0)
          in_use.insert(std::string(target + 9, static_cast<std::size_t>(n) - 9));
      }
      ::closedir(fds);
    }
  }
  ::closedir(proc);
  return in_use;
}

int listen_control_socket(const std::string& at_name) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return -1;
  socklen_t len = 0;
  const sockaddr_un a = abstract_address(at_name, &len);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&a), len) != 0 || ::listen(fd, 256) != 0) {
    const int e = errno;
    ::close(fd);
    errno = e;
    return -1;
  }
  return fd;
}

int connect_control_socket(const std::string& at_name) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  socklen_t len = 0;
  const sockaddr_un a = abstract_address(at_name, &len);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&a), len) != 0) {
    const int e = errno;
    ::close(fd);
    errno = e;
    return -1;
  }
  return fd;
}

LauncherReport parse_launcher_report(const std::string& text) {
  static const std::regex hydra(R"(PID (\d+) RUNNING AT \S+\s*=*\s*EXIT CODE: (\d+))");
  static const std::regex hydra_signal(R"(EXIT STRING: [^\n]*\(signal (\d+)\))");
  static const std::regex ompi(R"(Process name: \[\[\d+,\d+\],(\d+)\]\s*Exit code:\s*(\d+))");
  LauncherReport out;
  int job_signal = -1;
  if (std::smatch m; std::regex_search(text, m, hydra_signal)) job_signal = std::stoi(m[1]);
  for (std::sregex_iterator it(text.begin(), text.end(), hydra), end; it != end; ++it) {
    const int code = std::stoi((*it)[2]);
    if (code != job_signal) out.code_by_pid.emplace_back(std::stoi((*it)[1]), code);
  }
  for (std::sregex_iterator it(text.begin(), text.end(), ompi), end; it != end; ++it)
    out.code_by_rank.emplace_back(std::stoi((*it)[1]), std::stoi((*it)[2]));
  return out;
}

}  // namespace harness::launcher
