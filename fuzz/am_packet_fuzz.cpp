// am_packet_fuzz — the am target's packet handling: any header and payload delivered to a
// rank (one rank in this process, progress mode `calls`, so no agent thread) must end as an
// error class, a reply or a dropped packet: never a crash, and never a write outside window
// memory. The windows' memory is on the heap (a `create` window over a vector, a dynamic
// window with one attached region), where AddressSanitizer sees every out-of-bounds byte.
//
// Input: a 48-byte header (progress::PacketHeader, as on the wire), the payload after it.
// The window id is replaced by one of this rank's windows (chosen by the header's own id),
// so that most inputs reach the window's handlers rather than the unknown-window path.
#include <unistd.h>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "core/runtime_impl.hpp"
#include "progress/engine.hpp"
#include "progress/packet.hpp"
#include "rma/bootstrap.hpp"
#include "rma/runtime.hpp"
#include "solo_bootstrap.hpp"

namespace {

struct World {
  rmabench_fuzz::SoloBootstrap boot;
  std::unique_ptr<rma::Runtime> rt;
  std::vector<std::byte> created = std::vector<std::byte>(256);
  std::vector<std::byte> attached = std::vector<std::byte>(256);
  std::vector<std::uint32_t> ids;

  World() {
    rma::RuntimeConfig cfg;
    cfg.backend = "shm";
    cfg.progress = rma::ProgressMode::calls;
    cfg.name_prefix = "rmafuzz" + std::to_string(::getpid());
    auto r = rma::Runtime::create(cfg, boot);
    if (!r) std::abort();
    rt = std::move(*r);
    auto a = rt->create_window({.flavor = rma::Flavor::create,
                                .size = created.size(),
                                .disp_unit = 4,
                                .base = created.data()});
    auto d = rt->create_window({.flavor = rma::Flavor::dynamic});
    auto al = rt->create_window({.flavor = rma::Flavor::allocate, .size = 64});
    if (!a || !d || !al) std::abort();
    if (!(*d)->attach(attached.data(), attached.size())) std::abort();
    ids = {static_cast<std::uint32_t>((*a)->id()), static_cast<std::uint32_t>((*d)->id()),
           static_cast<std::uint32_t>((*al)->id())};
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static World* w = new World();  // one runtime for the whole run (creating one is slow)
  rma::progress::PacketHeader h;
  if (size < sizeof h) return 0;
  std::memcpy(&h, data, sizeof h);
  if (static_cast<std::size_t>(h.type) >= rma::packet_type_count) return 0;
  // Mostly one of our windows; sometimes an id nobody has.
  if (h.win % 8 != 7) h.win = w->ids[h.win % w->ids.size()];
  // Dynamic windows take addresses: aim some of them into the attached region.
  if (h.win == w->ids[1] && (h.aux & 1))
    h.disp = reinterpret_cast<std::uintptr_t>(w->attached.data()) + (h.disp % 512);
  std::span<const std::byte> payload(reinterpret_cast<const std::byte*>(data) + sizeof h,
                                     size - sizeof h);
  auto& engine = w->rt->impl().engine();
  std::unique_lock lk(engine.mutex());
  static_cast<rma::progress::PacketSink&>(engine).deliver(0, h, payload);
  // Whatever the target answered (to itself) is delivered too, and the queues drain.
  for (int i = 0; i < 4; ++i) engine.progress(rma::progress::Ctx::any_call);
  return 0;
}
