// progress_line.hpp — how far a run is. Every case line starts with "[k/N m:ss]" (case k of
// N, time since the run began), so a CI log shows it in plain lines; on a terminal a status
// line under them also names the case running and its elapsed time, redrawn every second.
//
//   ProgressLine p(std::cout, cases, isatty(1));
//   p.started(k, id);                        // case k (1-based) begins
//   p.print([&] { console.case_line(r, p.counter()); });   // lines go above the status
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

namespace harness::cli {

class ProgressLine {
 public:
  ProgressLine(std::ostream& out, std::size_t total, bool live);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void started(std::size_t k, const std::string& id);
  // "[ k/N m:ss]" for the case that started last (k padded to N's width).
  std::string counter() const;
  // Runs `write` (which prints whole lines to the stream) with the status line out of the
  // way; the status line comes back at the next started().
  void print(const std::function<void()>& write);
  // Clears the status line for good (the run's summary follows).
  void done();

 private:
  void draw();   // the status line; mutex held
  void clear();  // mutex held
  void tick();

  std::ostream& out_;
  const std::size_t total_;
  const bool live_;
  const std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point case_t0_ = t0_;
  std::size_t k_ = 0;
  std::string id_;
  bool running_ = false;  // between started() and the next print()
  bool shown_ = false;
  bool stop_ = false;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::thread ticker_;
};

// "0:07", "1:02:03".
std::string clock_text(double seconds);

}  // namespace harness::cli
