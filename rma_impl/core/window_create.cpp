// Window creation and teardown in the runtime: config and info checks, memory, the
// collective exchange of sizes and displacement units, the choice of the table of operations,
// and the routing of RMA packets to their window.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>

#include "core/am_win.hpp"
#include "core/runtime_impl.hpp"
#include "core/window_ops.hpp"

namespace rma::core {
namespace {

Status info_error(const std::string& key, const std::string& value, const std::string& allowed) {
  return {ErrorClass::info, "window info " + key + "=" + value + ": expected " + allowed};
}

Result<bool> info_bool(const std::map<std::string, std::string>& info, const std::string& key,
                       bool dflt) {
  auto it = info.find(key);
  if (it == info.end()) return dflt;
  if (it->second == "true") return true;
  if (it->second == "false") return false;
  return info_error(key, it->second, "true or false");
}

// 64-byte aligned, zeroed memory owned by a shared_ptr (so views may outlive the window).
std::shared_ptr<void> allocate(std::size_t bytes) {
  const std::size_t n = ((bytes ? bytes : 1) + 63) & ~std::size_t{63};
  void* p = std::aligned_alloc(64, n);
  if (!p) return nullptr;
  std::memset(p, 0, n);
  return std::shared_ptr<void>(p, std::free);
}

}  // namespace

Result<rma::Window*> RuntimeImpl::create_window(const WindowConfig& cfg) {
  // Every check that may fail differently on different ranks happens before the collective
  // part, and its failure is local: the caller reports it (ranks that did not fail will wait
  // in the exchange until the case's deadline).
  if (cfg.disp_unit < 1)
    return Status{ErrorClass::disp, "window: disp_unit " + std::to_string(cfg.disp_unit) +
                                        " is not positive"};
  if (cfg.flavor == Flavor::create && cfg.size && !cfg.base)
    return Status{ErrorClass::buffer, "window: create needs memory for its " +
                                          std::to_string(cfg.size) + " bytes"};
  std::map<std::string, std::string> info = config_.window_info;
  for (const auto& [k, v] : cfg.info) info[k] = v;
  auto no_locks = info_bool(info, "no_locks", false);
  if (!no_locks) return no_locks.status();
  bool ordered = true;
  if (auto it = info.find("accumulate_ordering"); it != info.end()) {
    if (it->second == "none") {
      ordered = false;
    } else {
      std::stringstream ss(it->second);
      std::string part;
      while (std::getline(ss, part, ','))
        if (part != "rar" && part != "raw" && part != "war" && part != "waw")
          return info_error("accumulate_ordering", it->second,
                            "none or a comma-separated list of rar, raw, war, waw");
    }
  }
  Path path = config_.default_path;
  if (auto it = info.find("path"); it != info.end()) {
    auto p = parse_path(it->second);
    if (!p) return info_error("path", it->second, "am, direct or auto");
    path = *p;
  }
  if (path == Path::direct)
    return Status{ErrorClass::unsupported,
                  "window: the direct path is not available on backend " + config_.backend};
  if (cfg.flavor == Flavor::shared)
    return Status{ErrorClass::unsupported,
                  "window: shared windows need the direct path, not available on backend " +
                      config_.backend};

  const auto id = static_cast<std::uint32_t>(windows_.size());
  auto w = std::make_unique<Win>(*this, id, cfg.flavor);
  w->disp_unit = cfg.disp_unit;
  w->no_locks = no_locks.value();
  w->ordered_accumulates = ordered;
  w->path = Path::am;
  w->path_detail = "am";
  w->ops = &am_ops();
  switch (cfg.flavor) {
    case Flavor::allocate:
      w->memory = allocate(cfg.size);
      if (!w->memory)
        return Status{ErrorClass::other, "window: cannot allocate " + std::to_string(cfg.size) +
                                             " bytes"};
      w->base = static_cast<std::byte*>(w->memory.get());
      w->size = cfg.size;
      break;
    case Flavor::create:
      w->base = static_cast<std::byte*>(cfg.base);
      w->size = cfg.size;
      break;
    default:  // dynamic: memory comes with attach
      break;
  }
  w->am = std::make_unique<AmWin>(*w);
  Win& win = *w;

  // Registered before the exchange: once a peer has our contribution it may send packets.
  std::unique_lock lk(engine_.mutex());
  windows_.push_back(Win::wrap(std::move(w)));
  rma::Window* handle = windows_.back().get();
  auto all = p2p_.allgather(lk, std::to_string(win.size) + " " + std::to_string(win.disp_unit));
  if (!all) {
    win.freed = true;
    return all.status();
  }
  win.peers.resize(all->size());
  for (std::size_t r = 0; r < all->size(); ++r) {
    std::istringstream in((*all)[r]);
    in >> win.peers[r].size >> win.peers[r].disp_unit;
  }
  if (!empty_slots(*win.ops).empty())
    return Status{ErrorClass::intern, "window: table " + std::string(win.ops->name) +
                                          " has empty slots"};
  if (!win.no_locks) engine_.start_agent();
  return handle;
}

void RuntimeImpl::forget_window(Win& w) {
  w.freed = true;
  w.memory.reset();
  w.base = nullptr;
}

void RuntimeImpl::on_rma(int src, const PacketHeader& h, std::span<const std::byte> payload) {
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
  for (int i = 0; i < 200 && !lk.try_lock(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
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
  auto mem = allocate(bytes);
  if (!mem) return Status{ErrorClass::other, "alloc_mem: cannot allocate " + std::to_string(bytes) + " bytes"};
  void* p = mem.get();
  alloc_mem_[p] = std::move(mem);
  return p;
}

Status RuntimeImpl::free_mem(void* base) {
  if (!alloc_mem_.erase(base)) return {ErrorClass::arg, "free_mem: not memory from alloc_mem"};
  return Status::ok();
}

}  // namespace rma::core
