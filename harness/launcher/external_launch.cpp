// external_launch.cpp — what the case watcher needs of ranks another program's launcher
// starts (see the header): the launcher's own report, /dev/shm before and after.
#include "launcher/external_launch.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <regex>
#include <sstream>

namespace harness::launcher {

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

LauncherReport parse_launcher_report(const std::string& text) {
  static const std::regex hydra(R"(PID (\d+) RUNNING AT \S+\s*=*\s*EXIT CODE: (\d+))");
  static const std::regex hydra_signal(R"(EXIT STRING: [^\n]*\(signal (\d+)\))");
  static const std::regex ompi(R"(Process name: \[\[\d+,\d+\],(\d+)\]\s*Exit code:\s*(\d+))");
  static const std::regex srun(R"(srun: error: \S+: task (\d+): Exited with exit code (\d+))");
  LauncherReport out;
  int job_signal = -1;
  if (std::smatch m; std::regex_search(text, m, hydra_signal)) job_signal = std::stoi(m[1]);
  for (std::sregex_iterator it(text.begin(), text.end(), hydra), end; it != end; ++it) {
    const int code = std::stoi((*it)[2]);
    if (code != job_signal) out.code_by_pid.emplace_back(std::stoi((*it)[1]), code);
  }
  for (std::sregex_iterator it(text.begin(), text.end(), ompi), end; it != end; ++it)
    out.code_by_rank.emplace_back(std::stoi((*it)[1]), std::stoi((*it)[2]));
  for (std::sregex_iterator it(text.begin(), text.end(), srun), end; it != end; ++it)
    out.code_by_rank.emplace_back(std::stoi((*it)[1]), std::stoi((*it)[2]));
  return out;
}

}  // namespace harness::launcher
