#include "shm/shm_transport.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "shm/shm_copy.hpp"
#include "shm/shm_doorbell.hpp"
#include "shm/shm_mailbox.hpp"
#include "shm/shm_queue.hpp"
#include "shm/shm_segment.hpp"

namespace rma::shm {
namespace {

constexpr std::uint64_t kMagic = 0x524d4142454e4348ull;  // "RMABENCH"

struct SegmentHeader {
  std::uint64_t magic;
  std::uint32_t ranks;
  std::uint32_t queue_bytes;
};

constexpr std::size_t align64(std::size_t n) {
  return (n + 63) & ~std::size_t{63};
}

// Where everything lives in the segment: per rank a pid, a doorbell and a receive queue, so
// the segment grows linearly with the rank count; in jobs of at most kMailboxRanks, also a
// mailbox slot per ordered pair.
struct Layout {
  int ranks;
  std::size_t queue_bytes;
  std::size_t pids_at = align64(sizeof(SegmentHeader));
  std::size_t doorbells_at = 0;
  std::size_t queues_at = 0;
  std::size_t queue_stride = 0;
  std::size_t mailboxes_at = 0;  // 0: none
  std::size_t total = 0;

  Layout(int n, std::size_t qb) : ranks(n), queue_bytes(qb) {
    doorbells_at = align64(pids_at + sizeof(pid_t) * static_cast<std::size_t>(n));
    queues_at = doorbells_at + sizeof(Doorbell) * static_cast<std::size_t>(n);
    queue_stride = sizeof(QueueCtl) + queue_bytes;
    total = queues_at + queue_stride * static_cast<std::size_t>(n);
    if (n <= kMailboxRanks) {
      mailboxes_at = (total + alignof(MailboxSlot) - 1) & ~(alignof(MailboxSlot) - 1);
      total = mailboxes_at +
              sizeof(MailboxSlot) * static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    }
  }
};

// Single-copy transfers (Transport::read_peer, write_peer): one rank copies to or from a
// peer's memory, with a memcpy where it maps that memory (an am window's, MappedRanges),
// else with process_vm_readv / _writev, which needs the same uid and ptrace permission over
// the peer (Yama's ptrace_scope 1 allows it only where the peer named a tracer: see
// allow_peers). The system call cost a 64 KiB copy twice a memcpy on the Intel guest of
// docs/performance.md (docs/protocol.md).
// RMA_SINGLE_COPY=off turns it off; =refuse keeps offering but refuses every copy by system
// call as the kernel would (EPERM), to test the fallback (copies through a mapping go on).
// RMA_SINGLE_COPY_MIN: the smallest transfer copied so (bytes); by default 16 KiB, the default
// eager limit (RuntimeConfig in include/rma/runtime.hpp), so that at the default settings every
// put's data and get's reply that goes by rendezvous, and may be copied so (docs/protocol.md), is
// copied once (never above a packet's payload plus one). A fragment is copied twice, into the queue
// by one core and out by the other, and from 20 to 64 KiB that took 1.5-3.1x as long as the single
// copy with its syscalls, round by round, for puts and gets alike (docs/performance-history.md,
// "Rendezvous transfers in one copy").
struct SingleCopy {
  std::size_t min = 0;  // 0: off
  bool refuse = false;
};

SingleCopy single_copy_from_env(std::size_t max_payload) {
  SingleCopy sc;
  const char* mode = std::getenv("RMA_SINGLE_COPY");
  const std::string_view m = mode ? mode : "on";
  if (m == "off" || m == "0") return sc;
  sc.refuse = m == "refuse";
  sc.min = std::min<std::size_t>(RuntimeConfig{}.eager_limit, max_payload + 1);
  if (const char* v = std::getenv("RMA_SINGLE_COPY_MIN"); v && *v)
    sc.min = std::max<std::size_t>(1, std::strtoull(v, nullptr, 10));
  return sc;
}

// Under Yama's ptrace_scope 1 only a declared tracer and its descendants may read this
// process: the ranks are siblings, so the parent that started them is declared. (Scope 0
// needs nothing; 2 and 3 refuse, and the copy falls back to fragments.)
void allow_peers() {
  std::ifstream scope("/proc/sys/kernel/yama/ptrace_scope");
  int v = 0;
  if (scope >> v && v == 1) (void)::prctl(PR_SET_PTRACER, static_cast<unsigned long>(::getppid()));
}

// Peers' memory mapped here (map_peer_ranges), a few ranges per am window. The lock keeps
// the list whole; that memory found here stays mapped while it is copied rests on the
// engine's lock, which every add, remove and copy holds (a window's ranges go before its
// memory is unmapped: ShmWin::freeing, and the token before the mapping in ShmWin).
class MappedRanges {
 public:
  std::uint64_t add(std::vector<PeerRange> ranges) {
    std::lock_guard g(mu_);
    const std::uint64_t id = ++last_id_;
    for (PeerRange& r : ranges) entries_.push_back({r, id});
    return id;
  }
  void remove(std::uint64_t id) {
    std::lock_guard g(mu_);
    std::erase_if(entries_, [id](const Entry& e) { return e.id == id; });
  }
  // Where `n` bytes at `address` of `peer` are mapped here, or null.
  std::byte* find(int peer, std::uint64_t address, std::size_t n) const {
    std::lock_guard g(mu_);
    for (const Entry& e : entries_) {
      const PeerRange& r = e.range;
      if (r.peer == peer && address >= r.address && n <= r.size &&
          address - r.address <= r.size - n)
        return r.local + (address - r.address);
    }
    return nullptr;
  }

