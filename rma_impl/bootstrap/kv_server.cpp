#include "rma/kv_server.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "bootstrap/kv_wire.hpp"

namespace rma::bootstrap {

KvServer::KvServer(int ranks)
    : ranks_(ranks),
      fds_(static_cast<std::size_t>(ranks), -1),
      inbuf_(static_cast<std::size_t>(ranks)) {}

void KvServer::attach(int rank, int fd) {
  fds_[static_cast<std::size_t>(rank)] = fd;
}

void KvServer::reply(int rank, const std::string& bytes) {
  const int fd = fds_[static_cast<std::size_t>(rank)];
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
    } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      pollfd p{fd, POLLOUT, 0};
      ::poll(&p, 1, 100);
    } else {
      return;  // the rank is gone; the launcher notices through its process handle
    }
  }
}

void KvServer::handle(int rank, int kind, std::vector<std::string>& fields) {
  using wire::Kind;
  switch (static_cast<Kind>(kind)) {
    case Kind::put: {
      if (fields.size() != 2) break;
      kv_[fields[0]] = fields[1];
      auto [lo, hi] = parked_gets_.equal_range(fields[0]);
      for (auto it = lo; it != hi; ++it)
        reply(it->second, wire::encode({Kind::value, {fields[1]}}));
      parked_gets_.erase(lo, hi);
      return;
    }
    case Kind::get: {
      if (fields.size() != 1) break;
      auto it = kv_.find(fields[0]);
      if (it != kv_.end())
        reply(rank, wire::encode({Kind::value, {it->second}}));
      else
        parked_gets_.emplace(fields[0], rank);
      return;
    }
    case Kind::fence: {
      in_fence_.insert(rank);
      if (static_cast<int>(in_fence_.size()) == ranks_) {
        for (int r : in_fence_) reply(r, wire::encode({Kind::fence_done, {}}));
        in_fence_.clear();
      }
      return;
    }
    default:
      break;
  }
  reply(rank, wire::encode({Kind::error, {"malformed request"}}));
}

Status KvServer::on_readable(int rank) {
  const int fd = fds_[static_cast<std::size_t>(rank)];
  std::string& buf = inbuf_[static_cast<std::size_t>(rank)];
  for (;;) {
    char chunk[4096];
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n > 0) {
      buf.append(chunk, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) break;
    return {ErrorClass::other, "rank " + std::to_string(rank) + " closed its bootstrap socket"};
  }
  for (;;) {
    bool bad = false;
    auto f = wire::take_frame(buf, bad);
    if (bad) return {ErrorClass::intern, "rank " + std::to_string(rank) + ": malformed frame"};
    if (!f) break;
    handle(rank, static_cast<int>(f->kind), f->fields);
  }
  return Status::ok();
}

std::vector<std::string> KvServer::waiting() const {
  std::vector<std::string> out;
  for (const auto& [key, r] : parked_gets_)
    out.push_back("rank " + std::to_string(r) + " in bootstrap get(" + key + ")");
  for (int r : in_fence_) out.push_back("rank " + std::to_string(r) + " in bootstrap fence");
  return out;
}

}  // namespace rma::bootstrap
