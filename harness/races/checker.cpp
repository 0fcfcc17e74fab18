// checker.cpp — the pairs over the ranks' logs, ordered by happens-before (clocks.hpp), and
// the rules of checker.hpp.
#include "races/checker.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "races/access.hpp"
#include "races/clocks.hpp"
#include "rma/types.hpp"

namespace harness::races {
namespace {

using nlohmann::json;

// A call's name in a report: the log's (race_event.hpp).
std::string name(EventKind k) {
  return std::string(to_string(k));
}
std::string name(const Event& e) {
  return name(e.kind);
}

struct LockSpan {
  int rank = -1, w = -1, t = -1;
  bool x = false, nocheck = false;
  std::size_t lock = 0, unlock = SIZE_MAX;
  std::string at;
};

class Checker {
 public:
  Checker(const std::vector<std::vector<Event>>& ev, std::size_t limit)
      : ev_(ev), clocks_(ev), limit_(limit) {}

  std::vector<reports::Race> run() {
    for (std::size_t r = 0; r < ev_.size(); ++r) scan(static_cast<int>(r));
    resolve_sections();
    pairs();
    noput();
    nocheck_locks();
    nocheck_pscw();
    return std::move(out_);
  }

 private:
  struct WinState {
    int fences = 0;
    std::map<int, std::pair<bool, std::string>> locks;  // target -> (exclusive, where)
    bool lock_all = false;
    std::string lock_all_at;
    bool access = false, exposure = false;
    std::string start_at, post_at;
    std::vector<std::size_t> pending;  // accesses not yet complete at the target
    bool stored_since_sync = false;
    unsigned post_asserts = 0;
  };

  void add(const std::string& rule, reports::RaceAccess a, reports::RaceAccess b, std::string why) {
    if (out_.size() >= limit_) return;
    if (!seen_.insert({rule, a.where, b.where}).second) return;
    out_.push_back({rule, std::move(a), std::move(b), std::move(why)});
  }

  reports::RaceAccess sync_access(int r, const Event& e, const std::string& epoch) {
    return {r, e.at, name(e), e.w, e.t, 0, 0, epoch};
  }

  // The epoch an access lies in, as a finding names it; a.fence too when it is a fence epoch.
  void epoch_of(const WinState& s, Access& a) {
    a.epoch = epoch_text(s, a.t, a.remote());
    if (!a.epoch.empty()) return;
    a.fence = s.fences;
    a.epoch = s.fences > 0 ? "fence epoch " + std::to_string(s.fences)
                           : "before the first synchronization";
  }
  // A lock or general active target epoch's name; empty when it lies in none.
  static std::string epoch_text(const WinState& s, int target, bool remote) {
    if (remote) {
      if (auto it = s.locks.find(target); it != s.locks.end())
        return std::string("lock(") + std::to_string(target) +
               (it->second.first ? ", exclusive" : ", shared") + ") at " + it->second.second;
      if (s.lock_all) return "lock_all at " + s.lock_all_at;
      if (s.access) return "access epoch (start at " + s.start_at + ")";
    } else {
      if (s.exposure) return "exposure epoch (post at " + s.post_at + ")";
      if (auto it = s.locks.find(target); it != s.locks.end())
        return std::string("own lock(") + std::to_string(target) +
               (it->second.first ? ", exclusive" : ", shared") + ") at " + it->second.second;
    }
    return {};
  }

  void complete(int r, std::size_t i, WinState& s, int target) {
    std::erase_if(s.pending, [&](std::size_t a) {
      Access& acc = acc_[a];
      if (target >= 0 && acc.t != target) return false;
      acc.done = i;
      const Event& e = ev_[static_cast<std::size_t>(r)][i];
      acc.done_at = name(e) + " at " + e.at;
      return true;
    });
  }

