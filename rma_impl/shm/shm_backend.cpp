// Window memory on shared segments: one per rank (allocate), one for all (shared, laid out
// contiguously unless alloc_shared_noncontig), or an MPI_Alloc_mem segment the user's create
// window lies in; plus one control segment per window for the direct path's shared words.
// Names are exchanged with the runtime's allgather and unlinked as soon as every rank has
// mapped them. am windows are mapped too where they can be, and their peers' memory handed
// to the transport, which copies large transfers through it (map_peer_ranges).
#include "shm/shm_backend.hpp"

#include <map>
#include <sstream>

#include "core/runtime_impl.hpp"
#include "shm/shm_win.hpp"

namespace rma::shm {
namespace {

constexpr std::size_t kMaxStripes = 64;
constexpr int kMapAmRanks = 64;  // the largest job whose am windows are mapped

std::size_t round_up(std::size_t n, std::size_t a) {
  return (n + a - 1) / a * a;
}

class ShmBackend final : public core::Backend {
 public:
  explicit ShmBackend(core::RuntimeImpl& rt) : rt_(rt) {}

  bool can_map(const WindowConfig& cfg, const core::WindowInfo&) const override {
    switch (cfg.flavor) {
      case Flavor::allocate:
      case Flavor::shared:
        return true;
      case Flavor::create:
        return cfg.size == 0 || find_alloc(cfg.base, cfg.size) != nullptr;
      case Flavor::dynamic:
        return false;
    }
    return false;
  }

  Status map_window(core::Call& c, const WindowConfig& cfg, const core::WindowInfo& info,
                    bool direct) override;
  // Only where the transport copies single (RMA_SINGLE_COPY is not off), else the mapping
  // serves nothing; in jobs of at most kMapAmRanks ranks, since every rank maps every
  // other's segment (at 1024 ranks the am path keeps one segment, the transport's, as
  // docs/scaling.md measured it); and an allocate window only while every rank's segment of
  // this size together would take at most half of what /dev/shm has free (segments reserve
  // their pages: Segment::create), so that the am path keeps working, with system calls,
  // where /dev/shm is small (a container's 64 MiB, say) and the direct path would not.
  bool maps_am_window(const WindowConfig& cfg) const override {
    if (rt_.engine().transport().single_copy_min() == 0 || rt_.size() > kMapAmRanks) return false;
    if (cfg.flavor != Flavor::allocate) return true;
    const auto room = shm_free_bytes();
    return !room || cfg.size <= *room / 2 / static_cast<std::size_t>(rt_.size());
  }

  Result<void*> alloc_mem(std::size_t bytes) override {
    const std::string name = "/" + rt_.config().name_prefix + ".mem" + std::to_string(next_mem_++) +
                             ".r" + std::to_string(rt_.rank());
    auto seg = Segment::create(name, std::max<std::size_t>(bytes, 64));
    if (!seg) return seg.status();
    auto shared = std::make_shared<Segment>(std::move(seg.value()));
    void* base = shared->data();
    allocs_[base] = {shared, bytes};
    return base;
  }

  Status free_mem(void* base) override {
    if (!allocs_.erase(base)) return {ErrorClass::arg, "free_mem: not memory from alloc_mem"};
    return Status::ok();
  }

 private:
  struct Alloc {
    std::shared_ptr<Segment> seg;
    std::size_t bytes;
  };

  const Alloc* find_alloc(const void* base, std::size_t size) const {
    const auto* p = static_cast<const std::byte*>(base);
    for (const auto& [b, a] : allocs_) {
      const auto* start = static_cast<const std::byte*>(b);
      if (p >= start && p + size <= start + a.bytes) return &a;
    }
    return nullptr;
  }

  // A peer's segment, mapped once per name for the life of this runtime's windows.
  Result<std::shared_ptr<Segment>> open(const std::string& name) {
    auto it = mapped_.find(name);
    if (it != mapped_.end())
      if (auto s = it->second.lock()) return s;
    auto seg = Segment::open(name);
    if (!seg) return seg.status();
    auto shared = std::make_shared<Segment>(std::move(seg.value()));
    mapped_[name] = shared;
    return shared;
  }

  // Every rank's memory, from the "name offset address" each rank told the others.
  Status map_peers(const core::Win& w, const std::vector<std::string>& told, ShmWin& state);
  // An am window's peers' memory, for the transport's single copies.
  void hand_to_transport(const core::Win& w, ShmWin& state);
  // The direct path's shared words: rank 0's control segment, created (`own`) or opened.
  Status set_up_control(ShmWin& state, const std::shared_ptr<Segment>& own,
                        const std::string& prefix, const ControlLayout& layout, std::size_t region,
                        int n);

