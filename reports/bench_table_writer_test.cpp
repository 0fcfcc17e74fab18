#include "reports/bench_table_writer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace reports {
namespace {

using nlohmann::json;

json entry(const std::string& impl, const std::string& backend, const std::string& path,
           std::uint64_t size, double us, json msgs) {
  return {{"name", "bench/latency/lock/" + std::to_string(size) + "/" + backend + ":" + path},
          {"run_type", "iteration"},
          {"real_time", us},
          {"time_unit", "us"},
          {"pattern", "bench/latency"},
          {"op", "put"},
          {"sync", "lock"},
          {"size", size},
          {"metric", "latency"},
          {"target", "wait"},
          {"backend", backend},
          {"path", path},
          {"provider", ""},
          {"ranks", 2},
          {"impl", impl},
          {"messages_per_iteration", msgs},
          {"messages_expected", 2}};
}

json floor_entry(const std::string& op, std::uint64_t size, double us) {
  return {{"name", "floor/" + op},
          {"run_type", "iteration"},
          {"real_time", us},
          {"time_unit", "us"},
          {"pattern", "floor"},
          {"op", op},
          {"sync", op},
          {"size", size},
          {"metric", "latency"},
          {"backend", "shm"},
          {"path", "floor"},
          {"ranks", 2},
          {"impl", "hardware"},
          {"bytes_per_second", 1e9}};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The cells of a grid line, its heads or a row: two spaces or more part them, none is inside
// one ("rt us", "2 (expected 3)").
std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t at = line.find_first_not_of(' ', 2);
  while (at != std::string::npos) {
    const std::size_t end = line.find("  ", at);
    cells.push_back(line.substr(at, end == std::string::npos ? end : end - at));
    at = end == std::string::npos ? end : line.find_first_not_of(' ', end);
  }
  return cells;
}

std::string table_of(const json& benchmarks) {
  std::ostringstream out;
  write_bench_table(benchmarks, out);
  return out.str();
}

TEST(BenchTable, BothAmProtocolsAreColumnsOfOneTable) {
  json b = json::array();
  json fewest = entry("ref", "shm", "am", 8, 1.0, 1);
  fewest["protocol"] = "fewest";
  json ch3 = entry("ref", "shm", "am", 8, 2.0, 2);
  ch3["protocol"] = "ch3";
  ch3["name"] = "bench/latency/lock/8/shm:am/protocol:ch3";
  b.push_back(fewest);
  b.push_back(ch3);
  const std::string text = table_of(b);
  const auto lines = lines_of(text);
  std::string groups, row;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i)
    if (lines[i].rfind("# bench/latency", 0) == 0) groups = lines[i + 1];
  for (const auto& l : lines)
    if (l.rfind("  8 ", 0) == 0) row = l;
  const auto a = groups.find("shm:am"), c = groups.find("shm:am protocol=ch3");
  ASSERT_NE(a, std::string::npos) << text;
  ASSERT_NE(c, std::string::npos) << text;
  EXPECT_LT(a, c) << text;
  EXPECT_NE(row.find("2.00x"), std::string::npos) << text;  // ch3 read against the default
}

