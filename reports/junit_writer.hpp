// reports/junit_writer.hpp — JUnit XML for CI systems (GitLab, Jenkins, GitHub test views).
//
// One <testsuite> per suite (the id's text before its first '/'), one <testcase> per case
// named by its full id (the id exclusion lists and the other formats use). A case that did
// not pass gets <failure type="STATUS"> (<error type="error"> for status error: the case
// could not be evaluated) whose text lists every failure, the reason and the rank states;
// a skipped case gets <skipped message="reason"/>. Log lines go to <system-out>.
//
//   std::ofstream out("junit.xml");
//   reports::write_junit(report, out);
#pragma once

#include <ostream>

#include "reports/model.hpp"

namespace reports {

void write_junit(const Report& r, std::ostream& out);

}  // namespace reports