  // An access to window memory (Event::accesses): its bytes, its epoch, and until when it
  // lasts.
  void scan_access(int r, std::size_t i, const Event& e, WinState& s) {
    Access a;
    a.rank = r;
    a.idx = i;
    a.w = e.w;
    a.t = e.t;
    a.lo = e.lo;
    a.hi = e.hi;
    a.spans = e.spans.empty() ? Spans{{e.lo, e.hi}} : e.spans;
    a.grid = e.grid;
    a.mode = e.mode;
    a.op = e.op;
    a.op_name = op_name(e);
    a.dt = e.dt;
    a.call = name(e);
    a.at = e.at;
    epoch_of(s, a);
    if (auto it = s.locks.find(e.t); it != s.locks.end())
      a.lock = it->second.first ? 'x' : 's';
    else if (s.lock_all)
      a.lock = 's';
    if (a.hi <= a.lo) return;  // a zero-byte op touches nothing
    if (e.ret) {
      // The old value came back: it took effect at the target before the call returned.
      a.done = i;
      a.done_at = name(e) + " at " + e.at + " (returned the old value)";
      section_event(r, i, e, a);
    } else if (a.remote()) {
      s.pending.push_back(acc_.size());
    } else {
      a.done = i;
      if (a.mode == AccessMode::store && a.t == r) s.stored_since_sync = true;
    }
    acc_.push_back(std::move(a));
  }

  void scan(int r) {
    const auto& ev = ev_[static_cast<std::size_t>(r)];
    std::map<int, WinState> wins;
    for (std::size_t i = 0; i < ev.size(); ++i) {
      const Event& e = ev[i];
      if (e.accesses()) {
        scan_access(r, i, e, wins[e.w]);
        continue;
      }
      switch (e.kind) {
        case EventKind::barrier:
        case EventKind::send:
        case EventKind::recv:
          continue;
        case EventKind::early:
          early(r, e);
          continue;
        default:
          scan_sync(r, i, e, wins[e.w]);
      }
    }
  }

  // An op's buffer touched before the op completed at the origin (the recorder found it).
  void early(int r, const Event& e) {
    const bool result = e.buf == Buffer::result;
    const bool store = e.mode == AccessMode::store;
    const std::string access = name(store ? EventKind::store : EventKind::load);
    const std::string buf(to_string(e.buf));
    add("completion",
        // Not window memory (window -1): lo/hi are bytes of the op's buffer.
        {r, e.call_at, std::string(call::to_string(e.call)), -1, e.t, e.lo, e.hi,
         "to rank " + std::to_string(e.t) + " on window " + std::to_string(e.w) + ", its " + buf +
             " buffer not complete at the origin"},
        {r, e.at, access, -1, r, e.lo, e.hi,
         "bytes [" + std::to_string(e.lo) + ", " + std::to_string(e.hi) + ") of that " + buf +
             " buffer, before the op completed"},
        "the " + buf + " buffer of an op must not be " + (result ? "read or written" : "written") +
            " until the op completes at the origin (flush_local, flush, unlock, fence, "
            "complete, or the request's wait); this " +
            access + " comes before any of them");
  }

