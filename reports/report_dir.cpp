#include "reports/report_dir.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <ostream>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "reports/chrome_trace_writer.hpp"
#include "reports/html_writer.hpp"
#include "reports/json_writer.hpp"
#include "reports/junit_writer.hpp"
#include "reports/markdown_writer.hpp"

namespace reports {

namespace {

namespace fs = std::filesystem;

struct FileFormat {
  std::string_view name;
  std::string_view file;
  void (*write)(const Report&, std::ostream&);
};

// --trace's timeline, written whatever the formats.
constexpr std::string_view kTraceFile = "trace.json";

// Adding a writer is one line here.
constexpr std::array file_formats{
    FileFormat{"json", "report.json", write_json},
    FileFormat{"junit", "junit.xml", write_junit},
    FileFormat{"md", "report.md", write_markdown},
    FileFormat{"html", "report.html", write_html},
};

const FileFormat* find_format(std::string_view name) {
  for (const auto& f : file_formats) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::string known_formats() {
  std::string s = "console";
  for (const auto& f : file_formats) s += ", " + std::string(f.name);
  return s;
}

void write_atomically(const fs::path& target, const Report& r,
                      void (*write)(const Report&, std::ostream&)) {
  // The pid keeps two runs writing to one directory from sharing a temporary file.
  fs::path tmp = target;
  tmp += ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (out) write(r, out);
    out.close();
    if (!out) {
      std::error_code ignored;
      fs::remove(tmp, ignored);
      throw std::runtime_error("report: cannot write " + tmp.string());
    }
  }
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw std::runtime_error("report: cannot rename " + tmp.string() + " to " + target.string() +
                             ": " + ec.message());
  }
}

}  // namespace

void remove_report_files(const fs::path& dir) {
  std::vector<fs::path> files{dir / kTraceFile};
  for (const auto& f : file_formats) files.push_back(dir / f.file);
  for (const auto& p : files) {
    std::error_code ec;
    fs::remove(p, ec);  // false with no error: it was not there
    if (ec)
      throw std::runtime_error("report: cannot remove the earlier run's " + p.string() + ": " +
                               ec.message());
  }
}

std::string_view report_file_name(std::string_view format) {
  const FileFormat* f = find_format(format);
  return f ? f->file : std::string_view();
}

void write_report_dir(const Report& r, const fs::path& dir,
                      const std::vector<std::string>& formats) {
  std::vector<const FileFormat*> chosen;
  for (const auto& name : formats) {
    if (name == "console") continue;
    const FileFormat* f = find_format(name);
    if (!f) {
      throw std::runtime_error("report: unknown format '" + name + "' (known: " + known_formats() +
                               ")");
    }
    if (std::find(chosen.begin(), chosen.end(), f) == chosen.end()) chosen.push_back(f);
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    throw std::runtime_error("report: cannot create directory " + dir.string() + ": " +
                             ec.message());
  }
  for (const FileFormat* f : chosen) write_atomically(dir / f->file, r, f->write);
  // --trace: the timeline for Perfetto and chrome://tracing, whichever formats were chosen.
  if (has_traces(r)) write_atomically(dir / kTraceFile, r, write_chrome_trace);
}

}  // namespace reports
