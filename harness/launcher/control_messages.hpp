// control_messages.hpp — the messages of the control channel (control.hpp), one type each,
// and their one codec: the JSON form of a message is written and read only here.
//
//   rank -> parent: Hello, Log, Figures, BatchDone, Result, State, Signal, Bye
//   parent -> rank: CaseMessage, StateQuery, StopCompute
//   agent -> job's rank 0 (pmix_agent.hpp): Hello, RankExited
//   job's rank 0 -> agent: StartRank, StopRank, Sweep, Quit
//
// A line the parent cannot parse arrives as Garbage, an object of no known type as Unknown:
// the parent reports either as the case's failure. Results and states keep their bodies as
// JSON: their fields are the rank-result and state-board formats (rank_results.hpp,
// worker/state_board.hpp), read where they are merged.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "launcher/host_identity.hpp"
#include "suite/case_spec.hpp"

namespace harness::launcher {

struct Hello {
  int rank = -1;
  long pid = -1;
  std::string token;  // the case's, on a socket others could reach; "" on the fork's pair
  std::string impl;   // an MPI rank names its library with the version ("mpich 4.0.2")
  HostIdentity host;
};
struct CaseMessage {
  suite::CaseSpec spec;
};
struct Log {
  std::string text;
};
struct Figures {
  nlohmann::json benchmarks = nlohmann::json::array();  // Google Benchmark entries
};
struct BatchDone {
  std::uint64_t batch = 0;  // a truly-passive benchmark's origin ended this batch
};
struct StopCompute {
  std::uint64_t batch = 0;
};
struct Result {
  nlohmann::json body = nlohmann::json::object();  // rank_results.hpp's fields
  bool early() const { return body.value("early", false); }
};
struct State {
  nlohmann::json body = nlohmann::json::object();  // worker/state_board.hpp's snapshot
};
struct Signal {
  int signal = 0;  // the fatal signal an MPI rank is dying of (mpi/mpi_rank.hpp)
};
struct Bye {};
struct StateQuery {};
// A PMIx job's rank 0 asks the agent on a task to start rank `rank` of a case of `size`
// ranks, whose hello must carry `token`.
struct StartRank {
  int rank = -1;
  int size = 0;
  std::string token;
};
struct StopRank {
  int rank = -1;
};
// The agent's word on how a rank it started ended: its exit code or signal, or why it could
// not start (`error`).
struct RankExited {
  int rank = -1;
  int exit_code = 0;
  int signal = 0;
  std::string error;
};
// Remove the shared segments named after a case's prefix on the agent's host.
struct Sweep {
  std::string prefix;
};
struct Quit {};
struct Garbage {
  std::string line;
};
struct Unknown {
  nlohmann::json raw;
};

using Message =
    std::variant<Hello, CaseMessage, Log, Figures, BatchDone, StopCompute, Result, State, Signal,
                 Bye, StateQuery, StartRank, StopRank, RankExited, Sweep, Quit, Garbage, Unknown>;

nlohmann::json encode(const Message& m);
// Never throws: what is not a well-formed known message is Unknown.
Message decode(const nlohmann::json& j);
Message decode_line(const std::string& line);  // a line that is not JSON is Garbage

// The result of a rank that ends early with an error before its script ran (no runtime, no
// MPI_Init): `where` and `message` become its one failure.
Result error_result(int rank, const std::string& where, const std::string& message);

// The line a PMIx job's agent writes first on a rank's bootstrap socket (pmix_agent.hpp),
// which carries no messages of its own: whose socket it is. Without its newline.
std::string bootstrap_greeting(const std::string& token, int rank);
struct BootstrapGreeting {
  std::string token;
  int rank = -1;
};
// nullopt: the line is no greeting (then it is a control channel's first message).
std::optional<BootstrapGreeting> read_bootstrap_greeting(const std::string& line);

// The Signal line, written from a signal handler: no allocation, one buffer. Returns its
// length (at most 64 bytes with the newline).
std::size_t signal_line(int sig, char (&out)[64]);

}  // namespace harness::launcher