  // A synchronization call of rank r on window e.w: the epochs it opens and closes, the
  // accesses it completes, the asserts it makes.
  void scan_sync(int r, std::size_t i, const Event& e, WinState& s) {
    if (memory_sync(e.kind)) syncs_[{r, e.w}].push_back(i);
    if (e.kind == EventKind::sync || (e.kind == EventKind::unlock && e.t == r) ||
        e.kind == EventKind::unlock_all) {
      // They make the rank's stores visible in its window (MPI-3.1 11.7, rule 5): the
      // stores nostore speaks of are those since the last of them too.
      s.stored_since_sync = false;
    }
    const bool nocheck = (e.a & rma::assert_nocheck) != 0;
    switch (e.kind) {
      case EventKind::fence: {
        const std::string ep = "fence " + std::to_string(s.fences + 1);
        if ((e.a & rma::assert_nostore) && s.stored_since_sync) nostore(r, e, ep, i);
        complete(r, i, s, -1);
        ++s.fences;
        s.stored_since_sync = false;
        if (e.a & rma::assert_noput) noput_.push_back({r, e.w, s.fences, e.at});
        break;
      }
      case EventKind::free:
      case EventKind::flush_all:
        complete(r, i, s, -1);
        break;
      case EventKind::post:
        if ((e.a & rma::assert_nostore) && s.stored_since_sync) nostore(r, e, "post", i);
        s.exposure = true;
        s.post_at = e.at;
        s.stored_since_sync = false;
        s.post_asserts = e.a;
        if (e.a & rma::assert_noput) post_noput_.push_back({r, i, e.w, e.at});
        break;
      case EventKind::wait:
        s.exposure = false;
        s.stored_since_sync = false;
        if (s.post_asserts & rma::assert_noput) post_noput_.back().end = i;
        break;
      case EventKind::start:
        s.access = true;
        s.start_at = e.at;
        break;
      case EventKind::complete:
        complete(r, i, s, -1);
        s.access = false;
        break;
      case EventKind::lock:
        s.locks[e.t] = {e.x, e.at};
        locks_.push_back({r, e.w, e.t, e.x, nocheck, i, SIZE_MAX, e.at});
        break;
      case EventKind::unlock:
        complete(r, i, s, e.t);
        s.locks.erase(e.t);
        for (auto& l : locks_)
          if (l.rank == r && l.w == e.w && l.t == e.t && l.unlock == SIZE_MAX) l.unlock = i;
        break;
      case EventKind::lock_all:
        s.lock_all = true;
        s.lock_all_at = e.at;
        for (std::size_t t = 0; t < ev_.size(); ++t)
          locks_.push_back({r, e.w, static_cast<int>(t), false, nocheck, i, SIZE_MAX, e.at});
        break;
      case EventKind::unlock_all:
        complete(r, i, s, -1);
        s.lock_all = false;
        for (auto& l : locks_)
          if (l.rank == r && l.w == e.w && l.unlock == SIZE_MAX && !l.x) l.unlock = i;
        break;
      case EventKind::flush:
        complete(r, i, s, e.t);
        break;
      default:
        break;
    }
  }

  void nostore(int r, const Event& e, const std::string& ep, std::size_t i) {
    for (auto it = acc_.rbegin(); it != acc_.rend(); ++it)
      if (it->rank == r && it->mode == AccessMode::store && it->w == e.w && it->t == r &&
          it->idx < i) {
        add("nostore", sync_access(r, e, ep), describe(*it),
            "the call said nostore, yet this rank stored into its window since its last "
            "synchronization");
        return;
      }
  }

  // Whether a completes at its target before b starts.
  bool ordered(const Access& a, const Access& b) const {
    return a.done != SIZE_MAX && clocks_.before(a.rank, a.done, b.rank, b.idx);
  }

