// Window creation and teardown in the runtime: config and info checks, the collective
// exchange that makes every rank agree on the path (or on the failure), memory, the table of
// operations, and the routing of RMA packets to their window.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>

#include "core/backend.hpp"
#include "core/fault.hpp"
#include "core/memory.hpp"
#include "core/runtime_impl.hpp"
#include "core/window_fast.hpp"
#include "core/window_info.hpp"
#include "core/window_ops.hpp"

namespace rma::core {
namespace {

// What one rank says about the window it is creating.
struct Offer {
  std::uint64_t size = 0;
  int disp_unit = 1;
  bool can_direct = false;
  bool can_map = false;
  bool map_am = false;  // maps it on the am path too (Backend::maps_am_window)
  Path path = Path::am;
  std::string error;  // a local failure, class name first

  std::string encode() const {
    std::ostringstream o;
    o << size << ' ' << disp_unit << ' ' << can_direct << ' ' << can_map << ' ' << map_am << ' '
      << static_cast<int>(path) << ' ' << error;
    return o.str();
  }
  static Offer decode(const std::string& s) {
    std::istringstream in(s);
    Offer f;
    int p = 0;
    in >> f.size >> f.disp_unit >> f.can_direct >> f.can_map >> f.map_am >> p;
    f.path = static_cast<Path>(p);
    std::getline(in, f.error);
    if (!f.error.empty() && f.error[0] == ' ') f.error.erase(0, 1);
    return f;
  }
};

// Local checks of a window's config and info; the window's info is filled on the way.
Status check_config(const RuntimeConfig& rc, const WindowConfig& cfg, Win& w, Backend* backend,
                    bool has_direct, Offer& offer) {
  if (cfg.disp_unit < 1)
    return {ErrorClass::disp,
            "window: disp_unit " + std::to_string(cfg.disp_unit) + " is not positive"};
  if (cfg.flavor == Flavor::create && cfg.size && !cfg.base)
    return {ErrorClass::buffer,
            "window: create needs memory for its " + std::to_string(cfg.size) + " bytes"};
  auto info = parse_window_info(rc, cfg.info);
  if (!info) return info.status();
  w.info = info.value();
  offer.path = w.info.path;
  offer.can_map = backend && backend->can_map(cfg, w.info);
  offer.can_direct = offer.can_map && has_direct;
  offer.map_am = offer.can_map && backend->maps_am_window(cfg);
  if (cfg.flavor == Flavor::shared && !offer.can_map)
    return {ErrorClass::rma_flavor,
            "window: shared windows need memory every rank can map; backend " + rc.backend +
                " has none"};
  return Status::ok();
}

}  // namespace

Result<rma::Window*> RuntimeImpl::create_window(const WindowConfig& cfg) {
  const auto id = static_cast<std::uint32_t>(windows_.size());
  auto w = std::make_unique<Win>(*this, id, cfg.flavor);
  w->disp_unit = cfg.disp_unit;
  w->size = cfg.flavor == Flavor::dynamic ? 0 : cfg.size;
  w->am = protocol_.attach(*w);
  Win& win = *w;

  Offer mine;
  mine.size = win.size;
  mine.disp_unit = cfg.disp_unit;
  Status local = check_config(config_, cfg, win, backend_.get(), direct_ops_ != nullptr, mine);
  const Path requested = mine.path;
  if (!local) mine.error = std::string(local.class_name()) + " " + local.message();

  // Registered before the exchange: once a peer has our offer it may send packets.
  std::unique_lock lk(engine_.mutex());
  windows_.push_back(Win::wrap(std::move(w)));
  rma::Window* handle = windows_.back().get();
  auto fail = [&](Status s) -> Result<rma::Window*> {
    win.freed = true;
    return s;
  };
  auto all = p2p_.allgather(lk, mine.encode());
  if (!all) return fail(all.status());

  // Every rank decides the same thing from the same offers.
  std::vector<Offer> offers;
  for (const auto& s : *all) offers.push_back(Offer::decode(s));
  if (!local) return fail(local);
  for (std::size_t r = 0; r < offers.size(); ++r) {
    if (offers[r].error.empty()) continue;
    // The other rank's own class, then its message.
    const std::string& e = offers[r].error;
    const auto space = e.find(' ');
    const auto cls = parse_error_class(e.substr(0, space)).value_or(ErrorClass::arg);
    return fail(Status{cls, "window: rank " + std::to_string(r) + " could not create it: " +
                                e.substr(space == std::string::npos ? e.size() : space + 1)});
  }
  bool all_direct = true, all_map_am = true;
  for (std::size_t r = 0; r < offers.size(); ++r) {
    if (offers[r].path != requested)
      return fail(Status{ErrorClass::info, "window: ranks ask for different paths (" +
                                               std::string(to_string(requested)) + " here, " +
                                               std::string(to_string(offers[r].path)) +
                                               " on rank " + std::to_string(r) + ")"});
    all_direct = all_direct && offers[r].can_direct;
    all_map_am = all_map_am && offers[r].map_am;
  }
  if (requested == Path::direct && !all_direct) {
    std::size_t r = 0;
    while (offers[r].can_direct) ++r;
    return fail(Status{ErrorClass::rma_shared,
                       "window: the direct path needs memory every rank can map, and rank " +
                           std::to_string(r) + "'s cannot be (" +
                           std::string(to_string(cfg.flavor)) + " window" +
                           (cfg.flavor == Flavor::create ? " over memory not from alloc_mem" : "") +
                           ", backend " + config_.backend + ")"});
  }
  const bool direct = requested != Path::am && all_direct;
  win.peers.resize(offers.size());
  for (std::size_t r = 0; r < offers.size(); ++r)
    win.peers[r] = {offers[r].size, offers[r].disp_unit};

  Call call{win, lk, "window"};
  // Memory in place before the last barrier: a peer that leaves it first may send an op at
  // once, and this rank may take it while it waits.
  if (cfg.flavor == Flavor::create) win.base = static_cast<std::byte*>(cfg.base);
  const bool mapped = direct || cfg.flavor == Flavor::shared || all_map_am;
  if (mapped) {
    Status s = backend_->map_window(call, cfg, win.info, direct);
    if (!s) return fail(s);
  } else if (cfg.flavor == Flavor::allocate) {
    win.memory = zeroed_memory(cfg.size);
    if (!win.memory)
      return fail(Status{ErrorClass::other,
                         "window: cannot allocate " + std::to_string(cfg.size) + " bytes"});
    win.base = static_cast<std::byte*>(win.memory.get());
  }
  // No rank returns (and sends an op) before every rank's memory is in place. (Mapping
  // ends with the same barrier.)
  if (!mapped) {
    Status s = p2p_.barrier(lk);
    if (!s) return fail(s);
  }
  if (Status s = install_table(win, direct); !s) return fail(s);
  if (!win.info.no_locks) engine_.start_agent();
  return handle;
}

Status RuntimeImpl::install_table(Win& w, bool direct) {
  const WindowOps* t = direct ? direct_ops_ : protocol_.ops;
  if (!t) return {ErrorClass::intern, "window: no direct table to install"};
  if (auto empty = empty_slots(*t); !empty.empty())
    return {ErrorClass::intern,
            "window: table " + std::string(t->name) + " has an empty slot: " + empty.front()};
  if (auto missing = missing_primitives(*t); !missing.empty())
    return {ErrorClass::intern, "window: table " + std::string(t->name) +
                                    " lacks the direct primitive " + missing.front()};
  w.ops = t;
  w.path = t == protocol_.ops ? Path::am : Path::direct;
  map_fast_targets(w);
  return Status::ok();
}

void map_fast_targets(Win& w) {
  if (!w.ops->copies_mapped || w.ops->needs_engine_lock || !w.backend ||
      w.flavor == Flavor::dynamic || active_fault() != Fault::none)
    return;
  for (std::size_t r = 0; r < w.peers.size(); ++r) {
    auto region = w.backend->shared_query(static_cast<int>(r));
    if (region && region.value().size >= w.peers[r].size)
      w.peers[r].mapped = static_cast<std::byte*>(region.value().base);
  }
}

void RuntimeImpl::forget_window(Win& w) {
  w.freed = true;
  for (PeerWin& p : w.peers) p.mapped = nullptr;
  w.memory.reset();
  w.backend.reset();
  w.base = nullptr;
}

void RuntimeImpl::on_rma(int src, const progress::PacketHeader& h,
                         std::span<const std::byte> payload) {
  if (h.win >= windows_.size()) return;
  Win& w = windows_[h.win]->impl();
  // A packet for a freed window can only be an unlock that needed no ack: nothing to do.
  if (w.freed || !w.am) return;
  w.am->on_packet(src, h, payload);
}

std::vector<WindowState> RuntimeImpl::window_states() {
  std::vector<WindowState> out;
  std::unique_lock lk(engine_.mutex(), std::defer_lock);
  // The application thread releases the lock between polls; a dump that cannot get it
  // within a moment says so instead of hanging.
  for (int i = 0; i < 200 && !lk.try_lock(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (!lk.owns_lock()) {
    WindowState busy;
    busy.id = -1;
    busy.access_epoch = "unknown (engine busy)";
    out.push_back(busy);
    return out;
  }
  for (const auto& w : windows_)
    if (!w->freed()) out.push_back(w->impl().state());
  return out;
}

Result<void*> RuntimeImpl::alloc_mem(std::size_t bytes) {
  if (backend_) return backend_->alloc_mem(bytes);
  return alloc_mem_.alloc(bytes);
}

Status RuntimeImpl::free_mem(void* base) {
  if (backend_) return backend_->free_mem(base);
  return alloc_mem_.free(base);
}

}  // namespace rma::core
