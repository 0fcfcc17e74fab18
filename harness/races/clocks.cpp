// clocks.cpp — reading an event, and the vector clocks of every event by simulating the ranks
// with their synchronization edges (see clocks.hpp).
#include "races/clocks.hpp"

#include <algorithm>

#include "rma/types.hpp"

namespace harness::races {
namespace {

bool collective(const Event& e) {
  return e.k == "barrier" || e.k == "fence" || e.k == "free";
}
std::string coll_key(const Event& e) {
  return e.k == "barrier" ? std::string("b") : "w" + std::to_string(e.w);
}

void join(std::vector<std::uint32_t>& into, const std::vector<std::uint32_t>& c) {
  for (std::size_t i = 0; i < into.size(); ++i) into[i] = std::max(into[i], c[i]);
}

}  // namespace

Event parse(const nlohmann::json& j) {
  Event e;
  e.k = j.value("k", "");
  e.w = j.value("w", -1);
  e.t = j.value("t", -1);
  e.lo = j.value("lo", std::uint64_t{0});
  e.hi = j.value("hi", std::uint64_t{0});
  const std::string m = j.value("m", "");
  e.m = m.empty() ? 0 : m[0];
  if (e.k == "load") e.m = 'l';
  if (e.k == "store") e.m = 's';
  e.op = j.value("op", "");
  e.dt = j.value("dt", "");
  e.grid = j.value("grid", true);
  e.a = j.value("a", 0u);
  if (j.contains("g")) e.g = j["g"].get<std::vector<int>>();
  e.x = j.value("x", false);
  e.tag = j.value("tag", 0);
  e.at = j.value("at", "");
  e.ret = j.value("ret", false);
  e.old = j.value("old", std::uint64_t{0});
  e.v = j.value("v", std::uint64_t{0});
  e.cv = j.value("cv", std::uint64_t{0});
  e.call = j.value("call", "");
  e.call_at = j.value("call_at", "");
  e.buf = j.value("buf", "");
  if (e.k == "early") {
    e.m = 0;  // not an access to window memory
    e.x = m == "s";
  }
  return e;
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
  const std::string key = coll_key(e);
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

bool Clocks::step(int r, bool force) {
  const auto ru = static_cast<std::size_t>(r);
  const Event& e = ev_[ru][pos_[ru]];
  Clock& c = cur_[ru];
  if (collective(e)) return collective_step(r, force);
  if (e.k == "start" && !(e.a & rma::assert_nocheck) && !force) {
    for (int t : e.g)
      if (posts_[{e.w, t, r}].size() <= starts_seen_[{e.w, r, t}]) return false;
  }
  if (e.k == "wait" && !force) {
    for (int o : exposure_group_[ru][e.w])
      if (completes_[{e.w, o, r}].size() <= waits_seen_[{e.w, r, o}]) return false;
  }
  if (e.k == "recv" && !force) {
    if (sends_[{e.tag, e.t, r}].size() <= recvs_seen_[{e.tag, e.t, r}]) return false;
  }
  ++c[ru];
  if (e.k == "post") {
    exposure_group_[ru][e.w] = e.g;
    for (int o : e.g) {
      posts_[{e.w, r, o}].push_back(c);
      post_ids_[{e.w, r, o}].emplace_back(r, pos_[ru]);
    }
  } else if (e.k == "start") {
    access_group_[ru][e.w] = e.g;
    for (int t : e.g) {
      auto& list = posts_[{e.w, t, r}];
      auto& seen = starts_seen_[{e.w, r, t}];
      if (!(e.a & rma::assert_nocheck) && seen < list.size()) join(c, list[seen]);
      start_matches_.push_back({r, pos_[ru], t, seen});
      ++seen;
    }
  } else if (e.k == "complete") {
    for (int t : access_group_[ru][e.w]) completes_[{e.w, r, t}].push_back(c);
  } else if (e.k == "wait") {
    for (int o : exposure_group_[ru][e.w]) {
      auto& list = completes_[{e.w, o, r}];
      auto& seen = waits_seen_[{e.w, r, o}];
      if (seen < list.size()) join(c, list[seen]);
      ++seen;
    }
  } else if (e.k == "send") {
    sends_[{e.tag, r, e.t}].push_back(c);
  } else if (e.k == "recv") {
    auto& list = sends_[{e.tag, e.t, r}];
    auto& seen = recvs_seen_[{e.tag, e.t, r}];
    if (seen < list.size()) join(c, list[seen]);
    ++seen;
  }
  finish(r);
  return true;
}

}  // namespace harness::races
