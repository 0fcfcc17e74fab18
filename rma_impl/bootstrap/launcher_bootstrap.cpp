// The client side of the rmabench launcher's key-value service: blocking request/reply over
// the socket the rank inherited. A rank stuck here (a peer never published) is ended by the
// launcher's deadline, which is why there is no timeout of its own.
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "bootstrap/kv_wire.hpp"
#include "rma/bootstrap.hpp"

namespace rma::bootstrap {
namespace {

class LauncherBootstrap final : public Bootstrap {
 public:
  LauncherBootstrap(int fd, int rank, int size) : fd_(fd), rank_(rank), size_(size) {}
  ~LauncherBootstrap() override { ::close(fd_); }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string_view kind() const override { return "launcher"; }

  Status put(const std::string& key, const std::string& value) override {
    return send({wire::Kind::put, {key, value}});
  }

  Result<std::string> get(const std::string& key) override {
    RMA_TRY(send({wire::Kind::get, {key}}));
    auto reply = receive();
    if (!reply) return reply.status();
    if (reply->kind != wire::Kind::value || reply->fields.size() != 1)
      return Status{ErrorClass::intern, "bootstrap: unexpected reply to get " + key};
    return std::move(reply->fields[0]);
  }

  Status fence() override {
    RMA_TRY(send({wire::Kind::fence, {}}));
    auto reply = receive();
    if (!reply) return reply.status();
    if (reply->kind != wire::Kind::fence_done)
      return Status{ErrorClass::intern, "bootstrap: unexpected reply to fence"};
    return Status::ok();
  }

 private:
  Status send(const wire::Frame& f) {
    const std::string bytes = wire::encode(f);
    std::size_t done = 0;
    while (done < bytes.size()) {
      ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        return {ErrorClass::other,
                std::string("bootstrap: launcher gone: ") + std::strerror(errno)};
      done += static_cast<std::size_t>(n);
    }
    return Status::ok();
  }

  Result<wire::Frame> receive() {
    for (;;) {
      bool bad = false;
      if (auto f = wire::take_frame(buf_, bad)) {
        if (f->kind == wire::Kind::error)
          return Status{ErrorClass::other,
                        "bootstrap: " + (f->fields.empty() ? std::string("error") : f->fields[0])};
        return std::move(*f);
      }
      if (bad) return Status{ErrorClass::intern, "bootstrap: malformed frame from launcher"};
      char chunk[4096];
      ssize_t n = ::read(fd_, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return Status{ErrorClass::other, "bootstrap: launcher closed the connection"};
      buf_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  int fd_;
  int rank_;
  int size_;
  std::string buf_;
};

}  // namespace

std::unique_ptr<Bootstrap> launcher_client(int fd, int rank, int size) {
  return std::make_unique<LauncherBootstrap>(fd, rank, size);
}

}  // namespace rma::bootstrap
