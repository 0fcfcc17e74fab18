#include "cli/progress_line.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>

namespace harness::cli {

std::string clock_text(double seconds) {
  const long s = seconds < 0 ? 0 : static_cast<long>(seconds);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

ProgressLine::ProgressLine(std::ostream& out, std::size_t total, bool live)
    : out_(out), total_(total), live_(live) {
  if (live_) ticker_ = std::thread([this] { tick(); });
}

ProgressLine::~ProgressLine() {
  done();
}

void ProgressLine::done() {
  {
    std::lock_guard g(mu_);
    stop_ = true;
    clear();
  }
  cv_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

void ProgressLine::started(std::size_t k, const std::string& id) {
  std::lock_guard g(mu_);
  k_ = k;
  id_ = id;
  case_t0_ = std::chrono::steady_clock::now();
  running_ = true;
  draw();
}

std::string ProgressLine::counter() const {
  std::lock_guard g(mu_);
  const std::string n = std::to_string(total_);
  std::string k = std::to_string(k_);
  if (k.size() < n.size()) k.insert(0, n.size() - k.size(), ' ');
  const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  return "[" + k + "/" + n + " " + clock_text(t) + "]";
}

void ProgressLine::print(const std::function<void()>& write) {
  std::lock_guard g(mu_);
  clear();
  write();
  running_ = false;  // what is printed follows the end of a case: none runs until started()
}

void ProgressLine::draw() {
  if (!live_ || stop_ || !running_) return;
  const auto now = std::chrono::steady_clock::now();
  std::string line = "[" + std::to_string(k_) + "/" + std::to_string(total_) + " " +
                     clock_text(std::chrono::duration<double>(now - t0_).count()) + "] running " +
                     id_ + " (" +
                     clock_text(std::chrono::duration<double>(now - case_t0_).count()) + ")";
  // A line wider than the terminal would wrap, and "\r" would then clear only its last part.
  winsize ws{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 && line.size() >= ws.ws_col)
    line.resize(ws.ws_col - 1);
  out_ << "\r\033[K" << line << std::flush;
  shown_ = true;
}

void ProgressLine::clear() {
  if (!shown_) return;
  out_ << "\r\033[K" << std::flush;
  shown_ = false;
}

void ProgressLine::tick() {
  std::unique_lock g(mu_);
  while (!stop_) {
    cv_.wait_for(g, std::chrono::seconds(1));
    if (!stop_) draw();
  }
}

}  // namespace harness::cli
