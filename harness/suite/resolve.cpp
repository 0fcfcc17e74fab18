// resolve.cpp — suites and patterns by name (see the header).
#include "suite/resolve.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "install_layout.hpp"
#include "lua/lua_fields.hpp"
#include "suite/usage_error.hpp"

namespace harness::suite {
namespace {

namespace fs = std::filesystem;

// Folders of lua_scripts/ that hold no patterns: the shared modules and the editor's
// definition file.
bool is_pattern_folder(const fs::path& p) {
  const auto name = p.filename().string();
  return name != "lib" && name != "meta";
}

// The names a directory offers: NAME.lua, suites/NAME.lua, lua_scripts/GROUP/.../NAME.lua.
struct Offered {
  std::vector<std::string> scripts;   // D/*.lua
  std::vector<std::string> suites;    // D/suites/*.lua
  std::map<std::string, int> groups;  // pattern folder -> its patterns
  std::vector<std::string> patterns;  // "group/name"
};

std::vector<std::string> stems_in(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file(ec) && e.path().extension() == ".lua")
      out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

Offered offered_by(const fs::path& d) {
  Offered o;
  o.scripts = stems_in(d);
  o.suites = stems_in(d / "suites");
  std::error_code ec;
  for (const auto& g : fs::directory_iterator(d / "lua_scripts", ec)) {
    if (!g.is_directory(ec) || !is_pattern_folder(g.path())) continue;
    for (auto it = fs::recursive_directory_iterator(g.path(), ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (!it->is_regular_file(ec) || it->path().extension() != ".lua") continue;
      fs::path rel = it->path().lexically_relative(d / "lua_scripts");
      o.patterns.push_back(rel.replace_extension().generic_string());
      ++o.groups[g.path().filename().string()];
    }
  }
  std::sort(o.patterns.begin(), o.patterns.end());
  return o;
}

std::string dir_list(const std::vector<fs::path>& dirs) {
  std::string s;
  for (const auto& d : dirs) s += (s.empty() ? "" : ", ") + d.string();
  return s.empty() ? "(none: RMABENCH_PATH is empty and no share/rmabench was found)" : s;
}

// " (did you mean 'x'?)" by the harness's one rule, on whole names and then on the pattern's
// own name (`lock_put_unlok` finds `passive/lock_put_unlock`); else the suites and folders.
std::string hint_for(const std::string& word, const std::vector<fs::path>& dirs) {
  std::set<std::string> names, suites, folders;
  std::map<std::string, std::string> by_stem;
  for (const auto& d : dirs) {
    const Offered o = offered_by(d);
    names.insert(o.scripts.begin(), o.scripts.end());
    names.insert(o.suites.begin(), o.suites.end());
    suites.insert(o.suites.begin(), o.suites.end());
    names.insert(o.patterns.begin(), o.patterns.end());
    for (const auto& p : o.patterns) by_stem.emplace(p.substr(p.rfind('/') + 1), p);
    for (const auto& [g, n] : o.groups) folders.insert(g + "/");
  }
  const std::vector<std::string_view> all(names.begin(), names.end());
  if (auto near = lua::nearest_word(word, all); !near.empty())
    return " (did you mean '" + near + "'?)";
  std::vector<std::string_view> stems;
  for (const auto& [s, p] : by_stem) stems.push_back(s);
  const std::string stem = word.substr(word.rfind('/') + 1);
  if (auto near = lua::nearest_word(stem, stems); !near.empty())
    return " (did you mean '" + by_stem[near] + "'?)";
  std::vector<std::string_view> known(suites.begin(), suites.end());
  known.insert(known.end(), folders.begin(), folders.end());
  return lua::unknown_name_hint(word, known, "suites and pattern folders") +
         "; `rmabench list` shows them";
}

}  // namespace

std::vector<fs::path> search_dirs() {
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("RMABENCH_PATH")) {
    std::istringstream in(env);
    for (std::string d; std::getline(in, d, ':');)
      if (!d.empty()) dirs.emplace_back(d);
  }
  if (const fs::path data = data_dir(); !data.empty()) dirs.push_back(data);
  return dirs;
}

std::string resolve_input(const std::string& arg) {
  std::error_code ec;
  if (fs::is_regular_file(arg, ec)) return arg;
  if (arg.empty()) throw UsageError("an empty suite or pattern name");
  std::string name = arg;
  if (name.size() > 4 && name.ends_with(".lua")) name.resize(name.size() - 4);
  const auto dirs = search_dirs();
  // A name never climbs out of the searched directories.
  if (fs::path(name).is_absolute() || name.find("..") != std::string::npos)
    throw UsageError("'" + arg + "': no such file");
  for (const auto& d : dirs)
    for (const fs::path& f :
         {d / (name + ".lua"), d / "suites" / (name + ".lua"), d / "lua_scripts" / (name + ".lua")})
      if (fs::is_regular_file(f, ec)) return f.string();
  throw UsageError("'" + arg + "' is no file, nor a suite or pattern in " + dir_list(dirs) +
                   hint_for(name, dirs));
}

void print_catalog(std::ostream& out) {
  const auto dirs = search_dirs();
  if (dirs.empty()) out << "no suites: RMABENCH_PATH is empty and no share/rmabench was found\n";
  for (const auto& d : dirs) {
    const Offered o = offered_by(d);
    out << d.string() << "\n";
    auto line = [&](const char* label, const std::vector<std::string>& names) {
      if (names.empty()) return;
      out << "  " << label << ":";
      for (const auto& n : names) out << " " << n;
      out << "\n";
    };
    line("scripts", o.scripts);
    line("suites", o.suites);
    std::vector<std::string> groups;
    for (const auto& [g, n] : o.groups) groups.push_back(g + "/ (" + std::to_string(n) + ")");
    line("pattern folders", groups);
  }
  out << "Run one by name: rmabench run quick; rmabench run passive/lock_put_unlock;\n"
         "rmabench list NAME prints the case ids it expands to.\n";
}

}  // namespace harness::suite