 private:
  struct Entry {
    PeerRange range;
    std::uint64_t id;
  };
  mutable std::mutex mu_;
  std::vector<Entry> entries_;
  std::uint64_t last_id_ = 0;
};

class ShmTransport final : public progress::Transport {
 public:
  ShmTransport(Segment seg, int rank, int size, std::size_t queue_bytes, std::size_t max_payload,
               SingleCopy single_copy)
      : seg_(std::move(seg)),
        rank_(rank),
        size_(size),
        layout_(size, queue_bytes),
        max_payload_(max_payload),
        single_copy_(single_copy),
        mailboxes_(mailboxes_of(seg_, layout_, rank)) {
    auto* base = static_cast<std::byte*>(seg_.data());
    pids_ = reinterpret_cast<pid_t*>(base + layout_.pids_at);
    bells_ = reinterpret_cast<Doorbell*>(base + layout_.doorbells_at);
    writers_.reserve(static_cast<std::size_t>(size_));
    for (int p = 0; p < size_; ++p)
      writers_.emplace_back(ctl(p), queue_data(p), queue_bytes, rank_);
    reader_ = QueueReader(ctl(rank_), queue_data(rank_), queue_bytes);
  }

  std::string name() const override { return "shm"; }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::size_t max_payload() const override { return max_payload_; }

  bool try_send(int dst, const progress::PacketHeader& h,
                std::span<const std::byte> payload) override {
    if (!mailboxes_.try_post(dst, h, payload)) {
      if (!writers_[static_cast<std::size_t>(dst)].try_write(h, payload,
                                                             mailboxes_.record_mark(dst)))
        return false;
      mailboxes_.queued(dst);
    }
    if (bells_[dst].notify()) rings_.fetch_add(1, std::memory_order_relaxed);
    return true;
  }

  int poll(progress::PacketSink& sink, int max_packets) override {
    auto deliver = [&](int src, const progress::PacketHeader& h, std::span<const std::byte> p) {
      sink.deliver(src, h, p);
    };
    if (!mailboxes_.enabled()) return reader_.read(deliver, max_packets);
    int n = mailboxes_.take_all(deliver, max_packets);
    // One record at a time: a record may first need the post before it in its slot.
    int src = 0;
    bool mark = false;
    bool records = false;
    while (n < max_packets && reader_.peek(src, mark)) {
      if (!mailboxes_.before_record(src, mark, deliver)) {
        // Counted before the queue's head moves: a thread asking has_incoming() that sees
        // the record gone also sees the post behind it as ready.
        mailboxes_.record_taken(src);
        reader_.read(deliver, 1);
        records = true;
      }
      ++n;
    }
    // Posts that were waiting for the records just taken.
    if (records && n < max_packets) n += mailboxes_.take_all(deliver, max_packets - n);
    // Acknowledgments wait until polls have found nothing for a while: until then the next
    // packet to that peer usually carries them (an answer, or the next epoch's request
    // after a few calls that each poll once), and an acknowledgment of its own is one more
    // write of a line the peer is polling.
    // (The count stops at the threshold: a rank idle for minutes must not overflow it.)
    if (n > 0) {
      idle_polls_ = 0;
      return n;
    }
    reader_.tidy();  // nothing came: clear what was handled, off the packets' path
    if (idle_polls_ < kAckAfterIdlePolls && ++idle_polls_ == kAckAfterIdlePolls)
      mailboxes_.flush_acks();
    return n;
  }