  void pairs() {
    std::map<std::pair<int, int>, std::vector<std::size_t>> by_memory;
    for (std::size_t i = 0; i < acc_.size(); ++i) by_memory[{acc_[i].w, acc_[i].t}].push_back(i);
    for (auto& [key, list] : by_memory) {
      std::sort(list.begin(), list.end(),
                [&](std::size_t x, std::size_t y) { return acc_[x].lo < acc_[y].lo; });
      for (std::size_t i = 0; i < list.size(); ++i) {
        const Access& a = acc_[list[i]];
        for (std::size_t j = i + 1; j < list.size() && acc_[list[j]].lo < a.hi; ++j) {
          const Access& b = acc_[list[j]];
          // Their covering ranges meet; a layout's runs may still interleave with the other's.
          const auto shared = first_shared(a.spans, b.spans);
          if (!shared) continue;
          const std::string reason = clash(a, b);
          if (reason.empty()) continue;
          if (a.rank == b.rank && !a.remote() && !b.remote()) continue;  // program order
          // Accumulates of one origin to one target are ordered (accumulate_ordering).
          if (a.rank == b.rank && a.accumulate() && b.accumulate()) continue;
          if (a.lock && b.lock && (a.lock == 'x' || b.lock == 'x') && a.rank != b.rank) continue;
          if (mutex_excludes(a, b)) continue;
          const bool ab = ordered(a, b), ba = !ab && ordered(b, a);
          if (ab || ba) {
            // Loads and stores of two ranks in shared memory: the order the barrier or message
            // gives them holds for memory only with a window synchronization on each side.
            if (!a.remote() && !b.remote() && a.rank != b.rank) {
              const Access& first = ab ? a : b;
              const Access& second = ab ? b : a;
              if (!memory_synced(first, second))
                add("sync", describe(first), describe(second), sync_why(first, second));
            }
            continue;
          }
          const Access& first = a.rank < b.rank || (a.rank == b.rank && a.idx < b.idx) ? a : b;
          const Access& second = &first == &a ? b : a;
          add("conflict", describe(first), describe(second),
              conflict_why(first, second, *shared, reason));
        }
      }
    }
  }

  // The calls that synchronize a rank's view of window memory with the window (MPI-3.1
  // 11.7: what makes a store visible to others, or others' updates visible to a load).
  static bool memory_sync(EventKind k) {
    switch (k) {
      case EventKind::sync:
      case EventKind::fence:
      case EventKind::lock:
      case EventKind::unlock:
      case EventKind::lock_all:
      case EventKind::unlock_all:
      case EventKind::post:
      case EventKind::wait:
        return true;
      default:
        return false;
    }
  }

  // first happens before second (two ranks' loads/stores): whether first's rank synchronizes
  // the window after it, second's before it, and the first of those happens before the second.
  bool memory_synced(const Access& first, const Access& second) const {
    const auto x = syncs_.find({first.rank, first.w});
    const auto y = syncs_.find({second.rank, second.w});
    if (x == syncs_.end() || y == syncs_.end()) return false;
    const auto ix = std::upper_bound(x->second.begin(), x->second.end(), first.idx);
    auto iy = std::lower_bound(y->second.begin(), y->second.end(), second.idx);
    if (ix == x->second.end() || iy == y->second.begin()) return false;
    --iy;
    return clocks_.before(first.rank, *ix, second.rank, *iy);
  }

  // --- compare_and_swap critical sections -----------------------------------------------------
  // An acquire is a compare_and_swap that returned its compare value (the word was free) and
  // wrote another (this rank's held value); its release, the rank's next atomic on the word,
  // returned the held value and wrote the free one back. When every write to the word is one
  // of those, and each rank holds with its own value, the word goes free -> held by A -> free
  // -> held by B ...: two ranks' sections never overlap, and an access a rank completes
  // inside its section is ordered before any the next holder issues inside its own.
  struct Section {
    int rank, w, t;
    std::uint64_t lo, hi, held, free;
    std::size_t acq, rel = SIZE_MAX;
    bool trusted = true;
  };

  void section_event(int r, std::size_t i, const Event& e, Access& a) {
    const auto key = std::make_tuple(r, e.w, e.t, e.lo);
    if (auto it = open_sec_.find(key); it != open_sec_.end()) {
      Section& sec = sections_[it->second];
      const bool writes_free =
          (e.kind == EventKind::fetch_and_op && e.op == rma::Op::replace && e.v == sec.free) ||
          (e.kind == EventKind::compare_and_swap && e.cv == sec.held && e.v == sec.free);
      if (e.old == sec.held && writes_free && e.hi == sec.hi) {
        sec.rel = i;
        a.role = 'r';
      }
      open_sec_.erase(it);
      return;
    }
    if (e.kind != EventKind::compare_and_swap) return;
    if (e.old != e.cv) {
      a.role = 'f';  // failed: wrote nothing
    } else if (e.v != e.cv) {
      a.role = 'q';
      open_sec_[key] = sections_.size();
      sections_.push_back({r, e.w, e.t, e.lo, e.hi, e.v, e.cv, i});
    }
  }

