#include "reports/bench_table_writer.hpp"

#include <iomanip>
#include <map>
#include <sstream>
#include <tuple>

namespace reports {
namespace {

using nlohmann::json;

std::string str(const json& e, const char* k) {
  auto it = e.find(k);
  return it != e.end() && it->is_string() ? it->get<std::string>() : "";
}

double num(const json& e, const char* k) {
  auto it = e.find(k);
  return it != e.end() && it->is_number() ? it->get<double>() : 0.0;
}

// Converts Google Benchmark's real_time to microseconds whatever its unit.
double microseconds(const json& e) {
  const std::string unit = str(e, "time_unit");
  const double t = num(e, "real_time");
  if (unit == "ns") return t / 1e3;
  if (unit == "ms") return t * 1e3;
  if (unit == "s") return t * 1e6;
  return t;
}

struct Row {
  std::uint64_t size = 0;
  double latency_us = 0;
  double mbps = 0;
  double msgs = 0;
  bool has_expected = false;
  double expected = 0;
  bool from_median = false;
};

}  // namespace

void write_bench_table(const json& benchmarks, std::ostream& out) {
  using Key = std::tuple<std::string, std::string, std::string, std::string, std::string, int>;
  std::map<Key, std::map<std::uint64_t, Row>> tables;
  for (const auto& e : benchmarks) {
    const std::string run_type = str(e, "run_type");
    const std::string agg = str(e, "aggregate_name");
    // The median of repetitions where there are some; otherwise the single run.
    if (run_type == "aggregate" && agg != "median") continue;
    const Key k{str(e, "pattern"), str(e, "sync"),
                str(e, "backend") + ":" + str(e, "path") +
                    (str(e, "provider").empty() ? "" : "(" + str(e, "provider") + ")"),
                str(e, "target"), str(e, "metric"), static_cast<int>(num(e, "ranks"))};
    const auto size = static_cast<std::uint64_t>(num(e, "size"));
    Row& r = tables[k][size];
    if (r.from_median && run_type != "aggregate") continue;
    r.size = size;
    r.latency_us = microseconds(e);
    r.mbps = num(e, "bytes_per_second") / 1e6;
    r.msgs = num(e, "messages_per_iteration");
    r.has_expected = e.contains("messages_expected");
    r.expected = num(e, "messages_expected");
    r.from_median = run_type == "aggregate";
  }
  for (const auto& [k, rows] : tables) {
    const auto& [pattern, sync, where, target, metric, ranks] = k;
    out << "# " << pattern << "  sync=" << sync << "  " << where << "  ranks=" << ranks;
    if (target == "compute") out << "  target computing";
    out << "\n";
    const bool bw = metric == "bandwidth";
    out << "# " << std::left << std::setw(12) << "Size" << std::right << std::setw(16)
        << (bw ? "Bandwidth MB/s" : "Latency (us)") << std::setw(12) << "msgs/iter" << "\n";
    for (const auto& [size, r] : rows) {
      std::ostringstream msgs;
      msgs << std::setprecision(4) << r.msgs;
      if (r.has_expected && r.msgs != r.expected) msgs << " (expected " << r.expected << ")";
      out << "  " << std::left << std::setw(12) << size << std::right << std::setw(16)
          << std::fixed << std::setprecision(bw ? 1 : 3) << (bw ? r.mbps : r.latency_us)
          << std::setw(12) << msgs.str() << "\n";
      out.unsetf(std::ios::fixed);
    }
    out << "\n";
  }
}

}  // namespace reports
