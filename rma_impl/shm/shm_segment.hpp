// shm_segment.hpp — a POSIX shared-memory segment mapped into this process.
//
// create() makes a new segment (O_EXCL: a stale name is an error, never silently shared);
// open() maps one that another rank created. unlink() removes the name as soon as every rank
// has mapped it, so nothing is left in /dev/shm whatever happens to the processes later; until
// then the name is recorded (rma/pending_names.hpp) for a process killed before it.
// shm_free_bytes() says how much room /dev/shm has left.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "rma/status.hpp"

namespace rma::shm {

class Segment {
 public:
  static Result<Segment> create(const std::string& name, std::size_t bytes);
  static Result<Segment> open(const std::string& name);

  Segment() = default;
  Segment(Segment&& o) noexcept;
  Segment& operator=(Segment&& o) noexcept;
  ~Segment();

  void* data() const { return data_; }
  std::size_t size() const { return size_; }
  const std::string& name() const { return name_; }
  // Removes the name; the mapping stays valid. Idempotent.
  void unlink();

 private:
  std::string name_;
  void* data_ = nullptr;
  std::size_t size_ = 0;
  bool owner_ = false;
};

// Bytes /dev/shm has free for new segments; nullopt where it sets no limit or cannot say.
std::optional<std::size_t> shm_free_bytes();

}  // namespace rma::shm
