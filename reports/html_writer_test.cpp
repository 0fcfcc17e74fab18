#include "reports/html_writer.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "reports/report_dir.hpp"
#include "reports/testing/sample_report.hpp"

namespace reports {
namespace {

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + what.size())) ++n;
  return n;
}

std::string html_of(const Report& r) {
  std::ostringstream out;
  write_html(r, out);
  return out.str();
}

// The text between the first `from` and the next `to` after it.
std::string between(const std::string& s, const std::string& from, const std::string& to) {
  const auto a = s.find(from);
  if (a == std::string::npos) return "";
  const auto b = s.find(to, a);
  return s.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

class Html : public ::testing::Test {
 protected:
  void SetUp() override { html = html_of(sample::sample_report()); }
  std::string html;
};

TEST_F(Html, OneSelfContainedDocument) {
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0), 0u);
  EXPECT_EQ(count(html, "<html"), 1u);
  EXPECT_NE(html.find("<meta charset=\"utf-8\">"), std::string::npos);
  EXPECT_NE(html.find("</body>\n</html>\n"), std::string::npos);
  // Nothing to load and nothing to run: no script, no external stylesheet, image or font.
  for (const char* outside :
       {"<script", "<link", "<img", "<iframe", "@import", "url(", "src=", "https:", "@font-face"}) {
    EXPECT_EQ(html.find(outside), std::string::npos) << outside;
  }
  // The only http: is the SVG namespace name.
  EXPECT_EQ(count(html, "http:"), count(html, "xmlns=\"http://www.w3.org/2000/svg\""));
}

TEST_F(Html, SummaryAndContext) {
  EXPECT_NE(html.find("<title>rmabench report: 3 passed, 4 failed, 1 skipped</title>"),
            std::string::npos);
  EXPECT_NE(html.find("<span class=\"badge pass\">3 passed</span>"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"badge fail\">4 failed</span>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>host</th><td>node-1</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>git revision</th><td><code>6b327bc</code></td></tr>"),
            std::string::npos);
}

TEST(HtmlTopology, ARowPerFactNotRawJson) {
  Report r = sample::sample_report();
  r.context.topology = {
      {"packages", 1},
      {"cores", 2},
      {"pus", 4},
      {"numa_nodes", 1},
      {"caches",
       nlohmann::json::array({{{"level", 1}, {"type", "data"}, {"size_kib", 32}, {"count", 2}}})}};
  r.context.options["bind"] = "core";
  const std::string html = html_of(r);
  const std::string t = between(html, "<table class=\"topology\">", "</table>");
  EXPECT_NE(t.find("<tr><th>cores</th><td>2</td></tr>"), std::string::npos) << t;
  EXPECT_NE(t.find("<tr><th>NUMA nodes</th><td>1</td></tr>"), std::string::npos) << t;
  EXPECT_NE(t.find("<tr><th>L1 data</th><td>2 \u00d7 32 KiB</td></tr>"), std::string::npos) << t;
  EXPECT_NE(t.find("<tr><th>binding</th><td>core (rank 0: core 0, rank 1: core 1)</td></tr>"),
            std::string::npos)
      << t;
  for (const char* raw : {"{", "[", "&quot;", "size_kib"})
    EXPECT_EQ(t.find(raw), std::string::npos) << raw;
}

TEST(HtmlLog, APassedCaseShowsItsLogInTheCasesTable) {
  Report r = sample::sample_report();
  r.cases[0].log = {"rank 0: x"};
  const std::string html = html_of(r);
  const std::string all = between(html, "<h2 id=\"cases\">", "</table>");
  EXPECT_NE(all.find("<details><summary>log (1 lines)</summary><pre>rank 0: x\n</pre></details>"),
            std::string::npos)
      << all;
}

