// control.hpp — the control channel between the rmabench parent and one rank: messages
// (control_messages.hpp), one JSON object per line, over a socketpair the rank inherits or a
// socket it connects to.
// send() may be called from several threads of a rank (the main thread's log and result, the
// control thread's state replies); reads happen on one thread.
#pragma once

#include <mutex>
#include <optional>
#include <string>

#include "launcher/control_messages.hpp"

namespace harness::launcher {

class ControlChannel {
 public:
  explicit ControlChannel(int fd) : fd_(fd) {}
  ~ControlChannel();
  ControlChannel(const ControlChannel&) = delete;
  ControlChannel& operator=(const ControlChannel&) = delete;

  int fd() const { return fd_; }
  // Writes one message; false if the other side is gone.
  bool send(const Message& msg);
  // Blocking: the next message, or nullopt at end of stream.
  std::optional<Message> receive();
  // Non-blocking side (the parent): read what is available; false at end of stream.
  bool read_available();
  // The next complete message read so far, if any. Malformed lines become Garbage, so the
  // parent can report them.
  std::optional<Message> next();

 private:
  int fd_;
  std::mutex write_mu_;
  std::string inbuf_;
};

}  // namespace harness::launcher
