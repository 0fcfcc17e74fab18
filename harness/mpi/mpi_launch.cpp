// mpi_launch.cpp — a case on an MPI library (see the header): the catalog's MPI an `--impl`
// spelling names, the cases retargeted to it, and its launcher's command line.
#include "mpi/mpi_launch.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

#include "install_layout.hpp"
#include "lua/lua_fields.hpp"
#include "mpi/mpi_catalog.hpp"
#include "suite/manifest.hpp"

namespace harness::mpi {
namespace {

std::vector<std::string> words_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

MpiLaunch resolve_mpi(const std::string& spelling, const std::string& rmabench_dir,
                      const std::vector<std::string>& launcher_args,
                      const std::vector<std::string>& env) {
  MpiLaunch m;
  m.spelling = spelling;
  const auto colon = spelling.find(':');
  m.name = spelling.substr(0, colon);
  const MpiBuild* b = find_mpi_build(m.name);
  if (!b) {
    std::vector<std::string_view> known = {"ref"};
    for (const auto& x : mpi_builds()) known.push_back(x.name);
    throw suite::UsageError("--impl " + spelling + ": unknown implementation '" + m.name + "'" +
                            lua::unknown_name_hint(m.name, known));
  }
  if (!b->built) throw suite::UsageError("--impl " + spelling + ": " + b->missing);
  m.launcher = b->launcher;
  m.launcher_kind = b->launcher_kind;
  m.worker = (std::filesystem::path(rmabench_dir) / b->worker).string();
  if (::access(m.worker.c_str(), X_OK) != 0)
    throw suite::UsageError("--impl " + spelling + ": worker " + m.worker +
                            " is missing (build the target " + b->worker + ")");
  // Options after the name: comma-separated key=value; `osc` is Open MPI's one-sided component.
  if (colon != std::string::npos) {
    std::istringstream opts(spelling.substr(colon + 1));
    for (std::string kv; std::getline(opts, kv, ',');) {
      const auto eq = kv.find('=');
      const std::string key = kv.substr(0, eq);
      if (eq == std::string::npos || eq + 1 == kv.size())
        throw suite::UsageError("--impl " + spelling + ": '" + kv + "': expected key=value");
      if (key == "osc" && m.launcher_kind == "openmpi") {
        m.args.insert(m.args.end(), {"--mca", "osc", kv.substr(eq + 1)});
      } else {
        throw suite::UsageError("--impl " + spelling + ": option '" + key + "' is not known for " +
                                m.name + " (openmpi takes osc=<component>)");
      }
    }
  }
  for (const auto& a : launcher_args)
    for (auto& w : words_of(a)) m.args.push_back(std::move(w));
  for (const auto& kv : env) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw suite::UsageError("--mpi-env " + kv + ": expected NAME=VALUE");
    m.env.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  return m;
}

std::vector<suite::CaseSpec> cases_for_mpi(const std::vector<suite::CaseSpec>& cases,
                                           const MpiLaunch& mpi, bool explicit_progress) {
  std::vector<suite::CaseSpec> out;
  std::set<std::string> seen;
  for (suite::CaseSpec c : cases) {
    c.impl = mpi.spelling;
    c.backend = "mpi";
    c.provider.clear();
    if (!explicit_progress && c.progress == rma::ProgressMode::async)
      c.progress = rma::ProgressMode::calls;
    c.id = suite::make_case_id(c);
    // The same script on the same matrix once more (it differed only in backend or path).
    if (!seen.insert(c.id + "|" + suite::name(c.expected)).second) continue;
    out.push_back(std::move(c));
  }
  return out;
}

std::optional<MpiLaunch> mpi_for_run(const std::string& impl,
                                     const std::vector<std::string>& launcher_args,
                                     const std::vector<std::string>& env,
                                     const StartOptions& start) {
  if (impl.empty() || impl == suite::kReferenceImpl) {
    if (!launcher_args.empty() || !env.empty())
      throw suite::UsageError("--mpi-arg and --mpi-env need --impl naming an MPI");
    if (!start.hosts.empty() || !start.hostfile.empty())
      throw suite::UsageError("--mpi-hosts and --mpi-hostfile need --impl naming an MPI");
    return std::nullopt;
  }
  MpiLaunch m = resolve_mpi(impl, libexec_dir().string(), launcher_args, env);
  m.start = choose_start(m, start);
  return m;
}

void retarget(suite::Expansion& ex, const MpiLaunch& mpi, bool explicit_progress) {
  ex.cases = cases_for_mpi(ex.cases, mpi, explicit_progress);
  for (auto& [c, reason] : ex.excluded) c = cases_for_mpi({c}, mpi, explicit_progress).front();
}

nlohmann::json mpi_context(const MpiLaunch& mpi) {
  nlohmann::json env = nlohmann::json::object();
  for (const auto& [k, v] : mpi.env) env[k] = v;
  return {{"impl", mpi.spelling},
          {"launcher", mpi.launcher},
          {"launcher_args", mpi.args},
          {"worker", mpi.worker},
          {"env", env},
          {"start", mpi.start->context()}};
}

std::string mpi_skip_reason(const MpiLaunch& mpi, const suite::CaseSpec& spec) {
  switch (spec.progress) {
    case rma::ProgressMode::calls:
      return "";
    case rma::ProgressMode::sync_only:
      return "progress=sync_only is a mode of the reference implementation (progress only in "
             "synchronization calls); " +
             mpi.name + " has no such mode";
    case rma::ProgressMode::async:
      if (mpi.launcher_kind == "hydra") return "";  // MPICH's asynchronous progress thread
      return "progress=async: " + mpi.name +
             " has no asynchronous progress thread rmabench knows how to turn on (MPICH's "
             "MPIR_CVAR_ASYNC_PROGRESS); its default is progress inside calls (progress=calls)";
  }
  return "progress=" + suite::name(spec.progress) + ": unknown mode";
}

std::vector<std::pair<std::string, std::string>> mpi_case_env(const MpiLaunch& mpi,
                                                              const suite::CaseSpec& spec) {
  std::vector<std::pair<std::string, std::string>> env;
  if (spec.progress == rma::ProgressMode::async && mpi.launcher_kind == "hydra")
    env.emplace_back("MPIR_CVAR_ASYNC_PROGRESS", "1");
  env.insert(env.end(), mpi.env.begin(), mpi.env.end());
  return env;
}

std::vector<std::string> mpi_command(const MpiLaunch& mpi, int ranks,
                                     const std::vector<std::pair<std::string, std::string>>& env,
                                     const std::vector<std::string>& placement) {
  std::vector<std::string> argv{mpi.launcher};
  if (mpi.launcher_kind == "openmpi") {
    // More ranks than cores is the normal case on a small test machine; containers run as root.
    argv.insert(argv.end(), {"--oversubscribe", "--allow-run-as-root"});
  }
  argv.insert(argv.end(), {"-n", std::to_string(ranks)});
  argv.insert(argv.end(), placement.begin(), placement.end());
  std::vector<std::string> env_words;
  for (const auto& [k, v] : env) {
    if (mpi.launcher_kind == "hydra")
      argv.insert(argv.end(), {"-genv", k, v});
    else if (mpi.launcher_kind == "openmpi")
      argv.insert(argv.end(), {"-x", k + "=" + v});
    else
      env_words.push_back(k + "=" + v);
  }
  argv.insert(argv.end(), mpi.args.begin(), mpi.args.end());
  // A launcher of unknown kind gets the environment through env(1), which then execs the worker.
  if (!env_words.empty()) {
    argv.emplace_back("env");
    argv.insert(argv.end(), env_words.begin(), env_words.end());
  }
  argv.push_back(mpi.worker);
  return argv;
}

std::string MpiLaunch::skip_reason(const suite::CaseSpec& spec) const {
  return mpi_skip_reason(*this, spec);
}

std::vector<std::string> MpiLaunch::command(
    const suite::CaseSpec& spec,
    const std::vector<std::pair<std::string, std::string>>& harness_env) const {
  auto case_env = mpi_case_env(*this, spec);
  case_env.insert(case_env.begin(), harness_env.begin(), harness_env.end());
  return start->command(*this, spec.ranks, case_env);
}

namespace {

// The library's own launcher, every rank on this host: the control socket stays local.
class LocalStart final : public Start {
 public:
  std::string program(const MpiLaunch& mpi) const override { return mpi.launcher; }
  std::vector<std::string> command(const MpiLaunch& mpi, int ranks, const Env& env) const override {
    return mpi_command(mpi, ranks, env);
  }
  nlohmann::json context() const override { return {{"how", "launcher"}}; }
};

}  // namespace

std::shared_ptr<const Start> local_start() {
  static const auto local = std::make_shared<const LocalStart>();
  return local;
}

}  // namespace harness::mpi
