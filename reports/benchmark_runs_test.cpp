#include "reports/benchmark_runs.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "reports/svg_plot.hpp"

namespace reports {
namespace {

using nlohmann::json;

json iteration(const std::string& name, double t, const char* unit = "us") {
  return {{"name", name},   {"run_name", name},  {"run_type", "iteration"},
          {"real_time", t}, {"time_unit", unit}, {"size", 64},
          {"pattern", "p"}, {"backend", "shm"},  {"path", "am"}};
}

json aggregate(const std::string& run, const char* agg, double t, const char* unit = "us") {
  return {{"name", run + "_" + agg}, {"run_name", run}, {"run_type", "aggregate"},
          {"aggregate_name", agg},   {"real_time", t},  {"time_unit", unit}};
}

TEST(BenchmarkRuns, GroupsRepetitionsAndAggregatesByRunName) {
  const json entries = json::array({iteration("a", 2), iteration("b", 7, "ns"), iteration("a", 4),
                                    iteration("a", 3), aggregate("a", "median", 3),
                                    aggregate("a", "stddev", 1), aggregate("a", "cv", 0.33)});
  const auto runs = benchmark_runs(entries);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].name, "a");
  EXPECT_EQ(runs[0].times_ns, (std::vector<double>{2000, 4000, 3000}));
  // Only location aggregates: stddev and cv are not times of an iteration.
  EXPECT_EQ(runs[0].time_aggregates_ns, (std::map<std::string, double>{{"median", 3000}}));
  EXPECT_EQ(runs[0].pattern, "p");
  EXPECT_EQ(runs[0].size, 64.0);
  const auto t = runs[0].time_ns();
  ASSERT_TRUE(t);
  EXPECT_DOUBLE_EQ(t->median, 3000);
  EXPECT_DOUBLE_EQ(t->min, 2000);
  EXPECT_DOUBLE_EQ(t->max, 4000);
  EXPECT_EQ(t->repetitions, 3u);
  EXPECT_EQ(runs[1].times_ns, (std::vector<double>{7}));
}

// The gate refuses what the reader cannot read (gate.cpp, time_refusal): one rule.
TEST(BenchmarkRuns, TimeUnitAbsentOrEmptyIsNsAndAnythingElseIsNoTime) {
  json none = iteration("a", 5);
  none.erase("time_unit");
  json number = iteration("b", 5);
  number["time_unit"] = 1000;
  const auto runs =
      benchmark_runs(json::array({none, iteration("a", 6, ""), number, iteration("b", 7, "xs")}));
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].times_ns, (std::vector<double>{5, 6}));
  EXPECT_TRUE(runs[1].times_ns.empty());
  EXPECT_EQ(ns_per_unit(number), std::nullopt);
  EXPECT_EQ(ns_per_unit(none), 1.0);
}

TEST(BenchmarkRuns, AggregatesOnlyAndNamesWithoutRunName) {
  json med = aggregate("x", "median", 1.5, "ms");
  med.erase("run_name");  // older writers: the run name is the name less "_median"
  const json entries =
      json::array({med, aggregate("x", "min", 1, "ms"), aggregate("x", "max", 2, "ms")});
  const auto runs = benchmark_runs(entries);
  ASSERT_EQ(runs.size(), 1u);
  const auto t = runs[0].time_ns();
  ASSERT_TRUE(t);
  EXPECT_DOUBLE_EQ(t->median, 1.5e6);
  EXPECT_DOUBLE_EQ(t->min, 1e6);
  EXPECT_DOUBLE_EQ(t->max, 2e6);
}

TEST(BenchmarkRuns, MalformedAndErrorEntriesDoNotThrow) {
  json err = iteration("e", 5);
  err["error_occurred"] = true;
  err["error_message"] = "target rank died";
  json bad_unit = iteration("u", 5, "fortnights");
  const json entries = json::array(
      {42, json::object(), {{"name", 7}}, err, bad_unit, {{"name", "s"}, {"real_time", "fast"}}});
  const auto runs = benchmark_runs(entries);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].error, "target rank died");
  EXPECT_FALSE(runs[0].time_ns());
  EXPECT_FALSE(runs[1].time_ns());
  EXPECT_FALSE(runs[2].time_ns());
  EXPECT_TRUE(benchmark_runs(json::object()).empty());
}

