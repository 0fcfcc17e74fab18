// reports_write_samples DIR — writes the sample report in every file format into DIR, plus
// copies of report.json broken in one way each (invalid_*.json), one valid variant
// (valid_empty_time_unit.json), and DIR/no_plots/ with the sample's HTML page without
// benchmarks. ctest then checks with Python that the JSON and the valid variant validate
// against the schema, that each broken copy does not, that the JUnit XML is
// well-formed, and in a browser that the HTML page's plots draw (and that the check fails
// on the page without plots).
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "reports/model.hpp"
#include "reports/report_dir.hpp"
#include "reports/testing/sample_report.hpp"

namespace {

void write_json(const std::filesystem::path& file, const nlohmann::json& j) {
  std::ofstream out(file);
  out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: reports_write_samples DIR\n";
    return 2;
  }
  try {
    const std::filesystem::path dir = argv[1];
    const reports::Report r = reports::sample::sample_report();
    reports::write_report_dir(r, dir, {"json", "junit", "md", "html"});
    reports::Report no_plots = r;
    no_plots.benchmarks = nlohmann::json::array();
    reports::write_report_dir(no_plots, dir / "no_plots", {"html"});

    const nlohmann::json good = reports::to_json(r);
    nlohmann::json j = good;
    j["cases"][1]["status"] = "bogus";
    write_json(dir / "invalid_status.json", j);

    j = good;
    j.erase("summary");
    write_json(dir / "invalid_no_summary.json", j);

    j = good;
    j["schema"] = "rmabench.report/v0";
    write_json(dir / "invalid_schema_id.json", j);

    j = good;
    j["cases"][0]["messages"].erase("total");
    write_json(dir / "invalid_no_message_total.json", j);

    j = good;
    j["cases"][0]["failures"] =
        nlohmann::json::array({{{"rank", "one"}, {"where", ""}, {"message", ""}}});
    write_json(dir / "invalid_failure_rank.json", j);

    j = good;
    j["benchmarks"][0].erase("name");
    write_json(dir / "invalid_benchmark_name.json", j);

    j = good;
    j["benchmarks"][0]["real_time"] = -1.0;
    write_json(dir / "invalid_negative_time.json", j);

    j = good;  // the reader's rule (ns_per_unit): ns, us, ms, s, or "" and absent for ns
    j["benchmarks"][0]["time_unit"] = "xs";
    write_json(dir / "invalid_time_unit.json", j);
    j["benchmarks"][0]["time_unit"] = "";  // and valid: Google Benchmark's default, ns
    write_json(dir / "valid_empty_time_unit.json", j);
  } catch (const std::exception& e) {
    std::cerr << "reports_write_samples: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
