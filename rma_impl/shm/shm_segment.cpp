#include "shm/shm_segment.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "rma/pending_names.hpp"

namespace rma::shm {
namespace {

Status sys_error(const std::string& what, const std::string& name) {
  return {ErrorClass::other, what + " " + name + ": " + std::strerror(errno)};
}

// tmpfs accepts a segment larger than its free space, and a process touching a page it
// cannot back dies of SIGBUS: refuse up front, naming the numbers. (Ranks creating segments
// at the same moment may each see room the other takes; posix_fallocate in create() then
// fails for one of them. This check names the common mistake, a window or a job larger
// than /dev/shm.)
Status check_room(const std::string& name, std::size_t bytes) {
  const auto room = shm_free_bytes();
  if (!room || *room >= bytes) return Status::ok();
  const std::size_t avail = *room;
  // KiB, the need rounded up: a small window against a nearly full /dev/shm would read
  // "needs 0 MiB, 0 MiB free" in MiB.
  return {ErrorClass::other, "shm segment " + name + " needs " +
                                 std::to_string((bytes + 1023) >> 10) + " KiB in /dev/shm, " +
                                 std::to_string(avail >> 10) +
                                 " KiB free (free space there, or enlarge it: mount -o "
                                 "remount,size=...)"};
}

}  // namespace

std::optional<std::size_t> shm_free_bytes() {
  struct statvfs fs {};
  // No /dev/shm to ask (let shm_open say), or a tmpfs without a size limit (no blocks).
  if (::statvfs("/dev/shm", &fs) != 0 || fs.f_blocks == 0) return std::nullopt;
  return static_cast<std::size_t>(fs.f_bavail) * fs.f_frsize;
}

Result<Segment> Segment::create(const std::string& name, std::size_t bytes) {
  RMA_TRY(check_room(name, bytes));
  // Recorded before it exists, until unlink(): a process killed in between still takes the
  // name with it (the name is this job's and this rank's, so removing it early is harmless).
  add_pending_name(name);
  int fd = ::shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
  if (fd < 0) {
    Status s = sys_error("shm_open(create)", name);
    remove_pending_name(name);
    return s;
  }
  // Undoes what was done so far, saying which call failed.
  auto fail = [&](const char* what) {
    Status s = sys_error(what, name);
    if (fd >= 0) ::close(fd);
    ::shm_unlink(name.c_str());
    remove_pending_name(name);
    return s;
  };
  if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) return fail("ftruncate");
  // The pages, reserved now: what another rank took meanwhile shows here as an error, not
  // as a SIGBUS at first touch. (A file system that cannot reserve says so; that is not an
  // error.)
  if (const int e = ::posix_fallocate(fd, 0, static_cast<off_t>(bytes));
      e != 0 && e != EOPNOTSUPP && e != EINVAL) {
    errno = e;
    return fail("posix_fallocate");
  }
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  fd = -1;
  if (p == MAP_FAILED) return fail("mmap");
  Segment seg;
  seg.name_ = name;
  seg.data_ = p;
  seg.size_ = bytes;
  seg.owner_ = true;
  return seg;
}

Result<Segment> Segment::open(const std::string& name) {
  int fd = ::shm_open(name.c_str(), O_RDWR, 0);
  if (fd < 0) return sys_error("shm_open", name);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    Status s = sys_error("fstat", name);
    ::close(fd);
    return s;
  }
  auto bytes = static_cast<std::size_t>(st.st_size);
  void* p = bytes ? ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : nullptr;
  ::close(fd);
  if (p == MAP_FAILED) return sys_error("mmap", name);
  Segment seg;
  seg.name_ = name;
  seg.data_ = p;
  seg.size_ = bytes;
  return seg;
}

Segment::Segment(Segment&& o) noexcept
    : name_(std::move(o.name_)),
      data_(std::exchange(o.data_, nullptr)),
      size_(std::exchange(o.size_, 0)),
      owner_(std::exchange(o.owner_, false)) {}

Segment& Segment::operator=(Segment&& o) noexcept {
  if (this != &o) {
    this->~Segment();
    new (this) Segment(std::move(o));
  }
  return *this;
}

Segment::~Segment() {
  unlink();
  if (data_) ::munmap(data_, size_);
}

void Segment::unlink() {
  if (owner_) {
    ::shm_unlink(name_.c_str());
    remove_pending_name(name_);
    owner_ = false;
  }
}

}  // namespace rma::shm
