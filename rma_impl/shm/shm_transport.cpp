#include "shm/shm_transport.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <new>
#include <string>
#include <vector>

#include "shm/shm_doorbell.hpp"
#include "shm/shm_ring.hpp"
#include "shm/shm_segment.hpp"

namespace rma::shm {
namespace {

constexpr std::uint64_t kMagic = 0x524d4142454e4348ull;  // "RMABENCH"

struct SegmentHeader {
  std::uint64_t magic;
  std::uint32_t ranks;
  std::uint32_t ring_bytes;
};

constexpr std::size_t align64(std::size_t n) { return (n + 63) & ~std::size_t{63}; }

// Where everything lives in the segment.
struct Layout {
  int ranks;
  std::size_t ring_bytes;
  std::size_t pids_at = align64(sizeof(SegmentHeader));
  std::size_t doorbells_at = 0;
  std::size_t rings_at = 0;
  std::size_t ring_stride = 0;
  std::size_t total = 0;

  Layout(int n, std::size_t rb) : ranks(n), ring_bytes(rb) {
    doorbells_at = align64(pids_at + sizeof(pid_t) * static_cast<std::size_t>(n));
    rings_at = doorbells_at + sizeof(Doorbell) * static_cast<std::size_t>(n);
    ring_stride = sizeof(RingCtl) + ring_bytes;
    total = rings_at + ring_stride * static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  }
};

class ShmTransport final : public progress::Transport {
 public:
  ShmTransport(Segment seg, int rank, int size, std::size_t ring_bytes, std::size_t max_payload)
      : seg_(std::move(seg)),
        rank_(rank),
        size_(size),
        layout_(size, ring_bytes),
        max_payload_(max_payload) {
    auto* base = static_cast<std::byte*>(seg_.data());
    pids_ = reinterpret_cast<pid_t*>(base + layout_.pids_at);
    bells_ = reinterpret_cast<Doorbell*>(base + layout_.doorbells_at);
    for (int p = 0; p < size_; ++p) {
      writers_.emplace_back(ctl(rank_, p), ring_data(rank_, p), ring_bytes);
      readers_.emplace_back(ctl(p, rank_), ring_data(p, rank_), ring_bytes);
    }
  }

  std::string name() const override { return "shm"; }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::size_t max_payload() const override { return max_payload_; }

  bool try_send(int dst, const progress::PacketHeader& h,
                std::span<const std::byte> payload) override {
    if (!writers_[static_cast<std::size_t>(dst)].try_write(h, payload)) return false;
    if (bells_[dst].notify()) rings_.fetch_add(1, std::memory_order_relaxed);
    return true;
  }

  int poll(progress::PacketSink& sink, int max_packets) override {
    int n = 0;
    for (int i = 0; i < size_ && n < max_packets; ++i) {
      int src = (next_ + i) % size_;
      n += readers_[static_cast<std::size_t>(src)].read(
          [&](const progress::PacketHeader& h, std::span<const std::byte> p) {
            sink.deliver(src, h, p);
          },
          max_packets - n);
    }
    next_ = (next_ + 1) % size_;
    return n;
  }

  bool has_incoming() const override {
    for (const auto& r : readers_)
      if (r.has_data()) return true;
    return false;
  }

  void awake_enter() override { me().awake.fetch_add(1, std::memory_order_seq_cst); }
  void awake_leave() override {
    me().awake.fetch_sub(1, std::memory_order_seq_cst);
    // A packet may have arrived while we were awake, unrung: hand it to a sleeper.
    if (me().sleepers.load(std::memory_order_seq_cst) != 0 && has_incoming()) me().ring();
  }
  std::uint64_t sleep_prepare() override { return me().prepare(); }
  void sleep(std::uint64_t token, std::chrono::microseconds timeout) override {
    me().wait(static_cast<std::uint32_t>(token), timeout);
  }
  void sleep_cancel() override { me().cancel(); }
  void wake_local() override { me().ring(); }
  void wake(int rank) override {
    if (bells_[rank].notify()) rings_.fetch_add(1, std::memory_order_relaxed);
  }
  bool has_sleepers() const override {
    return bells_[rank_].sleepers.load(std::memory_order_relaxed) != 0;
  }

  Status peer_status(int peer) const override {
    pid_t pid = pids_[peer];
    if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH)
      return {ErrorClass::proc_failed,
              "rank " + std::to_string(peer) + " (pid " + std::to_string(pid) + ") has exited"};
    return Status::ok();
  }

  void add_counters(Counters& c) const override { c.transport["doorbell_rings"] += rings_.load(std::memory_order_relaxed); }

 private:
  Doorbell& me() { return bells_[rank_]; }
  RingCtl* ctl(int src, int dst) {
    return reinterpret_cast<RingCtl*>(static_cast<std::byte*>(seg_.data()) + layout_.rings_at +
                                      layout_.ring_stride * static_cast<std::size_t>(src * size_ + dst));
  }
  std::byte* ring_data(int src, int dst) {
    return reinterpret_cast<std::byte*>(ctl(src, dst)) + sizeof(RingCtl);
  }

  Segment seg_;
  int rank_;
  int size_;
  Layout layout_;
  std::size_t max_payload_;
  pid_t* pids_ = nullptr;
  Doorbell* bells_ = nullptr;
  std::vector<RingWriter> writers_;
  std::vector<RingReader> readers_;
  int next_ = 0;
  std::atomic<std::uint64_t> rings_{0};
};

}  // namespace

std::size_t ring_bytes_for(int ranks) {
  if (ranks <= 8) return 256 * 1024;
  if (ranks <= 32) return 64 * 1024;
  return 32 * 1024;
}

Result<std::unique_ptr<progress::Transport>> create_transport(bootstrap::Bootstrap& boot,
                                                              const RuntimeConfig& config) {
  const int rank = boot.rank();
  const int size = boot.size();
  const std::size_t ring_bytes = ring_bytes_for(size);
  const Layout layout(size, ring_bytes);
  const std::string name = "/" + config.name_prefix + ".transport";

  Segment seg;
  if (rank == 0) {
    auto created = Segment::create(name, layout.total);
    if (!created) return created.status();
    seg = std::move(created.value());
    auto* hdr = static_cast<SegmentHeader*>(seg.data());
    hdr->ranks = static_cast<std::uint32_t>(size);
    hdr->ring_bytes = static_cast<std::uint32_t>(ring_bytes);
    hdr->magic = kMagic;
    RMA_TRY(boot.put("shm.transport.0", name));
  }
  RMA_TRY(boot.fence());
  if (rank != 0) {
    auto published = boot.get("shm.transport.0");
    if (!published) return published.status();
    auto opened = Segment::open(published.value());
    if (!opened) return opened.status();
    seg = std::move(opened.value());
    const auto* hdr = static_cast<const SegmentHeader*>(seg.data());
    if (seg.size() < layout.total || hdr->magic != kMagic ||
        hdr->ranks != static_cast<std::uint32_t>(size))
      return Status{ErrorClass::intern, "shm segment " + name + " does not match this job"};
  }
  auto* pids = reinterpret_cast<pid_t*>(static_cast<std::byte*>(seg.data()) + layout.pids_at);
  pids[rank] = ::getpid();
  // After this fence every rank has mapped the segment and written its pid: the name can go.
  RMA_TRY(boot.fence());
  seg.unlink();

  const std::size_t max_payload =
      std::min<std::size_t>(64 * 1024, ring_max_payload(ring_bytes) & ~std::size_t{7});
  return std::unique_ptr<progress::Transport>(
      new ShmTransport(std::move(seg), rank, size, ring_bytes, max_payload));
}

}  // namespace rma::shm
