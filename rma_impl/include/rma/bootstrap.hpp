// rma/bootstrap.hpp — how the ranks of a job find each other before any transport exists.
//
// A Bootstrap is a small key-value service shared by all ranks of a job: a rank publishes
// what its peers need (a shared segment's name, a fabric address) with put(), and reads
// theirs with get(), which waits until the key exists. Two implementations:
//
//   launcher_client(fd, rank, size)  the rmabench launcher's service, over an inherited socket
//   pmix_client()                    PMIx, when started by mpirun or srun --mpi=pmix
//
// Keys end with the publishing rank, "<topic>.<rank>" (e.g. "fabric.addr.3"): PMIx keeps
// every process's keys apart, so a reader must know whose key it wants. Publish, fence, then
// read: the launcher's service lets get() wait for a key, PMIx only promises it after a fence.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "rma/status.hpp"

namespace rma::bootstrap {

class Bootstrap {
 public:
  virtual ~Bootstrap() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Where this job's ranks run: "launcher" or "pmix".
  virtual std::string_view kind() const = 0;
  virtual Status put(const std::string& key, const std::string& value) = 0;
  // Waits until some rank has put `key`; PROC_FAILED / OTHER if the service went away.
  virtual Result<std::string> get(const std::string& key) = 0;
  // All ranks enter before any leaves.
  virtual Status fence() = 0;
};

// The rmabench launcher's service on `fd` (a connected stream socket the rank inherited).
std::unique_ptr<Bootstrap> launcher_client(int fd, int rank, int size);

// PMIx client; fails with OTHER (and PMIx's own message) outside a PMIx launcher.
Result<std::unique_ptr<Bootstrap>> pmix_client();
// True when the environment says a PMIx server started this process.
bool pmix_available();

}  // namespace rma::bootstrap
