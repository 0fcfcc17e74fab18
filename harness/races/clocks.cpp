// clocks.cpp — the vector clocks of every event, by simulating the ranks with their
// synchronization edges (see clocks.hpp).
#include "races/clocks.hpp"

#include <algorithm>

#include "rma/types.hpp"

namespace harness::races {
namespace {

bool collective(const Event& e) {
  switch (e.kind) {
    case EventKind::barrier:
    case EventKind::fence:
    case EventKind::free:
      return true;
    default:
      return false;
  }
}
// One sequence of collective instances per window, and one of the job's barriers (-1: no
// window id is negative).
int coll_key(const Event& e) {
  return e.kind == EventKind::barrier ? -1 : e.w;
}

void join(std::vector<std::uint32_t>& into, const std::vector<std::uint32_t>& c) {
  for (std::size_t i = 0; i < into.size(); ++i) into[i] = std::max(into[i], c[i]);
}

// A remote op's bytes at its target: disp x the target's disp_unit, then `n` bytes or a
// layout's runs from there (ascending; a run below byte 0 would have been rejected by the
// implementation, so it is cut at 0).
void place(Event& ev, std::uint64_t unit) {
  const std::uint64_t base = ev.d * unit;
  ev.lo = ev.hi = base;
  if (!ev.runs) {
    ev.hi = base + ev.n;
    return;
  }
  for (const Run& run : *ev.runs) {
    const std::int64_t lo = static_cast<std::int64_t>(base) + run.off;
    const std::int64_t hi = lo + static_cast<std::int64_t>(run.len);
    if (hi <= 0) continue;
    ev.spans.push_back({static_cast<std::uint64_t>(std::max<std::int64_t>(lo, 0)),
                        static_cast<std::uint64_t>(hi)});
  }
  if (ev.spans.empty()) return;
  ev.lo = ev.spans.front().lo;
  ev.hi = ev.spans.back().hi;
}

}  // namespace

std::vector<std::vector<Event>> placed(const std::vector<std::vector<RaceEvent>>& logs) {
  std::vector<std::vector<Event>> ev(logs.size());
  // Each rank's disp_unit per window (dynamic: displacements are addresses, unit 1).
  std::map<std::pair<std::size_t, int>, std::uint64_t> unit;
  for (std::size_t r = 0; r < logs.size(); ++r)
    for (const RaceEvent& e : logs[r])
      if (e.kind == EventKind::win) unit[{r, e.w}] = e.dyn ? 1 : static_cast<std::uint64_t>(e.du);
  for (std::size_t r = 0; r < logs.size(); ++r)
    for (const RaceEvent& e : logs[r]) {
      if (e.kind == EventKind::win) continue;
      Event one{e, {}};
      if (remote_op(e.kind)) {
        auto it = unit.find({static_cast<std::size_t>(one.t), one.w});
        place(one, it == unit.end() ? 1 : it->second);
      }
      ev[r].push_back(std::move(one));
    }
  return ev;
}

Clocks::Clocks(const std::vector<std::vector<Event>>& ev)
    : ev_(ev), n_(static_cast<int>(ev.size())) {
  vc_.resize(ev.size());
  for (std::size_t r = 0; r < ev.size(); ++r) vc_[r].resize(ev[r].size());
  pos_.assign(ev.size(), 0);
  cur_.assign(ev.size(), Clock(ev.size(), 0));
  coll_count_.resize(ev.size());
  waiting_.assign(ev.size(), false);
  access_group_.resize(ev.size());
  exposure_group_.resize(ev.size());
  const auto left = [&](int r) {
    return pos_[static_cast<std::size_t>(r)] < ev_[static_cast<std::size_t>(r)].size();
  };
  for (;;) {
    bool progress = false, any = false;
    for (int r = 0; r < n_; ++r) {
      while (left(r) && step(r, false)) progress = true;
      if (left(r)) any = true;
    }
    if (!any) break;
    if (!progress) {
      // The logs do not match (a rank stopped early): take the first waiting event without
      // its missing edges, so what was recorded is still checked.
      for (int r = 0; r < n_; ++r)
        if (left(r)) {
          step(r, true);
          break;
        }
    }
  }
  for (const auto& m : start_matches_) {
    const Event& st = ev_[static_cast<std::size_t>(m.start_rank)][m.start_idx];
    const auto& ids = post_ids_[{st.w, m.target, m.start_rank}];
    Match x{m.start_rank, m.start_idx, m.target, -1, 0};
    if (m.nth < ids.size()) {
      x.post_rank = ids[m.nth].first;
      x.post_idx = ids[m.nth].second;
    }
    matches_.push_back(x);
  }
}

void Clocks::finish(int r) {
  const auto ru = static_cast<std::size_t>(r);
  vc_[ru][pos_[ru]] = cur_[ru];
  ++pos_[ru];
}

bool Clocks::collective_step(int r, bool force) {
  const auto ru = static_cast<std::size_t>(r);
  const Event& e = ev_[ru][pos_[ru]];
  const int key = coll_key(e);
  const auto inst = std::make_pair(key, coll_count_[ru][key]);
  auto& who = arrived_[inst];
  if (!waiting_[ru]) {
    ++cur_[ru][ru];
    who.push_back(r);
    waiting_[ru] = true;
  }
  if (static_cast<int>(who.size()) < n_ && !force) return false;
  Clock j(ev_.size(), 0);
  for (int p : who) join(j, cur_[static_cast<std::size_t>(p)]);
  for (int p : who) {
    const auto pu = static_cast<std::size_t>(p);
    cur_[pu] = j;
    waiting_[pu] = false;
    ++coll_count_[pu][key];
    finish(p);
  }
  arrived_.erase(inst);
  return true;
}

// Whether rank r's next event e must wait for another rank's: a start for its posts (unless
// nocheck), a wait for the completes, a recv for its send.
bool Clocks::blocked(int r, const Event& e) {
  switch (e.kind) {
    case EventKind::start:
      if (e.a & rma::assert_nocheck) return false;
      for (int t : e.g)
        if (posts_[{e.w, t, r}].size() <= starts_seen_[{e.w, r, t}]) return true;
      return false;
    case EventKind::wait:
      for (int o : exposure_group_[static_cast<std::size_t>(r)][e.w])
        if (completes_[{e.w, o, r}].size() <= waits_seen_[{e.w, r, o}]) return true;
      return false;
    case EventKind::recv:
      return sends_[{e.tag, e.t, r}].size() <= recvs_seen_[{e.tag, e.t, r}];
    default:
      return false;
  }
}

bool Clocks::step(int r, bool force) {
  const auto ru = static_cast<std::size_t>(r);
  const Event& e = ev_[ru][pos_[ru]];
  Clock& c = cur_[ru];
  if (collective(e)) return collective_step(r, force);
  if (!force && blocked(r, e)) return false;
  ++c[ru];
  switch (e.kind) {
    case EventKind::post:
      exposure_group_[ru][e.w] = e.g;
      for (int o : e.g) {
        posts_[{e.w, r, o}].push_back(c);
        post_ids_[{e.w, r, o}].emplace_back(r, pos_[ru]);
      }
      break;
    case EventKind::start:
      access_group_[ru][e.w] = e.g;
      for (int t : e.g) {
        auto& list = posts_[{e.w, t, r}];
        auto& seen = starts_seen_[{e.w, r, t}];
        if (!(e.a & rma::assert_nocheck) && seen < list.size()) join(c, list[seen]);
        start_matches_.push_back({r, pos_[ru], t, seen});
        ++seen;
      }
      break;
    case EventKind::complete:
      for (int t : access_group_[ru][e.w]) completes_[{e.w, r, t}].push_back(c);
      break;
    case EventKind::wait:
      for (int o : exposure_group_[ru][e.w]) {
        auto& list = completes_[{e.w, o, r}];
        auto& seen = waits_seen_[{e.w, r, o}];
        if (seen < list.size()) join(c, list[seen]);
        ++seen;
      }
      break;
    case EventKind::send:
      sends_[{e.tag, r, e.t}].push_back(c);
      break;
    case EventKind::recv: {
      auto& list = sends_[{e.tag, e.t, r}];
      auto& seen = recvs_seen_[{e.tag, e.t, r}];
      if (seen < list.size()) join(c, list[seen]);
      ++seen;
      break;
    }
    default:
      break;
  }
  finish(r);
  return true;
}

}  // namespace harness::races
