// The liveness timeout from the environment (fabric_liveness.hpp).
#include "fabric/fabric_liveness.hpp"

#include <cmath>
#include <cstdlib>

namespace rma::fabric {

Result<std::chrono::milliseconds> liveness_timeout_from_env() {
  const char* v = std::getenv("RMA_LIVENESS_S");
  if (!v || !*v) return Liveness::kDefaultTimeout;
  char* end = nullptr;
  const double s = std::strtod(v, &end);
  // A day bounds it: beyond that it is a typo, and the milliseconds must not overflow.
  if (end == v || *end != '\0' || !std::isfinite(s) || s < 0 || s > 86400)
    return Status{ErrorClass::arg, std::string("fabric transport: RMA_LIVENESS_S=\"") + v +
                                       "\" is not a number of seconds from 0 (off) to 86400"};
  return std::chrono::milliseconds(static_cast<long long>(std::llround(s * 1000)));
}

}  // namespace rma::fabric