// Repetitions that spread more than 1.5x are named under the table, the figure and the
// range; a figure whose repetitions agree is not; the header says interleaved figures are.
TEST(BenchTable, AFigureWhoseRepetitionsSpreadIsNamedAndInterleavingIsSaid) {
  json b = json::array();
  for (double us : {0.34, 0.35, 0.73}) {
    json e = entry("ref", "shm", "am", 8, us, 2);
    e["protocol"] = "fewest";
    e["interleaved"] = true;
    b.push_back(e);
  }
  for (double us : {0.34, 0.35, 0.36}) {
    json e = entry("ref", "shm", "am", 8, us, 2);
    e["protocol"] = "ch3";
    e["interleaved"] = true;
    e["name"] = "bench/latency/lock/8/shm:am/protocol:ch3";
    b.push_back(e);
  }
  const std::string text = table_of(b);
  EXPECT_NE(text.find("(protocols interleaved in one launch)"), std::string::npos) << text;
  EXPECT_NE(text.find("# shm:am, size 8: repetitions spread 0.340-0.730 us (2.15x)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("# shm:am protocol=ch3, size 8: repetitions spread"), std::string::npos)
      << text;
  // Agreeing repetitions, not interleaved: neither line.
  const std::string calm = table_of(
      json::array({entry("ref", "shm", "am", 8, 0.34, 2), entry("ref", "shm", "am", 8, 0.36, 2)}));
  EXPECT_EQ(calm.find("repetitions spread"), std::string::npos) << calm;
  EXPECT_EQ(calm.find("interleaved"), std::string::npos) << calm;
}

// Off shared memory a figure that carries the raw round trip measured just before it gets an
// xrt against that round trip, and the console names the range; no floor columns.
TEST(BenchTable, AFabricFigureIsReadAgainstItsOwnRawRoundTrip) {
  json fabric = entry("ref", "fabric", "am", 8, 24.0, 2);
  fabric["floor_round_trip_us"] = 16.0;
  const std::string text = table_of(json::array({fabric}));
  EXPECT_NE(text.find("# floor off shared memory: raw send/recv round trip of 8 bytes"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("16.000 us; each xrt reads its figure against its own"), std::string::npos)
      << text;
  EXPECT_NE(text.find("xrt: ratio to the floor's round trip"), std::string::npos) << text;
  bool row = false;
  for (const auto& l : lines_of(text))
    if (l.rfind("  8 ", 0) == 0) {
      row = true;
      EXPECT_NE(l.find("1.50x"), std::string::npos) << l;  // 24 us over its 16 us round trip
    }
  EXPECT_TRUE(row) << text;
  EXPECT_EQ(text.find("rt us"), std::string::npos) << text;  // no floor column group
  // Without the field: no xrt, no floor line.
  const std::string bare = table_of(json::array({entry("ref", "fabric", "am", 8, 24.0, 2)}));
  EXPECT_EQ(bare.find("xrt"), std::string::npos) << bare;
  EXPECT_EQ(bare.find("# floor"), std::string::npos) << bare;
}

TEST(BenchTable, ImplementationsOfOnePatternShareOneTable) {
  json b = json::array();
  for (std::uint64_t size : {8, 4096}) {
    b.push_back(entry("ref", "shm", "am", size, 1.0, 2));
    b.push_back(entry("mpich 4.0.2", "mpi", "mpich", size, 3.0, nullptr));
    b.push_back(entry("openmpi 4.1.4 osc=sm", "mpi", "openmpi", size, 0.5, nullptr));
  }
  const std::string text = table_of(b);
  const auto lines = lines_of(text);
  int titles = 0, rows = 0;
  std::string groups;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("# bench/latency", 0) == 0) {
      ++titles;
      ASSERT_LT(i + 1, lines.size());
      groups = lines[i + 1];
    }
    if (lines[i].rfind("  8 ", 0) == 0 || lines[i].rfind("  4096 ", 0) == 0) ++rows;
  }
  EXPECT_EQ(titles, 1) << text;
  EXPECT_EQ(rows, 2) << text;  // one row per size, every implementation in it
  // Column groups in the order the implementations ran.
  const auto ref = groups.find("shm:am"), mpich = groups.find("mpich 4.0.2"),
             ompi = groups.find("openmpi 4.1.4 osc=sm");
  ASSERT_NE(ref, std::string::npos) << text;
  ASSERT_NE(mpich, std::string::npos) << text;
  ASSERT_NE(ompi, std::string::npos) << text;
  EXPECT_LT(ref, mpich);
  EXPECT_LT(mpich, ompi);
  // Ratios against the reference, in the same row.
  EXPECT_NE(text.find("ratio to shm:am"), std::string::npos) << text;
  for (const auto& l : lines)
    if (l.rfind("  8 ", 0) == 0) {
      EXPECT_NE(l.find("3.00x"), std::string::npos) << l;
      EXPECT_NE(l.find("0.50x"), std::string::npos) << l;
    }
}

TEST(BenchTable, UnobservableMessagesAreNeverPrintedAsZero) {
  json b = json::array({entry("ref", "shm", "am", 8, 1.0, 2),
                        entry("mpich 4.0.2", "mpi", "mpich", 8, 3.0, nullptr)});
  const std::string text = table_of(b);
  // Only the reference's group has a msgs/iter column: one header, and its value.
  EXPECT_EQ(text.find("msgs/iter"), text.rfind("msgs/iter")) << text;
  json only_mpi = json::array({entry("mpich 4.0.2", "mpi", "mpich", 8, 3.0, nullptr)});
  const std::string mpi_text = table_of(only_mpi);
  EXPECT_EQ(mpi_text.find("msgs/iter"), std::string::npos) << mpi_text;
  EXPECT_EQ(mpi_text.find(" 0 "), std::string::npos) << mpi_text;
}

TEST(BenchTable, SharedMemoryTablesReadFiguresAgainstTheFloor) {
  json b =
      json::array({entry("ref", "shm", "am", 8, 1.0, 2), entry("ref", "fabric", "am", 8, 20.0, 2),
                   floor_entry("cache_line_round_trip", 64, 0.25), floor_entry("memcpy", 8, 0.01)});
  b[1]["sync"] = "flush";  // a table of its own, on fabric only
  const std::string text = table_of(b);
  EXPECT_NE(text.find("# floor, this run: cache-line round trip"), std::string::npos) << text;
  EXPECT_EQ(text.find("# floor  "), std::string::npos) << text;  // no table of the floor itself
  for (const auto& l : lines_of(text)) {
    if (l.rfind("  8 ", 0) != 0) continue;
    if (l.find("1.000") != std::string::npos) {
      EXPECT_NE(l.find("4.00x"), std::string::npos) << l;  // 1.0 us over a 0.25 us round trip
      EXPECT_NE(l.find("0.250"), std::string::npos) << l;
    } else {
      EXPECT_EQ(l.find("0.250"), std::string::npos) << l;  // fabric: its own round trip instead
    }
  }
}

// A reference figure that carries the round trip measured just before it is read against that
// one, not the run's floor case (taken at the end, possibly under another placement of the two
// cores); a run whose own floors spread says the floor moved.
TEST(BenchTable, AFigureIsReadAgainstTheRoundTripMeasuredJustBeforeIt) {
  json am = entry("ref", "shm", "am", 8, 1.0, 2);
  am["floor_round_trip_us"] = 0.5;
  json direct = entry("ref", "shm", "direct", 8, 0.2, 0);
  direct["floor_round_trip_us"] = 0.05;
  json b = json::array(
      {am, direct, floor_entry("cache_line_round_trip", 64, 0.25), floor_entry("memcpy", 8, 0.01)});
  const std::string text = table_of(b);
  EXPECT_NE(text.find("measured just before each reference figure: 0.050-0.500 us"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("the run's floor case: 0.250 us"), std::string::npos) << text;
  EXPECT_NE(text.find("the floor moved during this run"), std::string::npos) << text;
  bool row = false;
  for (const auto& l : lines_of(text)) {
    if (l.rfind("  8 ", 0) != 0) continue;
    row = true;
    EXPECT_NE(l.find("2.00x"), std::string::npos) << l;  // am: 1.0 us over its own 0.5
    EXPECT_NE(l.find("4.00x"), std::string::npos) << l;  // direct: 0.2 us over its own 0.05
    EXPECT_EQ(l.find("0.80x"), std::string::npos) << l;  // not 0.2 over the run's 0.25
  }
  EXPECT_TRUE(row) << text;

  // Own floors that agree: no warning.
  b[1]["floor_round_trip_us"] = 0.45;
  EXPECT_EQ(table_of(b).find("the floor moved"), std::string::npos);
}

// The am path is also read against the shm queue's round trip measured with its floor (xq),
// the direct path is not (it sends no packet); every reference latency is read against a
// memcpy of its size (xmc), and the floor group shows the run's queue round trip.
TEST(BenchTable, AnAmFigureIsReadAgainstTheQueueAndEveryFigureAgainstMemcpy) {
  json am = entry("ref", "shm", "am", 65536, 3.0, 3);
  am["floor_round_trip_us"] = 0.5;
  am["queue_round_trip_us"] = 0.6;
  json direct = entry("ref", "shm", "direct", 65536, 1.5, 0);
  direct["floor_round_trip_us"] = 0.5;
  direct["queue_round_trip_us"] = 0.6;
  const json b =
      json::array({am, direct, floor_entry("cache_line_round_trip", 64, 0.4),
                   floor_entry("queue_round_trip", 8, 0.7), floor_entry("memcpy", 65536, 1.2)});
  const std::string text = table_of(b);
  EXPECT_NE(text.find("measured with each floor: 0.600 us"), std::string::npos) << text;
  EXPECT_NE(text.find("(the floor case: 0.700 us)"), std::string::npos) << text;
  const std::vector<std::string> lines = lines_of(text);
  bool row = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("  65536 ", 0) != 0) continue;
    row = true;
    // The heads: xq once (am only), xmc twice, the floor's q us.
    const std::string& heads = lines[i - 1];
    EXPECT_EQ(heads.find(" xq "), heads.rfind(" xq ")) << heads;
    EXPECT_NE(heads.find(" xmc "), heads.rfind(" xmc ")) << heads;
    EXPECT_NE(heads.find("q us"), std::string::npos) << heads;
    EXPECT_NE(lines[i].find("5.00x"), std::string::npos) << lines[i];  // am: 3.0 over its 0.6
    EXPECT_NE(lines[i].find("2.50x"), std::string::npos) << lines[i];  // am: 3.0 over 1.2 memcpy
    EXPECT_NE(lines[i].find("1.25x"), std::string::npos) << lines[i];  // direct: 1.5 over 1.2
    EXPECT_NE(lines[i].find("0.700"), std::string::npos) << lines[i];  // the floor case's queue
  }
  EXPECT_TRUE(row) << text;
}

