// rma/kv_server.hpp — the launcher's key-value service, one per job (public: the rmabench
// launcher hosts it for its ranks' bootstrap), fed by the launcher's poll loop:
// on_readable(rank) when that rank's socket has bytes.
//
// A get for a key nobody has put yet is parked until the put arrives; a fence answers every
// rank once all have entered. Protocol errors close the rank's service with a message the
// launcher reports.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "rma/status.hpp"

namespace rma::bootstrap {

class KvServer {
 public:
  explicit KvServer(int ranks);
  // `fd` is the launcher's end of rank's socket (non-blocking); the server does not own it.
  void attach(int rank, int fd);
  // Reads what is there and answers. Fails when the rank closed or misbehaved.
  Status on_readable(int rank);
  // Keys put so far (for state dumps).
  std::size_t keys() const { return kv_.size(); }
  // Ranks currently waiting in get or fence, with what they wait for.
  std::vector<std::string> waiting() const;

 private:
  void reply(int rank, const std::string& bytes);
  void handle(int rank, int kind, std::vector<std::string>& fields);

  int ranks_;
  std::vector<int> fds_;
  std::vector<std::string> inbuf_;
  std::map<std::string, std::string> kv_;
  std::multimap<std::string, int> parked_gets_;
  std::set<int> in_fence_;
};

}  // namespace rma::bootstrap
