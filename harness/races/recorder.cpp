// recorder.cpp — the per-rank log of `--check races` (see recorder.hpp): typed events
// (race_event.hpp), shipped in the codec's JSON form.
#include "races/recorder.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "rma/types.hpp"

namespace harness::races {
namespace {

Recorder* g_active = nullptr;

}  // namespace

Recorder* Recorder::active() {
  return g_active;
}
void Recorder::set_active(Recorder* r) {
  g_active = r;
}

AccessMode access_mode(call::Kind k) {
  using call::Kind;
  switch (k) {
    case Kind::put:
    case Kind::rput:
      return AccessMode::write;
    case Kind::get:
    case Kind::rget:
      return AccessMode::read;
    case Kind::accumulate:
    case Kind::raccumulate:
    case Kind::get_accumulate:
    case Kind::rget_accumulate:
    case Kind::fetch_and_op:
    case Kind::compare_and_swap:
      return AccessMode::accumulate;
    default:
      return AccessMode::none;
  }
}

void Recorder::window(int win, int disp_unit, bool dynamic) {
  windows_.emplace_back(win, WindowInfo{disp_unit > 0 ? disp_unit : 1, dynamic});
  // A target's displacements are in its own disp_unit: the checker scales each op by the
  // target's, from this event of the target's log.
  last_local_ = false;
  synchronized();
  RaceEvent e;
  e.kind = EventKind::win;
  e.w = win;
  e.du = disp_unit > 0 ? disp_unit : 1;
  e.dyn = dynamic;
  log_.push_back(std::move(e));
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
  const EventKind kind = store ? EventKind::store : EventKind::load;
  if (last_local_) {
    RaceEvent& l = log_.back();
    if (l.kind == kind && l.w == r.win && l.t == r.owner && l.at == where && lo <= l.hi &&
        hi >= l.lo) {  // adjacent or overlapping: one range
      l.lo = std::min(l.lo, lo);
      l.hi = std::max(l.hi, hi);
      return;
    }
  }
  RaceEvent ev;
  ev.kind = kind;
  ev.mode = store ? AccessMode::store : AccessMode::load;
  ev.w = r.win;
  ev.t = r.owner;
  ev.lo = lo;
  ev.hi = hi;
  ev.at = std::move(where);
  log_.push_back(std::move(ev));
  last_local_ = true;
}

namespace {

// An element's bits, zero-extended: enough to compare values the script passed and got back.
std::uint64_t bits(const void* p, rma::Dtype t) {
  std::uint64_t v = 0;
  if (p) std::memcpy(&v, p, std::min<std::size_t>(rma::size_of(t), sizeof v));
  return v;
}

// Calls after which this rank may be ordered with another: a unit kept before one is no twin
// of one after it.
bool synchronizes(EventKind k) {
  switch (k) {
    case EventKind::barrier:
    case EventKind::fence:
    case EventKind::free:
    case EventKind::post:
    case EventKind::start:
    case EventKind::complete:
    case EventKind::wait:
    case EventKind::send:
    case EventKind::recv:
    case EventKind::win:
      return true;
    default:
      return false;
  }
}

}  // namespace

void Recorder::add_flight(const void* p, std::size_t bytes, const rma::Layout* layout, bool result,
                          int win, int target, const void* request, const call::Call& c,
                          const std::string& at) {
  if (!p) return;
  const auto* base = static_cast<const std::byte*>(p);
  Flight f{base, base + bytes, {}, result, win, target, request, c.kind, at};
  if (layout) {
    // The bindings keep a layout inside its buffer: its runs start at offsets >= 0.
    f.runs = layout_runs(*layout).runs;
    if (f.runs.empty()) return;
    f.hi = base + f.runs.back().off + static_cast<std::ptrdiff_t>(f.runs.back().len);
  }
  if (f.hi == f.lo) return;
  // The op itself reads its origin and writes its result: a buffer still in flight for an
  // earlier op is touched by it.
  const std::string what = at + " (" + std::string(call::to_string(f.call)) + ")";
  if (f.runs.empty()) {
    if (in_flight(p, bytes, result)) early(p, bytes, result, what);
  } else {
    for (const Run& r : f.runs)
      if (in_flight(base + r.off, r.len, result)) early(base + r.off, r.len, result, what);
  }
  flights_.push_back(std::move(f));
}

std::optional<std::pair<std::uint64_t, std::uint64_t>> Recorder::touched(const Flight& f,
                                                                         const std::byte* b,
                                                                         std::size_t bytes) {
  if (!(b < f.hi && b + bytes > f.lo)) return std::nullopt;
  const std::ptrdiff_t lo = b - f.lo, hi = lo + static_cast<std::ptrdiff_t>(bytes);
  const auto cut =
      [&](std::ptrdiff_t rlo,
          std::ptrdiff_t rhi) -> std::optional<std::pair<std::uint64_t, std::uint64_t>> {
    const std::ptrdiff_t x = std::max(lo, rlo), y = std::min(hi, rhi);
    if (x >= y) return std::nullopt;
    return std::make_pair(static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(y));
  };
  if (f.runs.empty()) return cut(0, f.hi - f.lo);
  for (const Run& r : f.runs)
    if (auto t = cut(r.off, r.off + static_cast<std::ptrdiff_t>(r.len))) return t;
  return std::nullopt;
}

void Recorder::complete_flights(int win, int target, const void* request) {
  std::erase_if(flights_, [&](const Flight& f) {
    if (request) return f.request == request;
    return f.win == win && (target < 0 || f.target == target);
  });
}

void Recorder::request_done(const void* request) {
  if (request) complete_flights(-1, -1, request);
}

bool Recorder::in_flight(const void* p, std::size_t bytes, bool store) const {
  const auto* b = static_cast<const std::byte*>(p);
  for (const Flight& f : flights_)
    if ((store || f.result) && touched(f, b, bytes)) return true;
  return false;
}

void Recorder::early(const void* p, std::size_t bytes, bool store, const std::string& where) {
  const auto* b = static_cast<const std::byte*>(p);
  for (const Flight& f : flights_) {
    if (!(store || f.result)) continue;
    const auto t = touched(f, b, bytes);
    if (!t) continue;
    // One event per pair of lines: a loop that breaks the rule a thousand times is one finding.
    std::pair<std::string, std::string> key{f.at, where};
    if (std::find(early_seen_.begin(), early_seen_.end(), key) != early_seen_.end()) continue;
    early_seen_.push_back(key);
    last_local_ = false;
    const auto [lo, hi] = *t;
    RaceEvent e;
    e.kind = EventKind::early;
    e.at = where;
    e.mode = store ? AccessMode::store : AccessMode::load;
    e.buf = f.result ? Buffer::result : Buffer::origin;
    e.call = f.call;
    e.call_at = f.at;
    e.w = f.win;
    e.t = f.target;
    e.lo = lo;
    e.hi = hi;
    log_.push_back(std::move(e));
  }
}

void Recorder::retire_repeat(std::size_t first) {
  if (first >= log_.size()) return;
  // Only a self-contained unit: no other open epoch or section begins inside it, and no
  // call inside it orders this rank with another.
  for (const auto& l : open_locks_)
    if (l.second > first) return;
  for (const auto& sec : sections_)
    if (sec.first > first) return;
  const auto begin = log_.begin() + static_cast<std::ptrdiff_t>(first);
  if (std::any_of(begin, log_.end(), [](const RaceEvent& e) { return synchronizes(e.kind); }))
    return;
  last_local_ = false;
  for (const auto& unit : units_)
    if (std::equal(begin, log_.end(), unit.begin(), unit.end())) {
      log_.erase(begin, log_.end());
      ++retired_;
      return;
    }
  units_.emplace_back(begin, log_.end());
}

namespace {

// A remote op's bytes at its target (d with n, or a layout's runs r) and its mode, op and
// element type.
void target_fields(const call::Call& c, RaceEvent& e) {
  using call::Kind;
  const bool atomic = c.kind == Kind::fetch_and_op || c.kind == Kind::compare_and_swap;
  e.t = c.target;
  e.d = c.disp;  // the checker scales it by the target's disp_unit
  if (c.has_layout()) {
    // A derived-type target layout: the byte runs it touches from disp (footprint.hpp), so
    // two origins' interleaved layouts read as disjoint.
    Runs r = layout_runs(c.target_layout);
    e.runs = std::move(r.runs);
    e.cov = !r.exact;  // the covering range: too many runs to keep
    e.grid = r.grid;
  } else {
    e.n = (atomic ? 1 : c.count) * rma::size_of(c.dtype);
  }
  e.mode = access_mode(c.kind);
  if (e.mode != AccessMode::accumulate) return;
  // compare_and_swap is a conditional replace (the log spells it "cas").
  e.op = c.kind == Kind::compare_and_swap ? rma::Op::replace : c.op;
  // The basic type of the target's elements: accumulates are atomic per element only
  // between ones of the same type (the checker's accumulate rule).
  e.dt = c.has_layout() ? c.target_layout.type->basic_type().value_or(c.dtype) : c.dtype;
}

}  // namespace

void Recorder::access(const call::Call& c, int win, const std::string& where, Extra extra,
                      RaceEvent e) {
  using call::Kind;
  const bool atomic = c.kind == Kind::fetch_and_op || c.kind == Kind::compare_and_swap;
  const std::size_t elem = rma::size_of(c.dtype);
  const std::size_t count = atomic ? 1 : c.count;
  target_fields(c, e);
  if (atomic) {
    e.v = bits(c.origin, c.dtype);
    if (c.kind == Kind::compare_and_swap) e.cv = bits(c.compare, c.dtype);
  }
  if (extra.returned) {
    // The old value came back: the op took effect at the target before the call returned.
    e.ret = true;
    e.old = bits(c.result, c.dtype);
    returned(c, win, std::move(e));
    return;
  }
  const bool get = c.kind == Kind::get || c.kind == Kind::rget;
  // With a layout, the local sides: origin_layout is a get's result buffer too.
  const rma::Layout* ol = c.has_layout() ? &c.origin_layout : nullptr;
  const rma::Layout* rl = !c.has_layout() ? nullptr : get ? &c.origin_layout : &c.result_layout;
  if (!atomic && !get)
    add_flight(c.origin, c.count * elem, ol, false, win, c.target, extra.request, c, where);
  if (c.result)
    add_flight(c.result, count * elem, rl, true, win, c.target, extra.request, c, where);
  log_.push_back(std::move(e));
}

void Recorder::returned(const call::Call& c, int win, RaceEvent e) {
  using call::Kind;
  if (c.kind == Kind::compare_and_swap && !log_.empty() && e.old != e.cv) {
    // A spin: consecutive failed attempts of one line are one event.
    const RaceEvent& l = log_.back();
    if (l.kind == EventKind::compare_and_swap && l.ret && l.old != l.cv && l.at == e.at &&
        l.w == e.w && l.t == e.t && l.d == e.d && l.cv == e.cv && l.v == e.v)
      return;
  }
  const std::uint64_t old = e.old;
  // The release of an open critical section on this word: the unit it closes may repeat.
  for (auto it = sections_.begin(); it != sections_.end(); ++it)
    if (it->win == win && it->target == c.target && it->disp == c.disp) {
      const bool release = old == it->held;
      const std::size_t first = it->first;
      sections_.erase(it);
      if (release) {
        log_.push_back(std::move(e));
        retire_repeat(first);
        return;
      }
      break;
    }
  if (c.kind == Kind::compare_and_swap && old == e.cv && e.v != e.cv) {
    // An acquire: the section starts at the first attempt of this spin.
    std::size_t first = log_.size();
    while (first > 0) {
      const RaceEvent& l = log_[first - 1];
      if (l.kind != EventKind::compare_and_swap || l.at != e.at || l.w != e.w || l.t != e.t ||
          l.d != e.d)
        break;
      --first;
    }
    sections_.push_back({win, c.target, c.disp, e.v, first});
  }
  log_.push_back(std::move(e));
}

void Recorder::call(const call::Call& c, int win, std::string where, Extra extra) {
  using call::Kind;
  last_local_ = false;
  // Local completion first: the origin and result buffers it releases.
  if (c.kind == Kind::test || c.kind == Kind::wait) {
    // window test/wait end an exposure epoch: no op of this rank completes there
  } else if (call::completes_of(c.kind) == call::Completes::target) {
    complete_flights(win, c.target, nullptr);
  } else if (call::completes_of(c.kind) == call::Completes::all) {
    complete_flights(win, -1, nullptr);
  }
  RaceEvent e;
  e.kind = of(c.kind);
  e.at = where;
  e.w = win;
  if (access_mode(c.kind) != AccessMode::none) {
    if (c.target != rma::proc_null) access(c, win, where, extra, std::move(e));
    return;
  }
  switch (c.kind) {
    case Kind::fence:
    case Kind::lock_all:
      e.a = c.asserts;
      break;
    case Kind::post:
    case Kind::start:
      e.a = c.asserts;
      e.g = c.group;
      break;
    case Kind::lock:
      e.a = c.asserts;
      e.t = c.target;
      e.x = c.lock_type == rma::LockType::exclusive;
      open_locks_.push_back({{win, c.target}, log_.size()});
      break;
    case Kind::unlock:
    case Kind::flush:
    case Kind::flush_local:
      e.t = c.target;
      break;
    case Kind::send:
    case Kind::recv:
      e.t = c.target;
      e.tag = c.tag;
      break;
    case Kind::test:
      // Recorded only when it returned true: it ended the exposure epoch.
      e.kind = EventKind::wait;
      break;
    case Kind::attach:
      memory(win, rank_, c.origin, c.bytes,
             static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(c.origin)));
      return;
    case Kind::detach:
    case Kind::flush_local_all:
      return;  // orders nothing between ranks
    default:
      break;
  }
  if (synchronizes(e.kind)) synchronized();
  log_.push_back(std::move(e));
  if (c.kind == Kind::unlock) {
    for (auto it = open_locks_.begin(); it != open_locks_.end(); ++it)
      if (it->first == std::make_pair(win, c.target)) {
        const std::size_t first = it->second;
        open_locks_.erase(it);
        retire_repeat(first);
        break;
      }
  }
}

void Recorder::barrier(std::string where) {
  last_local_ = false;
  synchronized();
  RaceEvent e;
  e.kind = EventKind::barrier;
  e.at = std::move(where);
  log_.push_back(std::move(e));
}

nlohmann::json Recorder::to_json() const {
  return to_log(log_);
}

}  // namespace harness::races