// The entries a run's time is read from, which must therefore carry one (the gate refuses
// them without), and those that have none by meaning: errors and aggregates that are no
// location of the time.
TEST(BenchmarkRuns, TimedEntriesAreTheOnesATimeIsReadFrom) {
  json med = aggregate("x", "median", 1.5);
  med.erase("run_name");
  json plain{{"name", "p"}, {"real_time", 1.0}};  // another tool's: no run_type, no unit
  for (const json& e :
       {iteration("a", 2), plain, med, aggregate("x", "min", 1), aggregate("x", "max", 2),
        aggregate("x", "mean", 1), aggregate("x", "p50", 1)}) {
    EXPECT_TRUE(timed_entry(e)) << e.dump();
  }
  json err = iteration("e", 5);
  err["error_occurred"] = true;
  json cv = aggregate("x", "cv", 0.1);
  cv["aggregate_unit"] = "percentage";
  json pct_median = aggregate("x", "median", 0.1);
  pct_median["aggregate_unit"] = "percentage";
  const json big_o{{"name", "x_BigO"},         {"run_name", "x"},        {"run_type", "aggregate"},
                   {"aggregate_name", "BigO"}, {"cpu_coefficient", 1.0}, {"big_o", "N"}};
  for (const json& e : {err, cv, pct_median, big_o, aggregate("x", "stddev", 1),
                        aggregate("x", "p90", 1), aggregate("x", "p99", 1), json(42),
                        json::object(), json{{"name", ""}, {"real_time", 1.0}}}) {
    EXPECT_FALSE(timed_entry(e)) << e.dump();
  }
}

TEST(BenchmarkRuns, Median) {
  EXPECT_DOUBLE_EQ(median_of({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median_of({4, 1, 3, 2}), 2.5);
  EXPECT_TRUE(std::isnan(median_of({})));
}

TEST(SvgPlot, Formats) {
  EXPECT_EQ(format_bytes(1), "1 B");
  EXPECT_EQ(format_bytes(4096), "4 KiB");
  EXPECT_EQ(format_bytes(4194304), "4 MiB");
  EXPECT_EQ(format_plot_value(0.25, PlotUnit::microseconds), "250 ns");
  EXPECT_EQ(format_plot_value(1.5, PlotUnit::microseconds), "1.5 \u00b5s");
  EXPECT_EQ(format_plot_value(2000, PlotUnit::microseconds), "2 ms");
  EXPECT_EQ(format_plot_value(1.2e10, PlotUnit::bytes_per_second), "12 GB/s");
}

TEST(SvgPlot, EmptyPlotSaysSoAndSkipsBadPoints) {
  std::ostringstream out;
  write_svg_plot(Plot{"t",
                      "y",
                      PlotUnit::microseconds,
                      {PlotSeries{"s",
                                  {PlotPoint{0, 1, 1, 1, ""}, PlotPoint{8, -1, -1, -1, ""},
                                   PlotPoint{8, NAN, 0, 0, ""}}}}},
                 out);
  const std::string svg = out.str();
  EXPECT_NE(svg.find(">no data</text>"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("<polyline"), std::string::npos);
  std::size_t circles = 0;
  for (auto p = svg.find("<circle"); p != std::string::npos; p = svg.find("<circle", p + 1)) {
    ++circles;
  }
  EXPECT_EQ(circles, 1u);  // the legend's marker only
  EXPECT_EQ(svg.find("nan"), std::string::npos);
}

TEST(SvgPlot, PointsInsideTheFrameOnLogAxes) {
  std::ostringstream out;
  write_svg_plot(Plot{"t",
                      "y",
                      PlotUnit::microseconds,
                      {PlotSeries{"s",
                                  {PlotPoint{1, 1, 1, 1, ""}, PlotPoint{1024, 100, 50, 200, ""},
                                   PlotPoint{32, 10, 10, 10, ""}}}}},
                 out);
  const std::string svg = out.str();
  // x: log2 of 1..1024 padded half a power each side, over 84..572: size 32 is 5.5 of 11
  // powers in, x = 84 + 0.5 * 488. y: 1..200 (the band) padded to whole decades, 0.1..1000,
  // over 290..36: 10 is 2 of 4 decades up, y = 290 - 0.5 * 254.
  EXPECT_NE(svg.find("cx=\"328.0\" cy=\"163.0\""), std::string::npos) << svg;
  // The line goes through the points by size, not in the order given.
  EXPECT_NE(svg.find("points=\"106.2,226.5 328.0,163.0 549.8,99.5\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("class=\"band\""), std::string::npos);
  EXPECT_NE(svg.find(">1 KiB</text>"), std::string::npos);
  EXPECT_NE(svg.find(">100 \u00b5s</text>"), std::string::npos);
}

TEST(SvgPlot, NinthSeriesIsDashed) {
  Plot p{"t", "y", PlotUnit::bytes_per_second, {}};
  for (int i = 0; i < 9; ++i) {
    p.series.push_back(
        PlotSeries{"s" + std::to_string(i),
                   {PlotPoint{8, 1e6, 1e6, 1e6, ""}, PlotPoint{16, 2e6, 2e6, 2e6, ""}}});
  }
  std::ostringstream out;
  write_svg_plot(p, out);
  EXPECT_NE(out.str().find("stroke=\"#1f77b4\" stroke-dasharray=\"8 4\" points="),
            std::string::npos);
}

}  // namespace
}  // namespace reports