TEST_F(Html, FailuresWithRankStates) {
  const std::string failures = between(html, "<h2 id=\"failures\">", "<h2 id=\"messages\">");
  // The four failing cases (fail, timeout, crash, error), not the passed must-deadlock case.
  EXPECT_EQ(count(failures, "<section class=\"case-failure\""), 4u) << failures;
  EXPECT_EQ(failures.find("lock_self_deadlock"), std::string::npos);
  const std::string timeout = between(failures, "progress/pscw_no_progress", "</section>");
  EXPECT_NE(timeout.find("Reason: no progress within 10 s"), std::string::npos) << timeout;
  EXPECT_NE(timeout.find("<strong>Rank states</strong>"), std::string::npos);
  EXPECT_NE(timeout.find("<pre>rank 0: blocked in recv"), std::string::npos) << timeout;
  EXPECT_NE(timeout.find("<pre>rank 1: no reply</pre>"), std::string::npos) << timeout;
  EXPECT_NE(timeout.find("<li><pre>window 0"), std::string::npos) << timeout;
  // The cases table links each failing case to its section.
  EXPECT_NE(html.find("<a href=\"#case-3\"><code>progress/pscw_no_progress[shm,am,np=2]</code>"),
            std::string::npos);
  EXPECT_NE(html.find("<section class=\"case-failure\" id=\"case-3\">"), std::string::npos);
}

TEST_F(Html, HostileTextIsEscaped) {
  EXPECT_EQ(html.find("a<b && c>"), std::string::npos);
  EXPECT_NE(html.find("a&lt;b &amp;&amp; c&gt;&quot;d&quot;"), std::string::npos);
  EXPECT_EQ(html.find('\x1b'), std::string::npos);
  EXPECT_EQ(html.find('\x01'), std::string::npos);
  EXPECT_EQ(html.find("\xff"), std::string::npos);
}

TEST_F(Html, CountTableMarksAMismatchAgainstTheDeclaredMinimum) {
  const std::string table = between(html, "<table class=\"counts\">", "</table>");
  ASSERT_FALSE(table.empty());
  // Cases that measured messages: all but the must-deadlock and the skipped one.
  EXPECT_EQ(count(table, "<tbody>"), 6u);
  const std::string fence = between(table, "conformance/fence_put", "</tbody>");
  // total: declared 2, measured 3.
  EXPECT_NE(fence.find("<td>total</td><td class=\"n\">2</td><td class=\"n\">3</td>"
                       "<td class=\"diff\">\u2260 +1 above the declared count</td>"),
            std::string::npos)
      << fence;
  EXPECT_NE(table.find("<tr class=\"mismatch\"><td rowspan=\"3\"><code>conformance/fence_put"),
            std::string::npos)
      << table;
  // Per type: unlock_ack declared 1, measured 2; lock_put as declared.
  EXPECT_NE(fence.find("<tr class=\"mismatch\"><td>unlock_ack</td><td class=\"n\">1</td>"
                       "<td class=\"n\">2</td>"),
            std::string::npos)
      << fence;
  EXPECT_NE(fence.find("<tr class=\"match\"><td>lock_put</td><td class=\"n\">1</td>"
                       "<td class=\"n\">1</td><td class=\"diff ok\">= declared</td>"),
            std::string::npos)
      << fence;
  EXPECT_EQ(count(table, "<tr class=\"mismatch\""), 2u) << table;
  // A case that declares only the total: its packet types are shown, not judged.
  const std::string ok = between(table, "conformance/lock_put_unlock", "</tbody>");
  EXPECT_NE(ok.find("<td class=\"diff ok\">= declared</td>"), std::string::npos);
  EXPECT_NE(ok.find("<tr class=\"undeclared\"><td>unlock_ack</td><td class=\"n\">\u2014</td>"),
            std::string::npos)
      << ok;
}

