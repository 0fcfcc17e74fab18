// reports/testing/sample_report.hpp — a report with one case of every kind, for tests.
//
// Every status, a must-deadlock case, rank states (blocked ranks, a rank that did not
// answer), failures from ranks and from the harness, benchmarks, and text that is hostile to
// every output format (markup characters, control characters, invalid UTF-8, line breaks).
// The unit tests and the sample writer (whose files the schema and XML checks read) share it.
//
//   reports::Report r = reports::sample::sample_report();   // already finish()ed
#pragma once

#include "reports/model.hpp"

namespace reports::sample {

// Text with every character that needs escaping somewhere: <&>"' | ` * a control
// character (0x01), ESC, a line break, and two bytes that are not valid UTF-8.
inline constexpr const char* hostile_text =
    "a<b && c>\"d\" 'e' |x| `y` *z*\x01\x1b[31m\nline2 \xff\xfe";

CaseResult passed_case(const std::string& id);
Report sample_report();

}  // namespace reports::sample
