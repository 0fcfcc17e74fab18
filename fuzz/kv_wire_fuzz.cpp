// kv_wire_fuzz — the launcher's key-value frames (rma_impl/bootstrap/kv_wire.*): any bytes
// arriving on the bootstrap socket are taken apart frame by frame; a malformed frame sets
// `bad` and stops, nothing reads past the buffer, and every frame taken encodes back to the
// bytes it came from.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "bootstrap/kv_wire.hpp"

namespace wire = rma::bootstrap::wire;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string buf(reinterpret_cast<const char*>(data), size);
  for (int frames = 0; frames < 1000; ++frames) {
    const std::string before = buf;
    bool bad = false;
    auto f = wire::take_frame(buf, bad);
    if (bad || !f) break;
    // Round trip: what was taken off the front is exactly the encoding of the frame.
    const std::string again = wire::encode(*f);
    const std::size_t used = before.size() - buf.size();
    if (again.size() != used || before.compare(0, used, again) != 0) std::abort();
  }
  return 0;
}
