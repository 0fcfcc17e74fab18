// docs_test.cpp — keeps the docs honest about the tree and the CLI: docs/cli.md names every
// subcommand and every long flag `--help` prints; every relative link in the docs reaches a
// file (and a heading, when it names one); every repository path written in backticks exists.
// The docs are the front door: a renamed flag or a moved file should fail here, not confuse
// a reader.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "run_rmabench.hpp"

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += "  " + x + "\n";
  return s;
}

// The markdown pages a reader is sent to: the README, every page of docs/, the Lua API and
// the pages beside the patterns, the suite format.
std::vector<fs::path> doc_pages() {
  const fs::path root = e2e::source_dir();
  std::vector<fs::path> pages = {root / "README.md", root / "suites/README.md"};
  for (const auto& e : fs::directory_iterator(root / "docs"))
    if (e.path().extension() == ".md") pages.push_back(e.path());
  for (const auto& e : fs::recursive_directory_iterator(root / "lua_scripts"))
    if (e.path().extension() == ".md") pages.push_back(e.path());
  std::sort(pages.begin(), pages.end());
  return pages;
}

// A page's lines outside fenced code blocks, with their line numbers: code blocks show
// commands and output, whose paths and brackets are not links.
std::vector<std::pair<int, std::string>> prose_lines(const std::string& text) {
  std::vector<std::pair<int, std::string>> out;
  bool fenced = false;
  int n = 0;
  for (const auto& l : lines_of(text)) {
    ++n;
    const auto first = l.find_first_not_of(' ');
    if (first != std::string::npos && l.compare(first, 3, "```") == 0) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) out.emplace_back(n, l);
  }
  return out;
}

// GitHub's anchor for a heading: lower case, punctuation dropped (but - and _), spaces to -;
// a heading seen before gets -1, -2, ...
std::set<std::string> anchors_of(const std::string& text) {
  std::set<std::string> out;
  std::map<std::string, int> seen;
  for (const auto& [n, l] : prose_lines(text)) {
    if (l.empty() || l[0] != '#') continue;
    const auto start = l.find_first_not_of('#');
    if (start == std::string::npos || l[start] != ' ') continue;
    std::string slug;
    for (char c : l.substr(start + 1)) {
      const auto u = static_cast<unsigned char>(c);
      if (u >= 0x80 || std::isalnum(u) || c == '-' || c == '_')
        slug += static_cast<char>(std::tolower(u));
      else if (c == ' ')
        slug += '-';
    }
    const int k = seen[slug]++;
    out.insert(k == 0 ? slug : slug + "-" + std::to_string(k));
  }
  return out;
}

std::string rel(const fs::path& p) {
  return fs::relative(p, e2e::source_dir()).string();
}

// The long flags and subcommands `rmabench ... --help` prints. Options are the lines of the
// OPTIONS section that start with a dash ("  -n,--ranks INT ...", "  --trace ..."); flags
// quoted inside a description (an MPI launcher's --mca) are not ours.
struct Help {
  std::vector<std::string> flags;
  std::vector<std::string> subcommands;
};

Help parse_help(const std::string& text) {
  Help h;
  enum { kNone, kOptions, kSubcommands } section = kNone;
  const std::regex option_line(R"(^\s+(-[A-Za-z0-9],\s*)?(--[a-z][a-z0-9-]*))");
  const std::regex subcommand_line(R"(^\s+([a-z][a-z0-9-]*)\s)");
  for (const auto& l : lines_of(text)) {
    // Section titles: "Options:" (CLI11 2.3, Debian 12), "OPTIONS:" (later CLI11).
    std::string title = l;
    std::transform(title.begin(), title.end(), title.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    if (!l.empty() && l[0] != ' ') {  // a title, the usage line, the footer
      section = title.rfind("OPTIONS:", 0) == 0       ? kOptions
                : title.rfind("SUBCOMMANDS:", 0) == 0 ? kSubcommands
                                                      : kNone;
      continue;
    }
    std::smatch m;
    if (section == kOptions && std::regex_search(l, m, option_line))
      h.flags.push_back(m[2]);
    else if (section == kSubcommands && std::regex_search(l, m, subcommand_line))
      h.subcommands.push_back(m[1]);
  }
  return h;
}

// True when `text` has `word` not followed by another name character (--trace is not
// --traces).
bool names(const std::string& text, const std::string& word) {
  for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const auto end = at + word.size();
    if (end == text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) ||
                                text[end] == '-' || text[end] == '_'))
      return true;
  }
  return false;
}