// The am path is also read against the handoff round trip of its size (xho, after xmc), the
// direct path is not (it sends no packet); the floor group shows the handoff as ho us, a dash
// at a size the floor has none of. Bandwidth tables, and runs without handoff entries, have
// neither column.
TEST(BenchTable, AnAmFigureIsReadAgainstTheHandoffOfItsSize) {
  json bw = entry("ref", "shm", "am", 1048576, 30.0, 3);
  bw["metric"] = "bandwidth";
  bw["bytes_per_second"] = 3.5e10;
  const json b = json::array(
      {entry("ref", "shm", "am", 8, 1.0, 2), entry("ref", "shm", "am", 65536, 3.0, 3),
       entry("ref", "shm", "direct", 8, 0.2, 0), entry("ref", "shm", "direct", 65536, 1.5, 0), bw,
       floor_entry("cache_line_round_trip", 64, 0.25), floor_entry("memcpy", 8, 0.01),
       floor_entry("memcpy", 65536, 1.2), floor_entry("memcpy", 1048576, 25.0),
       floor_entry("handoff", 65536, 6.0), floor_entry("handoff", 1048576, 60.0)});
  const std::string text = table_of(b);
  EXPECT_NE(text.find("; xho: to a round trip carrying the size through shared memory"),
            std::string::npos)
      << text;
  const std::vector<std::string> lines = lines_of(text);
  int rows = 0;
  std::vector<std::string> heads;  // of the table the row is in
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("# Size ", 0) == 0) heads = cells_of(lines[i]);
    const std::vector<std::string> cells = cells_of(lines[i]);
    const auto head = [&](const std::string& h) {
      return std::find(heads.begin(), heads.end(), h) - heads.begin();
    };
    if (lines[i].rfind("  1048576 ", 0) == 0) {  // the bandwidth table
      ++rows;
      EXPECT_EQ(head("xho"), heads.end() - heads.begin()) << lines[i];
      EXPECT_EQ(head("ho us"), heads.end() - heads.begin()) << lines[i];
      continue;
    }
    const bool at_8 = lines[i].rfind("  8 ", 0) == 0;
    if (!at_8 && lines[i].rfind("  65536 ", 0) != 0) continue;
    ++rows;
    ASSERT_EQ(heads.size(), cells.size()) << lines[i];
    // One xho (am only), just after the am group's xmc; ho us just after memcpy us.
    EXPECT_EQ(std::count(heads.begin(), heads.end(), "xho"), 1) << lines[i];
    EXPECT_EQ(head("xho"), head("xmc") + 1) << lines[i];
    EXPECT_EQ(head("ho us"), head("memcpy us") + 1) << lines[i];
    ASSERT_LT(head("ho us"), static_cast<std::ptrdiff_t>(cells.size())) << lines[i];
    EXPECT_EQ(cells[head("xho")], at_8 ? "—" : "0.50x") << lines[i];  // am: 3.0 over 6.0
    EXPECT_EQ(cells[head("ho us")], at_8 ? "—" : "6.000") << lines[i];
  }
  EXPECT_EQ(rows, 3) << text;

  json without = json::array();
  for (const auto& e : b)
    if (e["op"] != "handoff") without.push_back(e);
  const std::string plain = table_of(without);
  EXPECT_EQ(plain.find("ho us"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("xho"), std::string::npos) << plain;
}