  // A write that completes before every acquire of the word (its initialization in setup,
  // then the harness barrier) cannot interleave with the sections. It must have written the
  // free value, or no compare_and_swap would ever have found the word free.
  bool initializes(const Access& a, const Section& s) const {
    if (a.done == SIZE_MAX) return false;
    for (const Section& o : sections_)
      if (o.w == s.w && o.t == s.t && o.lo == s.lo &&
          !clocks_.before(a.rank, a.done, o.rank, o.acq))
        return false;
    return true;
  }

  void resolve_sections() {
    if (sections_.empty()) return;
    for (Section& s : sections_)
      if (s.rel == SIZE_MAX) s.trusted = false;
    // Every writer of a word is an acquire, a failed attempt or a release; every rank holds
    // with a value of its own.
    for (Section& s : sections_) {
      for (const Access& a : acc_)
        if (a.w == s.w && a.t == s.t && first_shared(a.spans, {{s.lo, s.hi}}) && a.writes() &&
            (a.role == 0 || a.lo != s.lo || a.hi != s.hi) && !initializes(a, s)) {
          s.trusted = false;
          break;
        }
      for (const Section& o : sections_)
        if (o.rank != s.rank && o.w == s.w && o.t == s.t && o.lo == s.lo && o.held == s.held)
          s.trusted = false;
    }
    for (Access& a : acc_) {
      if (a.done == SIZE_MAX) continue;
      for (std::size_t k = 0; k < sections_.size(); ++k) {
        const Section& s = sections_[k];
        if (s.trusted && s.rank == a.rank && s.acq < a.idx && a.done < s.rel) a.secs.push_back(k);
      }
    }
  }

  bool mutex_excludes(const Access& a, const Access& b) const {
    if (a.rank == b.rank) return false;
    for (std::size_t x : a.secs)
      for (std::size_t y : b.secs) {
        const Section& s = sections_[x];
        const Section& o = sections_[y];
        if (s.w == o.w && s.t == o.t && s.lo == o.lo) return true;
      }
    return false;
  }

  struct NoPut {
    int rank, w, epoch;
    std::string at;
  };
  struct PostNoPut {
    int rank;
    std::size_t post;
    int w;
    std::string at;
    std::size_t end = SIZE_MAX;
  };

  void noput() {
    // The fence epoch of a remote access (Access::fence): the number of fences its origin had
    // passed.
    for (const Access& a : acc_) {
      if (!a.remote() || !a.writes()) continue;  // gets and no_op accumulates update nothing
      for (const auto& n : noput_)
        if (n.rank == a.t && n.w == a.w && a.fence == n.epoch)
          add("noput",
              {n.rank, n.at, name(EventKind::fence), n.w, n.rank, 0, 0,
               "fence " + std::to_string(n.epoch)},
              describe(a),
              "the fence said noput, yet this op updates the window in the epoch it opens");
      for (const auto& n : post_noput_)
        if (n.rank == a.t && n.w == a.w && clocks_.before(n.rank, n.post, a.rank, a.idx) &&
            (n.end == SIZE_MAX || a.done == SIZE_MAX ||
             clocks_.before(a.rank, a.done, n.rank, n.end)))
          add("noput", {n.rank, n.at, name(EventKind::post), n.w, n.rank, 0, 0, "exposure epoch"},
              describe(a),
              "the post said noput, yet this op updates the window in its exposure epoch");
    }
  }