TEST_F(Html, APlotPerPatternAndMetric) {
  const std::string bench = between(html, "<h2 id=\"benchmarks\">", "<h2 id=\"cases\">");
  // Latency patterns get latency and bandwidth plots, the bandwidth pattern one: 2+2+1+2.
  EXPECT_EQ(count(bench, "<svg class=\"plot\""), 7u);
  for (const char* heading :
       {"<h3>put_latency <span class=\"muted\">op put, sync lock, target wait",
        "<h3>get_latency <span class=\"muted\">op get, sync flush</span>",
        "<h3>put_bandwidth <span class=\"muted\">op put, sync lock",
        "<h3>passive/lock_put_unlock <span"}) {
    EXPECT_NE(bench.find(heading), std::string::npos) << heading;
  }
  EXPECT_EQ(bench.find("put_bandwidth (lock): latency"), std::string::npos);
  // Target modes differ within get_latency: they join the labels there, and only there.
  const std::string get = between(bench, "<title>get_latency (flush): latency</title>", "</svg>");
  for (const char* label : {">shm:am target:wait<title>", ">shm:am target:compute<title>",
                            ">fabric:direct (tcp) target:wait<title>"}) {
    EXPECT_NE(get.find(label), std::string::npos) << label;
  }
  const std::string put = between(bench, "<title>put_latency (lock): latency</title>", "</svg>");
  ASSERT_FALSE(put.empty());
  // One series per backend:path (and provider), each in the legend, with a band and a
  // marker per size (1 B .. 4 MiB: 23 sizes).
  EXPECT_NE(bench.find("data-series=\"3\">\n<title>put_latency (lock): latency"),
            std::string::npos);
  for (const char* label : {">shm:am<title>", ">shm:direct<title>", ">fabric:am (tcp)<title>"}) {
    EXPECT_NE(put.find(label), std::string::npos) << label;
  }
  EXPECT_EQ(count(put, "class=\"band\""), 3u);
  EXPECT_EQ(count(put, "<circle"), 3u * 23 + 3);  // points and legend markers
  // Log axes with labelled ticks: powers of two in bytes, decades in time.
  for (const char* tick : {">1 B</text>", ">8 B</text>", ">4 KiB</text>", ">2 MiB</text>",
                           ">1 \u00b5s</text>", ">10 \u00b5s</text>", ">1 ms</text>"}) {
    EXPECT_NE(put.find(tick), std::string::npos) << tick;
  }
  EXPECT_NE(put.find("size per operation (log scale)"), std::string::npos);
  // Single runs per size: no band.
  const std::string script =
      between(bench, "<title>passive/lock_put_unlock (script): latency", "</svg>");
  ASSERT_FALSE(script.empty());
  EXPECT_EQ(script.find("class=\"band\""), std::string::npos);
  EXPECT_NE(bench.find("one run per size, so no band"), std::string::npos);
  EXPECT_NE(bench.find("of up to 5 repetitions; the band spans min to max"), std::string::npos);
  EXPECT_NE(bench.find("bandwidth derived as size \u00f7 time per iteration"), std::string::npos);
  // The entry without rmabench's fields is listed, not plotted.
  EXPECT_NE(bench.find("<h3>Other benchmarks</h3>"), std::string::npos);
  EXPECT_NE(bench.find("<code>put_latency/lock/8</code></td><td class=\"n\">1.250 us"),
            std::string::npos);
}

TEST_F(Html, TooltipsCarryTheNumbers) {
  // shm:am put at 1 KiB: 1.2 us + 1024 B / 8000 B/us = 1.328 us, repetitions within +-4%.
  EXPECT_NE(html.find("<title>shm:am, 1 KiB: 1.33 \u00b5s (min "), std::string::npos);
  EXPECT_NE(html.find(", 5 repetitions</title>"), std::string::npos);
}

TEST(HtmlWriter, ReportWithoutBenchmarksOrCases) {
  Report r;
  r.finish();
  const std::string html = html_of(r);
  EXPECT_EQ(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("No benchmarks in this report."), std::string::npos);
  EXPECT_NE(html.find("No case failed."), std::string::npos);
  EXPECT_NE(html.find("No case measured its messages."), std::string::npos);
  EXPECT_NE(html.find("No cases ran."), std::string::npos);
}

TEST(HtmlWriter, ReportDirWritesReportHtml) {
  EXPECT_EQ(report_file_name("html"), "report.html");
}

}  // namespace
}  // namespace reports
