#include "reports/json_writer.hpp"

namespace reports {

void write_json(const Report& r, std::ostream& out) {
  out << to_json(r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace reports