  void nocheck_locks() {
    for (const auto& a : locks_) {
      if (!a.nocheck) continue;
      for (const auto& b : locks_) {
        if (b.rank == a.rank || b.w != a.w || b.t != a.t || (!a.x && !b.x)) continue;
        const bool a_first =
            a.unlock != SIZE_MAX && clocks_.before(a.rank, a.unlock, b.rank, b.lock);
        const bool b_first =
            b.unlock != SIZE_MAX && clocks_.before(b.rank, b.unlock, a.rank, a.lock);
        if (a_first || b_first) continue;
        const auto span = [](const LockSpan& l) {
          return reports::RaceAccess{l.rank,
                                     l.at,
                                     name(EventKind::lock),
                                     l.w,
                                     l.t,
                                     0,
                                     0,
                                     std::string("lock(") + std::to_string(l.t) +
                                         (l.x ? ", exclusive" : ", shared") +
                                         (l.nocheck ? ", nocheck)" : ")")};
        };
        add("nocheck", span(a), span(b),
            "the lock said nocheck (no other rank holds or asks for a conflicting lock on this "
            "target), yet this lock epoch is not ordered with it by any synchronization");
      }
    }
  }

  // nocheck on start promises that the matching post has already happened; on post, that
  // the matching starts have not, and it must be given on both or neither (MPI-3.1 11.5.5).
  void nocheck_pscw() {
    for (const auto& m : clocks_.matches()) {
      if (m.post_rank < 0) continue;
      const Event& st = ev_[static_cast<std::size_t>(m.start_rank)][m.start_idx];
      const Event& po = ev_[static_cast<std::size_t>(m.post_rank)][m.post_idx];
      const bool sn = (st.a & rma::assert_nocheck) != 0, pn = (po.a & rma::assert_nocheck) != 0;
      if (!sn && !pn) continue;
      const reports::RaceAccess post{
          m.post_rank,
          po.at,
          name(EventKind::post),
          po.w,
          m.post_rank,
          0,
          0,
          pn ? "exposure epoch (post, nocheck)" : "exposure epoch (post)"};
      const reports::RaceAccess start{
          m.start_rank,
          st.at,
          name(EventKind::start),
          st.w,
          m.target,
          0,
          0,
          sn ? "access epoch (start, nocheck)" : "access epoch (start)"};
      if (sn && !clocks_.before(m.post_rank, m.post_idx, m.start_rank, m.start_idx))
        add("nocheck", start, post,
            "the start said nocheck (its matching post has already happened), yet nothing "
            "orders this post before it (tell the origin after posting, e.g. with a send or "
            "a barrier)");
      else if (sn != pn)
        add("nocheck", start, post,
            std::string("nocheck was given on the ") + (sn ? "start" : "post") +
                " but not on the " + (sn ? "post" : "start") +
                " it matched: MPI allows it on a post only if every "
                "matching start gives it too");
    }
  }

  const std::vector<std::vector<Event>>& ev_;
  Clocks clocks_;
  std::size_t limit_;
  std::vector<Access> acc_;
  std::vector<LockSpan> locks_;
  std::vector<NoPut> noput_;
  std::vector<PostNoPut> post_noput_;
  std::vector<reports::Race> out_;
  std::vector<Section> sections_;
  std::map<std::tuple<int, int, int, std::uint64_t>, std::size_t> open_sec_;
  std::map<std::pair<int, int>, std::vector<std::size_t>> syncs_;  // (rank, window) -> indices
  std::set<std::tuple<std::string, std::string, std::string>> seen_;
};

}  // namespace

std::vector<reports::Race> check(const std::vector<std::vector<RaceEvent>>& logs,
                                 std::size_t limit) {
  const std::vector<std::vector<Event>> ev = placed(logs);
  return Checker(ev, limit).run();
}

std::vector<reports::Race> check(const std::vector<json>& logs, std::size_t limit) {
  std::vector<std::vector<RaceEvent>> events;
  events.reserve(logs.size());
  for (const json& log : logs) events.push_back(from_log(log));
  return check(events, limit);
}

}  // namespace harness::races
