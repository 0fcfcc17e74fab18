// recorder.cpp — the per-rank log of `--check races` (see recorder.hpp). Events are JSON
// objects in a compact form the checker reads: k (kind), w (window id), t (target or peer),
// lo/hi (byte range at the target), m (mode), op, a (assert bits), g (group), x (exclusive),
// tag, at (script file:line).
#include "races/recorder.hpp"

#include <algorithm>
#include <utility>

#include "rma/types.hpp"

namespace harness::races {
namespace {

Recorder* g_active = nullptr;

}  // namespace

Recorder* Recorder::active() { return g_active; }
void Recorder::set_active(Recorder* r) { g_active = r; }

char access_mode(call::Kind k) {
  using call::Kind;
  switch (k) {
    case Kind::put:
    case Kind::rput:
      return 'w';
    case Kind::get:
    case Kind::rget:
      return 'r';
    case Kind::accumulate:
    case Kind::raccumulate:
    case Kind::get_accumulate:
    case Kind::rget_accumulate:
    case Kind::fetch_and_op:
    case Kind::compare_and_swap:
      return 'a';
    default:
      return 0;
  }
}

void Recorder::window(int win, int disp_unit, bool dynamic) {
  windows_.emplace_back(win, WindowInfo{disp_unit > 0 ? disp_unit : 1, dynamic});
  // A target's displacements are in its own disp_unit: the checker scales each op by the
  // target's, from this event of the target's log.
  last_local_ = false;
  log_.push_back({{"k", "win"}, {"w", win}, {"du", disp_unit > 0 ? disp_unit : 1}, {"dyn", dynamic}});
}

void Recorder::memory(int win, int owner, const void* base, std::size_t bytes,
                      std::uint64_t first) {
  if (!base || bytes == 0) return;
  const auto* lo = static_cast<const std::byte*>(base);
  for (const Region& r : regions_)
    if (r.lo == lo && r.win == win && r.owner == owner) return;  // shared_query asked again
  regions_.push_back({lo, lo + bytes, win, owner, first});
}

const Region* Recorder::find(const void* p, std::size_t bytes) const {
  const auto* b = static_cast<const std::byte*>(p);
  // The newest region first: a window created later over the same buffer is the one in use.
  for (auto it = regions_.rbegin(); it != regions_.rend(); ++it)
    if (b < it->hi && b + bytes > it->lo) return &*it;
  return nullptr;
}

void Recorder::local(const Region& r, const void* p, std::size_t bytes, bool store,
                     std::string where) {
  const auto* b = std::max(static_cast<const std::byte*>(p), r.lo);
  const auto* e = std::min(static_cast<const std::byte*>(p) + bytes, r.hi);
  const std::uint64_t lo = r.first + static_cast<std::uint64_t>(b - r.lo);
  const std::uint64_t hi = r.first + static_cast<std::uint64_t>(e - r.lo);
  const char* kind = store ? "store" : "load";
  if (last_local_) {
    auto& l = log_.back();
    if (l["k"] == kind && l["w"] == r.win && l["t"] == r.owner && l["at"] == where) {
      const auto llo = l["lo"].get<std::uint64_t>(), lhi = l["hi"].get<std::uint64_t>();
      if (lo <= lhi && hi >= llo) {  // adjacent or overlapping: one range
        l["lo"] = std::min(llo, lo);
        l["hi"] = std::max(lhi, hi);
        return;
      }
    }
  }
  log_.push_back({{"k", kind}, {"w", r.win}, {"t", r.owner}, {"lo", lo}, {"hi", hi},
                  {"at", std::move(where)}});
  last_local_ = true;
}

void Recorder::call(const call::Call& c, int win, std::string where) {
  using call::Kind;
  last_local_ = false;
  nlohmann::json e = {{"k", std::string(call::to_string(c.kind))}, {"at", std::move(where)}};
  if (win >= 0) e["w"] = win;
  const char mode = access_mode(c.kind);
  if (mode) {
    if (c.target == rma::proc_null) return;
    const std::size_t elem = rma::size_of(c.dtype);
    const std::size_t count = c.kind == Kind::fetch_and_op || c.kind == Kind::compare_and_swap
                                  ? 1
                                  : c.count;
    e["t"] = c.target;
    e["d"] = c.disp;  // the checker scales it by the target's disp_unit
    e["n"] = count * elem;
    e["m"] = std::string(1, mode);
    if (mode == 'a')
      e["op"] = c.kind == Kind::compare_and_swap ? std::string("cas")
                                                  : std::string(rma::to_string(c.op));
  } else {
    switch (c.kind) {
      case Kind::fence:
      case Kind::lock_all:
        e["a"] = c.asserts;
        break;
      case Kind::post:
      case Kind::start:
        e["a"] = c.asserts;
        e["g"] = c.group;
        break;
      case Kind::lock:
        e["a"] = c.asserts;
        e["t"] = c.target;
        e["x"] = c.lock_type == rma::LockType::exclusive;
        break;
      case Kind::unlock:
      case Kind::flush:
      case Kind::flush_local:
        e["t"] = c.target;
        break;
      case Kind::send:
      case Kind::recv:
        e["t"] = c.target;
        e["tag"] = c.tag;
        break;
      case Kind::test:
        e["k"] = "wait";  // recorded only when it returned true: it ended the exposure epoch
        break;
      case Kind::attach:
        memory(win, rank_, c.origin, c.bytes,
               static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(c.origin)));
        return;
      case Kind::detach:
      case Kind::flush_local_all:
      case Kind::sync:
        return;  // orders nothing between ranks
      default:
        break;
    }
  }
  log_.push_back(std::move(e));
}

void Recorder::barrier(std::string where) {
  last_local_ = false;
  log_.push_back({{"k", "barrier"}, {"at", std::move(where)}});
}

nlohmann::json Recorder::to_json() const { return log_; }

}  // namespace harness::races