TEST(Docs, CliPageNamesEverySubcommandAndEveryLongFlag) {
  const std::string page = slurp(fs::path(e2e::source_dir()) / "docs/cli.md");
  ASSERT_FALSE(page.empty());
  auto top = e2e::run({"--help"}, 30);
  ASSERT_EQ(top.exit_code, 0) << top.err;
  const Help main_help = parse_help(top.out);
  // run, bench, list, describe, info, gate, report: fewer means the parse went wrong
  ASSERT_GE(main_help.subcommands.size(), 7u) << top.out;
  ASSERT_FALSE(main_help.flags.empty()) << top.out;

  std::vector<std::string> missing;
  for (const auto& f : main_help.flags)
    if (!names(page, f)) missing.push_back("rmabench " + f);
  for (const auto& sub : main_help.subcommands) {
    if (!names(page, "rmabench " + sub)) missing.push_back("the subcommand " + sub);
    auto r = e2e::run({sub, "--help"}, 30);
    ASSERT_EQ(r.exit_code, 0) << sub << ": " << r.err;
    const Help h = parse_help(r.out);
    EXPECT_FALSE(h.flags.empty()) << sub << " --help printed no options:\n" << r.out;
    for (const auto& f : h.flags)
      if (!names(page, f)) missing.push_back("rmabench " + sub + " " + f);
  }
  EXPECT_TRUE(missing.empty()) << "docs/cli.md does not name:\n" << joined(missing);
}

TEST(Docs, EveryRelativeLinkReachesAFileAndItsHeading) {
  const std::regex link(R"(\]\(([^)\s]+)\))");
  std::vector<std::string> broken;
  int checked = 0;
  for (const auto& page : doc_pages()) {
    const std::string text = slurp(page);
    for (const auto& [n, l] : prose_lines(text)) {
      for (std::sregex_iterator it(l.begin(), l.end(), link), end; it != end; ++it) {
        const std::string target = (*it)[1];
        if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0) continue;
        const auto hash = target.find('#');
        const std::string file = target.substr(0, hash);
        const std::string anchor = hash == std::string::npos ? "" : target.substr(hash + 1);
        const fs::path dest = file.empty() ? page : page.parent_path() / file;
        const std::string where = rel(page) + ":" + std::to_string(n) + ": " + target;
        ++checked;
        if (!fs::exists(dest)) {
          broken.push_back(where + " (no such file)");
          continue;
        }
        if (!anchor.empty() && dest.extension() == ".md" && !anchors_of(slurp(dest)).count(anchor))
          broken.push_back(where + " (no such heading)");
      }
    }
  }
  EXPECT_GT(checked, 20);  // the test reads links at all
  EXPECT_TRUE(broken.empty()) << "broken links:\n" << joined(broken);
}

TEST(Docs, EveryRepositoryPathInBackticksExists) {
  const fs::path root = e2e::source_dir();
  // A path the docs write from the repository's root starts with one of its folders.
  const std::vector<std::string> folders = {"lua_scripts/", "suites/",   "docs/",    "ci/",
                                            "harness/",     "rma_impl/", "reports/", "tests/",
                                            "bench/",       "model/",    "fuzz/",    "cmake/"};
  const std::regex code_span("`([^`]+)`");
  std::vector<std::string> missing;
  int checked = 0;
  for (const auto& page : doc_pages()) {
    for (const auto& [n, l] : prose_lines(slurp(page))) {
      for (std::sregex_iterator it(l.begin(), l.end(), code_span), end; it != end; ++it) {
        std::string path = (*it)[1];
        path = path.substr(0, path.find(' '));  // `ci/slurm.sh up|down`: the path is the first word
        if (std::none_of(folders.begin(), folders.end(),
                         [&](const std::string& f) { return path.rfind(f, 0) == 0; }))
          continue;
        // Placeholders and patterns name no one file.
        bool placeholder = false;
        for (const char* mark : {"<", "*", "NNNN", "...", "…", "{", "|", "["})
          placeholder |= path.find(mark) != std::string::npos;
        if (placeholder) continue;
        // `file.lua:30`, `file.lua:30:`: the file
        path = std::regex_replace(path, std::regex(R"(:[0-9].*$)"), "");
        while (!path.empty() && (path.back() == ',' || path.back() == ':' || path.back() == '.'))
          path.pop_back();
        // A colon left is a benchmark's name (`bench/latency/lock/8/shm:am/...`), not a path.
        if (path.find(':') != std::string::npos) continue;
        ++checked;
        // Scripts are also named below lua_scripts/, as case ids name them (`bench/latency.lua`),
        // and patterns without their .lua (`bench/latency`).
        if (fs::exists(root / path) || fs::exists(root / "lua_scripts" / path) ||
            fs::exists(root / "lua_scripts" / (path + ".lua")))
          continue;
        missing.push_back(rel(page) + ":" + std::to_string(n) + ": " + path);
      }
    }
  }
  EXPECT_GT(checked, 50);  // the test reads paths at all
  EXPECT_TRUE(missing.empty()) << "paths the docs name that do not exist:\n" << joined(missing);
}

}  // namespace
