// reports/report_dir.hpp — writes a run's report files into a directory (--report-dir),
// creating the directory if needed.
//
// Formats map to files: json -> report.json, junit -> junit.xml, md -> report.md,
// html -> report.html.
// "console" is accepted and ignored (the console is written while the run goes). Every
// file is written to a temporary name and renamed into place, so a run that is killed
// leaves either the previous file or the complete new one, never half a file.
// Throws std::runtime_error for an unknown format (before writing anything) and when a
// file cannot be written.
//
//   reports::write_report_dir(report, "out/run1", {"json", "junit", "md"});
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "reports/model.hpp"

namespace reports {

void write_report_dir(const Report& r, const std::filesystem::path& dir,
                      const std::vector<std::string>& formats);

// Removes every report file of `dir` (each format's, and trace.json): a run starting there
// removes its predecessor's, so a run killed before it writes its own leaves no earlier
// run's report to be read as its result. Throws std::runtime_error naming a file that is
// there but cannot be removed (a directory in its place, no permission).
void remove_report_files(const std::filesystem::path& dir);

// The file a format is written to ("report.json" for "json"); "" for console or unknown.
std::string_view report_file_name(std::string_view format);

}  // namespace reports