// An MPI's plain-C calibration is no column of its own: beside that MPI's figure, its time
// and the replay's ratio to it; a calibration without a figure is a dash and its reason
// under the table, never a 0.
TEST(BenchTable, AnMpiFigureIsReadAgainstItsPlainCCalibration) {
  auto calibration = [](std::uint64_t size, json us) {
    json c = entry("openmpi 4.1.4 osc=sm plain C", "mpi", "openmpi", size,
                   us.is_null() ? 0.0 : us.get<double>(), nullptr);
    c["name"] = "bench/latency/lock/" + std::to_string(size) + "/mpi:openmpi:osc=sm/plain_c";
    c["calibration"] = "plain_c";
    c["replayed_impl"] = "openmpi 4.1.4 osc=sm";
    if (us.is_null()) {
      c.erase("real_time");
      c["error_occurred"] = true;
      c["error_message"] = "no plain-C loop with the target in mode compute";
    }
    return c;
  };
  json b = json::array({entry("ref", "shm", "direct", 8, 0.2, 2),
                        entry("ref", "shm", "direct", 64, 0.3, 2),
                        entry("openmpi 4.1.4 osc=sm", "mpi", "openmpi", 8, 0.06, nullptr),
                        entry("openmpi 4.1.4 osc=sm", "mpi", "openmpi", 64, 0.07, nullptr),
                        calibration(8, 0.05), calibration(64, nullptr)});
  const std::string text = table_of(b);
  const auto lines = lines_of(text);
  std::string groups, row8, row64;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i)
    if (lines[i].rfind("# bench/latency", 0) == 0) groups = lines[i + 1];
  for (const auto& l : lines) {
    if (l.rfind("  8 ", 0) == 0) row8 = l;
    if (l.rfind("  64 ", 0) == 0) row64 = l;
  }
  EXPECT_EQ(groups.find("plain C"), std::string::npos) << text;  // no column group of its own
  std::string heads;
  for (const auto& l : lines)
    if (l.rfind("# Size", 0) == 0) heads = l;
  EXPECT_NE(heads.find("C us"), std::string::npos) << text;
  EXPECT_NE(heads.find("xC"), std::string::npos) << text;
  EXPECT_NE(row8.find("0.050"), std::string::npos) << text;
  EXPECT_NE(row8.find("1.20x"), std::string::npos) << text;  // 0.06 replayed / 0.05 plain C
  EXPECT_EQ(row64.find(" 0.000"), std::string::npos) << text;
  EXPECT_NE(text.find("# no plain-C figure (openmpi 4.1.4 osc=sm 64): no plain-C loop with the "
                      "target in mode compute"),
            std::string::npos)
      << text;
  // A table where no figure has a plain-C time gets no C columns, only the reason.
  json none = json::array({entry("openmpi 4.1.4 osc=sm", "mpi", "openmpi", 64, 0.07, nullptr),
                           calibration(64, nullptr)});
  const std::string none_text = table_of(none);
  EXPECT_EQ(none_text.find("C us"), std::string::npos) << none_text;
  EXPECT_NE(none_text.find("no plain-C figure"), std::string::npos) << none_text;
  // A variant's figure (-o dtype=long_int) keeps its reason beside its own column.
  json replayed = entry("openmpi 4.1.4 osc=sm", "mpi", "openmpi", 64, 0.07, nullptr);
  json reason = calibration(64, nullptr);
  replayed["variant"] = reason["variant"] = "dtype=long_int";
  reason["error_message"] = "no plain-C loop with dtype=long_int";
  const std::string variant_text = table_of(json::array({replayed, reason}));
  EXPECT_NE(variant_text.find("# no plain-C figure (openmpi 4.1.4 osc=sm dtype=long_int 64): "
                              "no plain-C loop with dtype=long_int"),
            std::string::npos)
      << variant_text;
}

}  // namespace
}  // namespace reports
