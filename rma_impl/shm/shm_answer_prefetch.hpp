// shm_answer_prefetch.hpp — per peer, whether a rank that takes a packet from the peer's
// mailbox slot asks at once for the line of its own slot back to that peer, where its answer
// will go (Mailboxes, shm_mailbox.hpp).
//
// Why per peer and measured: the early request saves the answer's wait for its line where
// lines take long to cross between the two cores, and costs where they cross fast, because
// the peer's next look takes the line back before the answer is written and the line moves
// twice (docs/performance-history.md, "Asking early for the line of the answer's slot"
// and "The early request for the answer's line, decided per peer").
// Which of the two a pair of ranks sees depends on where the scheduler put them, and can
// change while they run. So every kProbeEvery-th take from a peer goes without the early
// request, the next post to that peer is timed from its first store until its publication
// returns (how long the line took to come), and the request is made while the smoothed
// time of those posts exceeds kFarNs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rma::shm {

class AnswerPrefetch {
 public:
  // In this order: BM_PingPongAnswerDelay's prefetch:0, :1 and :2.
  enum class Mode : std::uint8_t { off, on, adaptive };

  // A publication that waited longer than this for its line found it far. Timed so on the
  // 2-core AMD EPYC guest of docs/performance.md (clock reads included), the posts of
  // BM_PingPongEngine waited 30-69 ns where the cores' lines cross fast (one-line round trip
  // 0.06 us) and mostly 100-340 ns where they cross slowly (0.45 us). The smoothing keeps
  // the scattered short waits of a far peer and the rare long ones of a near peer from
  // deciding (docs/performance-history.md has the histograms).
  static constexpr std::int64_t kFarNs = 80;
  static constexpr std::uint32_t kProbeEvery = 64;

  AnswerPrefetch() = default;
  explicit AnswerPrefetch(int ranks) : peers_(static_cast<std::size_t>(ranks)) {}

  void set_mode(Mode m) { mode_ = m; }
  Mode mode() const { return mode_; }

  // A packet from src was just taken: whether to ask for the line of our slot to src now.
  bool at_take(std::size_t src) {
    if (mode_ != Mode::adaptive) return mode_ == Mode::on;
    Peer& p = peers_[src];
    if (p.probing) return false;
    if (--p.until_probe == 0) {
      p.until_probe = kProbeEvery;
      p.probing = true;
      return false;
    }
    return far(src);
  }
  // Whether the next post to dst is to be timed (and then reported to timed()).
  bool timing(std::size_t dst) const { return mode_ == Mode::adaptive && peers_[dst].probing; }
  // How long the timed post to dst took, first store to publication, in ns.
  void timed(std::size_t dst, std::int64_t ns) {
    Peer& p = peers_[dst];
    p.probing = false;
    // A rank preempted between the clock's reads reads a long wait: clamped, one such time
    // moves the average by at most a quarter of 2 * kFarNs, so a near peer averaging above
    // 53 ns may read far until the next probe, kProbeEvery takes later.
    ns = std::clamp<std::int64_t>(ns, 0, 2 * kFarNs);
    p.wait_ns = p.sampled ? p.wait_ns + (ns - p.wait_ns) / 4 : ns;
    p.sampled = true;
  }
  bool far(std::size_t peer) const { return peers_[peer].wait_ns > kFarNs; }

 private:
  struct Peer {
    std::int64_t wait_ns = 0;  // smoothed over the timed posts
    std::uint32_t until_probe = kProbeEvery;
    bool probing = true;  // the first post is timed
    bool sampled = false;
  };
  std::vector<Peer> peers_;
  Mode mode_ = Mode::adaptive;
};

}  // namespace rma::shm