  core::RuntimeImpl& rt_;
  std::map<void*, Alloc> allocs_;
  std::map<std::string, std::weak_ptr<Segment>> mapped_;
  int next_mem_ = 0;
};

Status ShmBackend::map_window(core::Call& c, const WindowConfig& cfg, const core::WindowInfo& info,
                              bool direct) {
  core::Win& w = c.w;
  const int n = w.ranks();
  const int me = w.rank();
  const std::string prefix = "/" + rt_.config().name_prefix + ".w" + std::to_string(w.id);
  std::erase_if(mapped_, [](const auto& m) { return m.second.expired(); });

  const std::size_t region = info.region_size;
  std::size_t largest = 0;
  for (const auto& p : w.peers) largest = std::max<std::size_t>(largest, p.size);
  const std::size_t stripes = std::clamp<std::size_t>(
      round_up(std::max<std::size_t>(largest, 1), region) / region, 1, kMaxStripes);
  const ControlLayout layout(n, stripes);

  // What this rank creates, and what it tells the others: its data segment's name (or "-"
  // for none), where its memory starts in it and in this process; or, after a "!", why it
  // could not create what it should, so that every rank fails alike.
  std::shared_ptr<Segment> own_ctl, own_data;
  std::string error;
  auto make = [&](const std::string& name, std::size_t bytes) {
    std::shared_ptr<Segment> made;
    if (!error.empty()) return made;
    auto s = Segment::create(name, bytes);
    if (s)
      made = std::make_shared<Segment>(std::move(s.value()));
    else
      error = s.status().message();
    return made;
  };
  std::size_t my_offset = 0;
  std::string data_name = "-";
  std::uint64_t my_address = 0;  // 0 where not known before every rank has mapped
  if (me == 0 && direct) own_ctl = make(prefix + ".ctl", layout.total);
  const bool contiguous = !info.alloc_shared_noncontig;
  std::vector<std::size_t> offsets(static_cast<std::size_t>(n), 0);
  std::size_t total = 0;
  for (int r = 0; r < n; ++r) {
    offsets[static_cast<std::size_t>(r)] = total;
    const std::size_t sz = w.peers[static_cast<std::size_t>(r)].size;
    total += contiguous ? sz : round_up(sz, 4096);
  }
  if (cfg.flavor == Flavor::shared) {
    if (me == 0) own_data = make(prefix + ".shared", std::max<std::size_t>(total, 64));
    data_name = prefix + ".shared";
    my_offset = offsets[static_cast<std::size_t>(me)];
  } else if (cfg.flavor == Flavor::allocate) {
    own_data = make(prefix + ".r" + std::to_string(me), std::max<std::size_t>(cfg.size, 64));
    if (own_data) {
      data_name = own_data->name();
      my_address = reinterpret_cast<std::uint64_t>(own_data->data());
    }
  } else if (const Alloc* a = find_alloc(cfg.base, cfg.size)) {  // create, over alloc_mem
    data_name = a->seg->name();
    my_offset = static_cast<std::size_t>(static_cast<std::byte*>(cfg.base) -
                                         static_cast<std::byte*>(a->seg->data()));
    my_address = reinterpret_cast<std::uint64_t>(cfg.base);
  }
  if (own_data) mapped_[own_data->name()] = own_data;

  auto all = rt_.p2p().allgather(c.lk, error.empty() ? data_name + " " + std::to_string(my_offset) +
                                                           " " + std::to_string(my_address)
                                                     : "! " + error);
  if (!all) return all.status();
  for (std::size_t r = 0; r < all->size(); ++r)
    if ((*all)[r].starts_with('!'))
      return {ErrorClass::other, "window: rank " + std::to_string(r) +
                                     " could not set up its shared memory: " + (*all)[r].substr(2)};

  auto state = std::make_unique<ShmWin>();
  RMA_TRY(map_peers(w, *all, *state));
  if (direct) {
    RMA_TRY(set_up_control(*state, own_ctl, prefix, layout, region, n));
    state->locks = &w.locks;
  } else {
    hand_to_transport(w, *state);
  }
  PeerMemory& mine = state->peers[static_cast<std::size_t>(me)];
  if (cfg.flavor != Flavor::create) {
    w.base = mine.base;
    w.memory = mine.keeper;
  }
  w.backend = std::move(state);
  // Every rank has mapped everything: the names can go. (The memory is in place before: on
  // the am path a peer that leaves this barrier first may send an op at once.)
  RMA_TRY(rt_.p2p().barrier(c.lk));
  if (own_ctl) own_ctl->unlink();
  if (own_data) own_data->unlink();
  return Status::ok();
}

Status ShmBackend::map_peers(const core::Win& w, const std::vector<std::string>& told,
                             ShmWin& state) {
  const int n = w.ranks();
  state.peers.resize(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) {
    std::istringstream in(told[static_cast<std::size_t>(r)]);
    std::string name;
    std::size_t offset = 0;
    PeerMemory& pm = state.peers[static_cast<std::size_t>(r)];
    in >> name >> offset >> pm.address;
    pm.size = w.peers[static_cast<std::size_t>(r)].size;
    pm.disp_unit = w.peers[static_cast<std::size_t>(r)].disp_unit;
    if (name == "-") continue;  // a zero-size create window owns nothing to map
    auto seg = open(name);
    if (!seg) return seg.status();
    pm.base = static_cast<std::byte*>(seg.value()->data()) + offset;
    pm.keeper = std::shared_ptr<void>(seg.value(), pm.base);
  }
  return Status::ok();
}

void ShmBackend::hand_to_transport(const core::Win& w, ShmWin& state) {
  std::vector<PeerRange> ranges;
  for (int r = 0; r < w.ranks(); ++r) {
    const PeerMemory& pm = state.peers[static_cast<std::size_t>(r)];
    if (r != w.rank() && pm.address && pm.base && pm.size)
      ranges.push_back({r, pm.address, pm.size, pm.base});
  }
  if (!ranges.empty()) state.copy_ranges = map_peer_ranges(rt_.engine().transport(), ranges);
}

Status ShmBackend::set_up_control(ShmWin& state, const std::shared_ptr<Segment>& own,
                                  const std::string& prefix, const ControlLayout& layout,
                                  std::size_t region, int n) {
  if (own) {
    state.control = own;
  } else {
    auto ctl = Segment::open(prefix + ".ctl");
    if (!ctl) return ctl.status();
    state.control = std::make_shared<Segment>(std::move(ctl.value()));
  }
  state.layout = layout;
  state.region_size = region;
  state.tickets.assign(static_cast<std::size_t>(n), 0);
  return Status::ok();
}

}  // namespace

std::unique_ptr<core::Backend> make_backend(core::RuntimeImpl& rt) {
  return std::make_unique<ShmBackend>(rt);
}

}  // namespace rma::shm