  bool has_incoming() const override { return reader_.has_data() || mailboxes_.has_data(); }

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

  std::size_t single_copy_min() const override { return single_copy_.min; }

  int read_peer(int peer, std::uint64_t addr, std::span<std::byte> into) override {
    return copy_peer(peer, addr, into.data(), into.size(), false);
  }
  int write_peer(int peer, std::uint64_t addr, std::span<const std::byte> from) override {
    return copy_peer(peer, addr, const_cast<std::byte*>(from.data()), from.size(), true);
  }

  bool maps_peer(int peer, std::uint64_t addr, std::size_t n) const override {
    return mapped_.find(peer, addr, n) != nullptr;
  }

  Status peer_status(int peer) const override {
    pid_t pid = pids_[peer];
    if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH)
      return {ErrorClass::proc_failed,
              "rank " + std::to_string(peer) + " (pid " + std::to_string(pid) + ") has exited"};
    return Status::ok();
  }

  void add_counters(Counters& c) const override {
    c.transport["doorbell_rings"] += rings_.load(std::memory_order_relaxed);
    c.transport["mailbox_posts"] += mailboxes_.posts();
    c.transport["mailbox_prefetches"] += mailboxes_.prefetches();
    if (auto n = reads_.load(std::memory_order_relaxed)) c.transport["single_copy_reads"] += n;
    if (auto n = writes_.load(std::memory_order_relaxed)) c.transport["single_copy_writes"] += n;
    if (auto n = refused_.load(std::memory_order_relaxed)) c.transport["single_copy_refused"] += n;
    if (auto n = mapped_copies_.load(std::memory_order_relaxed))
      c.transport["single_copy_mapped"] += n;
  }

  MappedRanges& mapped() { return mapped_; }

 private:
  static Mailboxes mailboxes_of(Segment& seg, const Layout& l, int rank) {
    if (l.mailboxes_at == 0) return Mailboxes();
    return Mailboxes(
        reinterpret_cast<MailboxSlot*>(static_cast<std::byte*>(seg.data()) + l.mailboxes_at),
        l.ranks, rank);
  }
  Doorbell& me() { return bells_[rank_]; }
  // A memcpy where this rank maps the peer's memory, else one process_vm_readv / _writev
  // (more if the kernel copies less at a time).
  int copy_peer(int peer, std::uint64_t addr, std::byte* local_bytes, std::size_t n, bool write) {
    if (std::byte* there = mapped_.find(peer, addr, n)) {
      write ? copy_bytes(there, local_bytes, n) : copy_bytes(local_bytes, there, n);
      (write ? writes_ : reads_).fetch_add(1, std::memory_order_relaxed);
      mapped_copies_.fetch_add(1, std::memory_order_relaxed);
      return 0;
    }
    int err = single_copy_.refuse ? EPERM : 0;
    for (std::size_t done = 0; !err && done < n;) {
      iovec local{local_bytes + done, n - done};
      iovec remote{reinterpret_cast<void*>(addr + done), n - done};
      const ssize_t k = write ? ::process_vm_writev(pids_[peer], &local, 1, &remote, 1, 0)
                              : ::process_vm_readv(pids_[peer], &local, 1, &remote, 1, 0);
      if (k > 0)
        done += static_cast<std::size_t>(k);
      else if (k == 0)
        err = EFAULT;
      else if (errno != EINTR)
        err = errno;
    }
    (err ? refused_ : write ? writes_ : reads_).fetch_add(1, std::memory_order_relaxed);
    return err;
  }
  QueueCtl* ctl(int dst) {
    return reinterpret_cast<QueueCtl*>(static_cast<std::byte*>(seg_.data()) + layout_.queues_at +
                                       layout_.queue_stride * static_cast<std::size_t>(dst));
  }
  std::byte* queue_data(int dst) {
    return reinterpret_cast<std::byte*>(ctl(dst)) + sizeof(QueueCtl);
  }

