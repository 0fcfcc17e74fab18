#include "cli/impl_list.hpp"

#include <algorithm>

#include "cli/cli_list.hpp"
#include "suite/manifest.hpp"

namespace harness::cli {
namespace {

std::string catalog_name(const std::string& spelling) {
  return spelling.substr(0, spelling.find(':'));
}

}  // namespace

std::vector<std::string> split_impl_list(const std::string& value) {
  std::vector<std::string> out;
  for (const std::string& word : split_list(value)) {
    const bool continues_options = !out.empty() && out.back().find(':') != std::string::npos &&
                                   word.find('=') != std::string::npos &&
                                   word.find(':') == std::string::npos;
    if (word.empty()) throw suite::UsageError("--impl " + value + ": an empty name in the list");
    if (continues_options)
      out.back() += "," + word;
    else
      out.push_back(word);
  }
  for (std::size_t i = 0; i < out.size(); ++i)
    if (std::find(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(i), out[i]) !=
        out.begin() + static_cast<std::ptrdiff_t>(i))
      throw suite::UsageError("--impl " + value + ": " + out[i] + " is listed twice");
  return out;
}

std::vector<std::string> scoped_values(const std::vector<std::string>& values,
                                       const std::string& mpi_name,
                                       const std::vector<std::string>& listed) {
  std::vector<std::string> out;
  for (const auto& v : values) {
    const auto colon = v.find(':');
    const std::string scope = colon == std::string::npos ? "" : v.substr(0, colon);
    const bool scoped = !scope.empty() && scope != "ref" &&
                        std::any_of(listed.begin(), listed.end(),
                                    [&](const std::string& s) { return catalog_name(s) == scope; });
    if (!scoped)
      out.push_back(v);
    else if (scope == mpi_name)
      out.push_back(v.substr(colon + 1));
  }
  return out;
}

std::vector<ImplChoice> resolve_impl_list(const std::string& value,
                                          const std::vector<std::string>& mpi_args,
                                          const std::vector<std::string>& mpi_env,
                                          const mpi::StartOptions& start) {
  const std::vector<std::string> spellings = split_impl_list(value);
  std::vector<ImplChoice> out;
  bool any_mpi = false;
  for (const auto& s : spellings) {
    if (s == "ref") {
      out.push_back({s, std::nullopt});
      continue;
    }
    any_mpi = true;
    const std::string name = catalog_name(s);
    out.push_back({s, mpi::mpi_for_run(s, scoped_values(mpi_args, name, spellings),
                                       scoped_values(mpi_env, name, spellings), start)});
  }
  if (!any_mpi && (!mpi_args.empty() || !mpi_env.empty()))
    throw suite::UsageError("--mpi-arg and --mpi-env need --impl naming an MPI");
  return out;
}

}  // namespace harness::cli
