#include "reports/junit_writer.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "reports/testing/sample_report.hpp"

namespace reports {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

// The opening tag of the element whose name attribute is `name`.
std::string tag_named(const std::string& xml, const std::string& element, const std::string& name) {
  const auto pos = xml.find("<" + element + " name=\"" + name + "\"");
  if (pos == std::string::npos) return "";
  return xml.substr(pos, xml.find('>', pos) - pos + 1);
}

class JUnit : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ostringstream out;
    write_junit(sample::sample_report(), out);
    xml = out.str();
  }
  std::string xml;
};

TEST_F(JUnit, CountsAreRight) {
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites ", 0), 0u);
  EXPECT_NE(xml.find("<testsuites name=\"rmabench\" tests=\"8\" failures=\"3\" errors=\"1\" "
                     "skipped=\"1\""),
            std::string::npos)
      << xml;
  EXPECT_NE(tag_named(xml, "testsuite", "conformance")
                .find("tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"0\""),
            std::string::npos)
      << xml;
  EXPECT_NE(tag_named(xml, "testsuite", "progress")
                .find("tests=\"2\" failures=\"2\" errors=\"0\" skipped=\"0\""),
            std::string::npos);
  EXPECT_NE(tag_named(xml, "testsuite", "fabric")
                .find("tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\""),
            std::string::npos);
  // An id without a suite prefix still lands in a suite.
  EXPECT_NE(tag_named(xml, "testsuite", "rmabench").find("tests=\"1\""), std::string::npos);
  EXPECT_EQ(count(xml, "<testsuite "), 4u);
  EXPECT_EQ(count(xml, "<testcase "), 8u);
  EXPECT_EQ(count(xml, "<failure "), 3u);
  EXPECT_EQ(count(xml, "<error "), 1u);
  EXPECT_EQ(count(xml, "<skipped "), 1u);
  EXPECT_EQ(count(xml, "</testsuite>"), 4u);
  // Every testcase is closed: self-closing or with a closing tag.
  std::size_t closed = count(xml, "</testcase>");
  std::istringstream lines(xml);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("    <testcase ", 0) == 0 && line.ends_with("/>")) ++closed;
  }
  EXPECT_EQ(closed, 8u);
}

TEST_F(JUnit, TestcaseIsNamedByFullId) {
  EXPECT_NE(xml.find("<testcase classname=\"conformance\" "
                     "name=\"conformance/lock_put_unlock[shm,am,np=2]\" time=\"0.012\""),
            std::string::npos)
      << xml;
}

TEST_F(JUnit, FailureListsEveryFailureAndTheType) {
  const auto start = xml.find("<failure message=\"rank 1  lua_scripts/fence_put.lua:21: a&lt;b");
  ASSERT_NE(start, std::string::npos) << xml;
  const std::string failure = xml.substr(start, xml.find("</failure>", start) - start);
  EXPECT_NE(failure.find("(+1 more)\" type=\"fail\">"), std::string::npos) << failure;
  EXPECT_NE(failure.find("rank 1  lua_scripts/fence_put.lua:21: a&lt;b"), std::string::npos);
  EXPECT_NE(failure.find("rank -  messages: expected total 2, got 3"), std::string::npos);

  EXPECT_NE(xml.find("type=\"timeout\">reason: no progress within 10 s\nrank states:\n"
                     "  rank 0: blocked in recv"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("type=\"crash\">reason: rank 1 killed by signal 11"), std::string::npos);
  EXPECT_NE(xml.find("<skipped message=\"provider tcp has no native atomics\"/>"),
            std::string::npos);
}

TEST_F(JUnit, EscapesMarkupAndDropsForbiddenBytes) {
  // hostile_text in the message attribute: markup escaped, the line break kept as a reference.
  EXPECT_NE(xml.find("a&lt;b &amp;&amp; c&gt;&quot;d&quot; &apos;e&apos; |x| `y` *z*\\x01\\x1B[31m"
                     "&#10;line2 \xEF\xBF\xBD\xEF\xBF\xBD"),
            std::string::npos)
      << xml;
  for (char c = 1; c < 0x20; ++c) {
    if (c == '\n' || c == '\t') continue;
    EXPECT_EQ(xml.find(c), std::string::npos) << "control character " << int(c);
  }
  EXPECT_EQ(xml.find('\xff'), std::string::npos);
  EXPECT_EQ(xml.find('\xfe'), std::string::npos);
  EXPECT_EQ(xml.find("<b"), std::string::npos);  // the hostile '<' never opens a tag
}

TEST(JUnitInterrupted, IsASkipWithAMessageNotAFailure) {
  Report r;
  r.cases.push_back(sample::passed_case("s/a"));
  r.cases[0].status = Verdict::interrupted;
  r.finish();
  std::ostringstream out;
  write_junit(r, out);
  const std::string xml = out.str();
  EXPECT_NE(xml.find("failures=\"0\" errors=\"0\" skipped=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<skipped message=\"interrupted"), std::string::npos) << xml;
}

TEST(JUnitEmpty, NoCasesIsStillADocument) {
  std::ostringstream out;
  write_junit(Report{}, out);
  EXPECT_EQ(out.str(),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites name=\"rmabench\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" "
            "time=\"0.000\">\n</testsuites>\n");
}

}  // namespace
}  // namespace reports
