#include "reports/bench_table_writer.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>
#include <vector>

#include "reports/benchmark_runs.hpp"

namespace reports {
namespace {

using nlohmann::json;

std::string str(const json& e, const char* k) {
  auto it = e.find(k);
  return it != e.end() && it->is_string() ? it->get<std::string>() : "";
}

std::optional<double> opt_num(const json& e, const char* k) {
  auto it = e.find(k);
  if (it == e.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

double num(const json& e, const char* k) {
  return opt_num(e, k).value_or(0.0);
}

// Converts Google Benchmark's real_time to microseconds whatever its unit (ns_per_unit's
// rule; an entry whose unit is none it knows has no time, as the reader has it).
double microseconds(const json& e) {
  const auto ns = ns_per_unit(e);
  return ns ? num(e, "real_time") * *ns / 1e3 : std::numeric_limits<double>::quiet_NaN();
}

std::string fixed(double v, int digits) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(digits) << v;
  return o.str();
}

std::string ratio_text(double v, double base) {
  if (!(base > 0) || !std::isfinite(v / base)) return "—";
  const double r = v / base;
  return fixed(r, r < 10 ? 2 : 1) + "x";
}

// Times that spread more than this had the machine change under them (here: the host moving
// the two virtual cores, which moves the floor by 5x), not noise: the round trips measured
// before the figures of a run, or one figure's repetitions.
constexpr double kChanged = 1.5;

// The range of some times (round trips, repetitions).
struct Range {
  std::optional<double> lo, hi;
  void add(double v) {
    lo = std::min(lo.value_or(v), v);
    hi = std::max(hi.value_or(v), v);
  }
  std::string text() const { return fixed(*lo, 3) + (*hi != *lo ? "-" + fixed(*hi, 3) : ""); }
  bool changed() const { return lo && *lo > 0 && *hi > kChanged * *lo; }
};

struct Cell {
  double latency_us = 0;
  double mbps = 0;
  std::optional<double> msgs;  // nullopt: not observable in this implementation
  std::optional<double> expected;
  // The round trip measured just before this figure (two-rank reference figures: the cache
  // line on shm, a raw send/recv elsewhere): its xrt is read against it rather than the run's
  // floor, which may have been taken under another placement of the two cores.
  std::optional<double> floor_rt_us;
  // And the shm queue's round trip measured with it (shm figures only).
  std::optional<double> queue_rt_us;
  bool from_median = false;
  Range reps;  // its repetitions' times, us
  // An MPI's figure: the same loop in plain C with that MPI, timed in the same launch
  // (harness/worker/plain_figure.hpp), or why it has none.
  std::optional<double> plain_c_us;
  bool plain_c_from_median = false;
  std::string plain_c_why;  // error_message of a calibration without a figure
};

// A calibration entry (`calibration`: "plain_c") is no column of its own: it goes beside the
// figure it calibrates, in that MPI's column group.
bool is_calibration(const json& e) {
  return !str(e, "calibration").empty();
}

void take_calibration(const json& e, Cell& c) {
  const bool median = str(e, "run_type") == "aggregate";
  if (e.value("error_occurred", false)) {
    c.plain_c_why = str(e, "error_message");
    return;
  }
  if (c.plain_c_from_median && !median) return;
  c.plain_c_us = microseconds(e);
  c.plain_c_from_median = median;
}

// " layout=vector block=64": a case's other options, as a column name ends with them.
std::string variant_of(const json& e) {
  return str(e, "variant").empty() ? "" : " " + str(e, "variant");
}

// Where a figure ran: the reference's backend and path (and am protocol, where it is not the
// default), or an MPI library by name.
// A case's other options (`variant`, "layout=vector block=64") follow, so variants of one
// pattern stand side by side.
std::string column_of(const json& e) {
  const std::string impl = str(e, "impl");
  const std::string variant = variant_of(e);
  if (!impl.empty() && impl != "ref") return impl + variant;
  const std::string protocol = str(e, "protocol");
  return str(e, "backend") + ":" + str(e, "path") +
         (str(e, "provider").empty() ? "" : "(" + str(e, "provider") + ")") +
         (protocol.empty() || protocol == "fewest" ? "" : " protocol=" + protocol) + variant;
}

bool is_reference(const json& e) {
  const std::string impl = str(e, "impl");
  return impl.empty() || impl == "ref";
}

// On one host's shared memory: the reference's shm backend or an MPI library's ranks.
bool on_shared_memory(const json& e) {
  return str(e, "backend") == "shm" || str(e, "backend") == "mpi";
}

// Whether an entry is the one to show: the median of repetitions where there are some.
bool shown(const json& e) {
  return str(e, "run_type") != "aggregate" || str(e, "aggregate_name") == "median";
}

// Display width of UTF-8 text (the dash is one column, three bytes).
std::size_t width(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string pad_left(const std::string& s, std::size_t w) {
  return std::string(w > width(s) ? w - width(s) : 0, ' ') + s;
}
std::string pad_right(const std::string& s, std::size_t w) {
  return s + std::string(w > width(s) ? w - width(s) : 0, ' ');
}

// A column group (one implementation, or the floor) with its sub-columns.
struct Group {
  std::string label;
  std::vector<std::string> heads;
};

void print_grid(const std::vector<Group>& groups, const std::vector<std::vector<std::string>>& rows,
                std::ostream& out) {
  std::vector<std::size_t> w;
  for (const auto& g : groups)
    for (const auto& h : g.heads) w.push_back(width(h));
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], width(r[i]));
  // A group's label must fit over its columns: widen its last column where it does not.
  std::size_t col = 0;
  for (const auto& g : groups) {
    std::size_t span = 0;
    for (std::size_t k = 0; k < g.heads.size(); ++k) span += w[col + k] + (k ? 2 : 0);
    if (width(g.label) > span) w[col + g.heads.size() - 1] += width(g.label) - span;
    col += g.heads.size();
  }
  std::string line1 = "# ", line2 = "# ";
  col = 0;
  for (std::size_t gi = 0; gi < groups.size(); ++gi) {
    const auto& g = groups[gi];
    std::size_t span = 0;
    for (std::size_t k = 0; k < g.heads.size(); ++k) {
      span += w[col + k] + (k ? 2 : 0);
      const std::string& h = g.heads[k];
      line2 +=
          (gi || k ? "  " : "") + (gi == 0 ? pad_right(h, w[col + k]) : pad_left(h, w[col + k]));
    }
    line1 += (gi ? "  " : "") + (gi == 0 ? pad_right(g.label, span) : pad_left(g.label, span));
    col += g.heads.size();
  }
  while (!line1.empty() && line1.back() == ' ') line1.pop_back();
  out << line1 << "\n" << line2 << "\n";
  for (const auto& r : rows) {
    std::string line = "  ";
    for (std::size_t i = 0; i < r.size(); ++i)
      line += (i ? "  " : "") + (i == 0 ? pad_right(r[i], w[i]) : pad_left(r[i], w[i]));
    out << line << "\n";
  }
}

// The floor of the run (worker/floor_bench.hpp): the cache-line round trip, the shm queue's
// round trip, and memcpy and the handoff round trip by size.
struct Floor {
  std::optional<double> round_trip_us;
  std::optional<double> queue_us;
  std::map<std::uint64_t, double> memcpy_us, memcpy_mbps, handoff_us;
};

Floor floor_of(const json& benchmarks) {
  Floor f;
  for (const auto& e : benchmarks) {
    if (!e.is_object() || str(e, "pattern") != kFloorPatternName || !shown(e)) continue;
    const bool median = str(e, "run_type") == "aggregate";
    const auto size = static_cast<std::uint64_t>(num(e, "size"));
    if (str(e, "op") == "cache_line_round_trip") {
      if (median || !f.round_trip_us) f.round_trip_us = microseconds(e);
    } else if (str(e, "op") == "queue_round_trip") {
      if (median || !f.queue_us) f.queue_us = microseconds(e);
    } else if (str(e, "op") == "memcpy") {
      if (median || !f.memcpy_us.count(size)) {
        f.memcpy_us[size] = microseconds(e);
        f.memcpy_mbps[size] = num(e, "bytes_per_second") / 1e6;
      }
    } else if (str(e, "op") == "handoff") {
      if (median || !f.handoff_us.count(size)) f.handoff_us[size] = microseconds(e);
    }
  }
  return f;
}

// A figure's ratio to the floor's figure of its size; a dash where either is missing.
std::string ratio_at(std::optional<double> v, const std::map<std::uint64_t, double>& by_size,
                     std::uint64_t size) {
  const auto f = by_size.find(size);
  return v && f != by_size.end() ? ratio_text(*v, f->second) : "—";
}

// The floor's figure of a size, or a dash.
std::string floor_at(const std::map<std::uint64_t, double>& by_size, std::uint64_t size,
                     int digits) {
  const auto f = by_size.find(size);
  return f != by_size.end() ? fixed(f->second, digits) : "—";
}

}  // namespace

void write_bench_table(const json& benchmarks, std::ostream& out) {
  // One table per pattern, op, sync mode, target mode, metric and rank count; a column group
  // per implementation (backend:path on the reference), in the order they ran.
  using Key = std::tuple<std::string, std::string, std::string, std::string, std::string, int>;
  struct Table {
    std::vector<std::string> columns;
    std::map<std::string, bool> reference, shared_memory, measured;
    std::map<std::string, bool> queued;      // the reference's shm am path: read against the queue
    std::map<std::string, bool> calibrated;  // MPI columns with a plain-C figure
    std::map<std::uint64_t, std::map<std::string, Cell>> rows;
    bool interleaved = false;  // some columns' repetitions ran interleaved in one launch
    std::map<std::string, bool>
        raw_floor;  // off shm: the column's figures carry their raw round trip
  };
  std::vector<Key> order;
  std::map<Key, Table> tables;
  Range own;    // the shm figures' own cache-line round trips
  Range raw;    // the same off shm: raw send/recv round trips
  Range queue;  // the shm queue's round trips measured with `own`
  for (const auto& e : benchmarks) {
    if (!e.is_object() || !shown(e) || str(e, "pattern") == kFloorPatternName) continue;
    const Key k{str(e, "pattern"), str(e, "op"),     str(e, "sync"),
                str(e, "target"),  str(e, "metric"), static_cast<int>(num(e, "ranks"))};
    auto [it, added] = tables.try_emplace(k);
    if (added) order.push_back(k);
    Table& t = it->second;
    // A calibration stands beside its replay, whose column names the variant too.
    const std::string col =
        is_calibration(e) ? str(e, "replayed_impl") + variant_of(e) : column_of(e);
    if (is_calibration(e)) {
      if (std::find(t.columns.begin(), t.columns.end(), col) == t.columns.end()) continue;
      Cell& cell = t.rows[static_cast<std::uint64_t>(num(e, "size"))][col];
      take_calibration(e, cell);
      // Columns only where some figure has a plain-C time; reasons alone are a line below.
      if (cell.plain_c_us) t.calibrated[col] = true;
      continue;
    }
    if (auto it_i = e.find("interleaved"); it_i != e.end() && it_i->is_boolean() && *it_i)
      t.interleaved = true;
    if (std::find(t.columns.begin(), t.columns.end(), col) == t.columns.end()) {
      t.columns.push_back(col);
      t.reference[col] = is_reference(e);
      t.shared_memory[col] = on_shared_memory(e);
      t.queued[col] = is_reference(e) && str(e, "backend") == "shm" && str(e, "path") == "am";
    }
    const auto size = static_cast<std::uint64_t>(num(e, "size"));
    Cell& c = t.rows[size][col];
    const bool median = str(e, "run_type") == "aggregate";
    if (str(e, "run_type") == "iteration") {
      c.reps.add(microseconds(e));
    }
    if (c.from_median && !median) continue;
    c.latency_us = microseconds(e);
    c.mbps = num(e, "bytes_per_second") / 1e6;
    c.msgs = opt_num(e, "messages_per_iteration");
    if (c.msgs) t.measured[col] = true;
    c.expected = opt_num(e, "messages_expected");
    c.floor_rt_us = opt_num(e, "floor_round_trip_us");
    c.queue_rt_us = opt_num(e, "queue_round_trip_us");
    if (c.queue_rt_us) queue.add(*c.queue_rt_us);
    if (c.floor_rt_us && t.shared_memory[col]) {
      own.add(*c.floor_rt_us);
    } else if (c.floor_rt_us && str(e, "metric") != "bandwidth") {
      t.raw_floor[col] = true;
      raw.add(*c.floor_rt_us);
    }
    c.from_median = median;
  }

  const Floor floor = floor_of(benchmarks);
  if (floor.round_trip_us && !own.lo)
    out << "# floor, this run: cache-line round trip between the ranks' cores "
        << fixed(*floor.round_trip_us, 3)
        << " us (the shm tables read every figure against it)\n\n";
  if (own.lo) {
    out << "# floor: cache-line round trip between the ranks' cores, measured just before each "
           "reference figure: "
        << own.text() << " us; each xrt reads its figure against its own";
    if (floor.round_trip_us)
      out << " (the run's floor case: " << fixed(*floor.round_trip_us, 3) << " us)";
    out << "\n";
    if (queue.lo) {
      out << "# queue: an 8-byte packet each way through the shm transport's queue, no engine, "
             "measured with each floor: "
          << queue.text() << " us; each xq reads an am figure against its own";
      if (floor.queue_us) out << " (the floor case: " << fixed(*floor.queue_us, 3) << " us)";
      out << "\n";
    }
    if (own.changed())
      out << "# the floor moved during this run: the host placed the two virtual cores "
             "differently between figures; compare figures through their xrt, not their us\n";
    out << "\n";
  }
  if (raw.lo) {
    out << "# floor off shared memory: raw send/recv round trip of 8 bytes between ranks 0 and 1 "
           "on the case's own transport, measured just before each reference figure: "
        << raw.text() << " us; each xrt reads its figure against its own\n";
    if (raw.changed())
      out << "# the raw round trip moved during this run; compare figures through their xrt\n";
    out << "\n";
  }

  for (const Key& k : order) {
    const Table& t = tables.at(k);
    const auto& [pattern, op, sync, target, metric, ranks] = k;
    const bool bw = metric == "bandwidth";
    // The baseline: the first reference column, else the first column.
    std::string base = t.columns.front();
    for (const auto& c : t.columns)
      if (t.reference.at(c)) {
        base = c;
        break;
      }
    bool shm = false;
    for (const auto& c : t.columns) shm |= t.shared_memory.at(c);
    const bool with_floor = shm && (bw ? !floor.memcpy_mbps.empty()
                                       : floor.round_trip_us.has_value() || own.lo.has_value());
    // A latency is also read against the queue (am path), a memcpy of its size and (am path)
    // a handoff round trip of its size.
    const bool with_queue = with_floor && !bw && (floor.queue_us || queue.lo);
    const bool with_memcpy = with_floor && !bw && !floor.memcpy_us.empty();
    const bool with_handoff = with_floor && !bw && !floor.handoff_us.empty();
    auto queue_read = [&](const std::string& c) { return with_queue && t.queued.at(c); };
    auto memcpy_read = [&](const std::string& c) { return with_memcpy && t.reference.at(c); };
    auto handoff_read = [&](const std::string& c) { return with_handoff && t.queued.at(c); };
    // Off shared memory a latency column is read against the raw round trip its figures
    // carry (no floor columns: the round trip differs per figure, not per run).
    auto raw_xrt = [&](const std::string& c) { return !bw && t.raw_floor.count(c) != 0; };
    bool any_raw = false;
    for (const auto& c : t.columns) any_raw |= raw_xrt(c);

    out << "# " << pattern;
    if (!op.empty() && op != "script") out << "  op=" << op;
    out << "  sync=" << sync << "  ranks=" << ranks;
    if (target == "compute") out << "  target computing";
    if (target == "recv") out << "  target in recv";
    out << "  " << (bw ? "bandwidth (MB/s)" : "latency (us)");
    if (t.columns.size() > 1)
      out << "; x"
          << "ref: ratio to " << base;
    if (t.interleaved) out << " (protocols interleaved in one launch)";
    if (with_floor || any_raw)
      out << "; "
          << (bw ? "xmemcpy: ratio to a memcpy of the size"
                 : "xrt: ratio to the floor's round trip");
    if (with_queue) out << "; xq: to the queue's round trip";
    if (with_memcpy) out << "; xmc: to a memcpy of the size";
    if (std::any_of(t.columns.begin(), t.columns.end(), handoff_read))
      out << "; xho: to a round trip carrying the size through shared memory";
    if (!t.calibrated.empty())
      out << "; C us: the same loop in plain C with that MPI, its repetitions interleaved with "
             "the replay's in one launch; xC: the replay's ratio to it";
    out << "\n";

    std::vector<Group> groups{{"", {"Size"}}};
    for (const auto& c : t.columns) {
      Group g{c, {bw ? "MB/s" : "us"}};
      if (t.columns.size() > 1 && c != base) g.heads.push_back("xref");
      if (with_floor && t.shared_memory.at(c))
        g.heads.push_back(bw ? "xmemcpy" : "xrt");
      else if (raw_xrt(c))
        g.heads.push_back("xrt");
      if (queue_read(c)) g.heads.push_back("xq");
      if (memcpy_read(c)) g.heads.push_back("xmc");
      if (handoff_read(c)) g.heads.push_back("xho");
      if (t.measured.count(c)) g.heads.push_back("msgs/iter");
      if (t.calibrated.count(c)) g.heads.insert(g.heads.end(), {"C us", "xC"});
      groups.push_back(std::move(g));
    }
    if (with_floor) {
      Group g{"floor", {}};
      if (!bw) g.heads.push_back("rt us");
      if (with_queue) g.heads.push_back("q us");
      g.heads.push_back(bw ? "memcpy MB/s" : "memcpy us");
      if (with_handoff) g.heads.push_back("ho us");
      groups.push_back(std::move(g));
    }

    std::vector<std::vector<std::string>> rows;
    for (const auto& [size, cells] : t.rows) {
      std::vector<std::string> r{std::to_string(size)};
      const auto base_it = cells.find(base);
      const std::optional<double> base_v =
          base_it == cells.end()
              ? std::nullopt
              : std::optional<double>(bw ? base_it->second.mbps : base_it->second.latency_us);
      for (const auto& col : t.columns) {
        const auto it = cells.find(col);
        const bool has = it != cells.end();
        const double v = has ? (bw ? it->second.mbps : it->second.latency_us) : 0;
        const std::optional<double> figure = has ? std::optional<double>(v) : std::nullopt;
        r.push_back(has ? fixed(v, bw ? 1 : 3) : "—");
        if (t.columns.size() > 1 && col != base)
          r.push_back(has && base_v ? ratio_text(v, *base_v) : "—");
        if (with_floor && t.shared_memory.at(col)) {
          if (!has)
            r.push_back("—");
          else if (bw)
            r.push_back(ratio_at(figure, floor.memcpy_mbps, size));
          else if (it->second.floor_rt_us || floor.round_trip_us)
            r.push_back(
                ratio_text(v, it->second.floor_rt_us.value_or(floor.round_trip_us.value_or(0))));
          else
            r.push_back("—");
        } else if (raw_xrt(col)) {
          r.push_back(has && it->second.floor_rt_us ? ratio_text(v, *it->second.floor_rt_us) : "—");
        }
        if (queue_read(col)) {
          const std::optional<double> q =
              has && it->second.queue_rt_us ? it->second.queue_rt_us : floor.queue_us;
          r.push_back(has && q ? ratio_text(v, *q) : "—");
        }
        if (memcpy_read(col)) r.push_back(ratio_at(figure, floor.memcpy_us, size));
        if (handoff_read(col)) r.push_back(ratio_at(figure, floor.handoff_us, size));
        if (t.measured.count(col)) {
          std::string m = "—";
          if (has && it->second.msgs) {
            std::ostringstream o;
            o << std::setprecision(4) << *it->second.msgs;
            if (it->second.expected && *it->second.msgs != *it->second.expected)
              o << " (expected " << *it->second.expected << ")";
            m = o.str();
          }
          r.push_back(m);
        }
        if (t.calibrated.count(col)) {
          const bool c_has = has && it->second.plain_c_us;
          r.push_back(c_has ? fixed(*it->second.plain_c_us, 3) : "—");
          r.push_back(c_has ? ratio_text(v, *it->second.plain_c_us) : "—");
        }
      }
      if (with_floor) {
        if (!bw) r.push_back(floor.round_trip_us ? fixed(*floor.round_trip_us, 3) : "—");
        if (with_queue) r.push_back(floor.queue_us ? fixed(*floor.queue_us, 3) : "—");
        r.push_back(bw ? floor_at(floor.memcpy_mbps, size, 1) : floor_at(floor.memcpy_us, size, 3));
        if (with_handoff) r.push_back(floor_at(floor.handoff_us, size, 3));
      }
      rows.push_back(std::move(r));
    }
    print_grid(groups, rows, out);
    // Said under the table it concerns: a ratio read from such a figure compares two states
    // of the machine (interleaved figures share them only as far as the random order does).
    for (const auto& [size, cells] : t.rows)
      for (const auto& col : t.columns) {
        const auto it = cells.find(col);
        if (it == cells.end() || !it->second.reps.changed()) continue;
        const Range& r = it->second.reps;
        out << "# " << col << ", size " << size << ": repetitions spread " << r.text() << " us ("
            << ratio_text(*r.hi, *r.lo)
            << "): the machine changed during the figure; its ratios say little\n";
      }
    // Why figures have no plain-C time, each reason once with the figures it concerns.
    std::map<std::string, std::vector<std::string>> why;
    for (const auto& [size, cells] : t.rows)
      for (const auto& [col, cell] : cells)
        if (!cell.plain_c_us && !cell.plain_c_why.empty())
          why[cell.plain_c_why].push_back(col + " " + std::to_string(size));
    for (const auto& [reason, figures] : why) {
      out << "# no plain-C figure (";
      for (std::size_t i = 0; i < figures.size(); ++i) out << (i ? ", " : "") << figures[i];
      out << "): " << reason << "\n";
    }
    out << "\n";
  }
}

}  // namespace reports