  Segment seg_;
  int rank_;
  int size_;
  Layout layout_;
  std::size_t max_payload_;
  SingleCopy single_copy_;
  pid_t* pids_ = nullptr;
  Doorbell* bells_ = nullptr;
  std::vector<QueueWriter> writers_;
  QueueReader reader_;
  Mailboxes mailboxes_;
  // A waiting thread polls this many times in a few microseconds; a library call polls once.
  static constexpr int kAckAfterIdlePolls = 32;
  int idle_polls_ = 0;  // polls in a row that found nothing (engine lock)
  std::atomic<std::uint64_t> rings_{0};
  // Single copies done (reads, writes; of them, through a mapping) and refused.
  std::atomic<std::uint64_t> reads_{0}, writes_{0}, mapped_copies_{0}, refused_{0};
  MappedRanges mapped_;
};

}  // namespace

std::shared_ptr<void> map_peer_ranges(progress::Transport& t, std::vector<PeerRange> ranges) {
  auto* shm = dynamic_cast<ShmTransport*>(&t);
  if (!shm) return nullptr;
  MappedRanges& m = shm->mapped();
  const std::uint64_t id = m.add(std::move(ranges));
  return std::shared_ptr<void>(nullptr, [&m, id](void*) { m.remove(id); });
}

std::size_t queue_bytes_for(int ranks) {
  if (ranks <= 8) return 512 * 1024;
  if (ranks <= 64) return 256 * 1024;
  return 128 * 1024;
}

std::size_t max_payload_for(int ranks) {
  // The per-pair rings this transport had before were 256 KiB up to 8 ranks, 64 KiB up to 32,
  // 32 KiB above, and a packet could carry half a ring: the same limits kept every fragment
  // count (and so every message count) as it was. The engine cuts streams at a multiple of
  // 16 bytes of this (engine.cpp), which from 9 ranks on is a little less.
  const std::size_t old_ring = ranks <= 8 ? 256 * 1024 : ranks <= 32 ? 64 * 1024 : 32 * 1024;
  return std::min<std::size_t>(64 * 1024, (old_ring / 2 - 56) & ~std::size_t{7});
}

Result<std::unique_ptr<progress::Transport>> create_transport(bootstrap::Bootstrap& boot,
                                                              const RuntimeConfig& config) {
  const int rank = boot.rank();
  const int size = boot.size();
  if (size > kMaxQueueRanks)
    return Status{ErrorClass::arg, "shm transport: " + std::to_string(size) + " ranks, at most " +
                                       std::to_string(kMaxQueueRanks)};
  const std::size_t queue_bytes = queue_bytes_for(size);
  const std::size_t max_payload = max_payload_for(size);
  static_assert(queue_max_payload(128 * 1024) >= 16 * 1024 && 512 * 1024 <= kMaxQueueBytes);
  const Layout layout(size, queue_bytes);
  const std::string name = "/" + config.name_prefix + ".transport";

  Segment seg;
  if (rank == 0) {
    auto created = Segment::create(name, layout.total);
    if (!created)
      return Status{created.status().error_class(), "shm transport for " + std::to_string(size) +
                                                        " ranks: " + created.status().message()};
    seg = std::move(created.value());
    auto* hdr = static_cast<SegmentHeader*>(seg.data());
    hdr->ranks = static_cast<std::uint32_t>(size);
    hdr->queue_bytes = static_cast<std::uint32_t>(queue_bytes);
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
        hdr->ranks != static_cast<std::uint32_t>(size) ||
        hdr->queue_bytes != static_cast<std::uint32_t>(queue_bytes))
      return Status{ErrorClass::intern, "shm segment " + name + " does not match this job"};
  }
  const SingleCopy single_copy = single_copy_from_env(max_payload);
  if (single_copy.min) allow_peers();
  auto* pids = reinterpret_cast<pid_t*>(static_cast<std::byte*>(seg.data()) + layout.pids_at);
  pids[rank] = ::getpid();
  // After this fence every rank has mapped the segment and written its pid: the name can go.
  RMA_TRY(boot.fence());
  seg.unlink();

  return std::unique_ptr<progress::Transport>(
      new ShmTransport(std::move(seg), rank, size, queue_bytes, max_payload, single_copy));
}

}  // namespace rma::shm
