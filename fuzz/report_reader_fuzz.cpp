// report_reader_fuzz — the report reader `gate` and `report` use (reports/model.hpp,
// report_from_json): any JSON document is either a report or a std::runtime_error naming
// what is wrong; a report read back writes and reads again to the same report.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "reports/model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return 0;
  reports::Report r;
  try {
    r = reports::report_from_json(j);
  } catch (const std::runtime_error&) {
    return 0;  // a clear error, as the gate reports it
  }
  // What was read can be written (invalid UTF-8 replaced) and read again.
  const auto out = reports::to_json(r);
  (void)out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  try {
    (void)reports::report_from_json(out);
  } catch (const std::runtime_error&) {
    std::abort();  // the writer produced a report its own reader refuses
  }
  return 0;
}
