// The checks that keep every table complete, and what Win needs beyond data.
#include "core/window_ops.hpp"

#include "core/runtime_impl.hpp"

namespace rma::core {

OpSlot op_slot(PacketType kind) {
  switch (kind) {
    case PacketType::get:
      return &WindowOps::get;
    case PacketType::accumulate:
      return &WindowOps::accumulate;
    case PacketType::get_accumulate:
      return &WindowOps::get_accumulate;
    case PacketType::fetch_and_op:
      return &WindowOps::fetch_and_op;
    case PacketType::compare_and_swap:
      return &WindowOps::compare_and_swap;
    default:
      return &WindowOps::put;
  }
}

std::vector<std::string> empty_slots(const WindowOps& t) {
  std::vector<std::string> out;
#define RMA_CHECK_SLOT(s) \
  if (!t.s) out.emplace_back(#s);
  RMA_WINDOW_SLOTS(RMA_CHECK_SLOT)
#undef RMA_CHECK_SLOT
  return out;
}

std::vector<std::string> overridden_slots(const WindowOps& t, const WindowOps& base) {
  std::vector<std::string> out;
#define RMA_DIFF_SLOT(s) \
  if (t.s != base.s) out.emplace_back(#s);
  RMA_WINDOW_SLOTS(RMA_DIFF_SLOT)
#undef RMA_DIFF_SLOT
  return out;
}

// --- Win ----------------------------------------------------------------------------------------

Win::Win(RuntimeImpl& r, std::uint32_t window_id, Flavor f)
    : rt(r),
      engine(r.engine()),
      id(window_id),
      flavor(f),
      epochs(static_cast<int>(window_id), r.size()),
      locks(r.size()) {}

Win::~Win() = default;

int Win::rank() const {
  return rt.rank();
}
int Win::ranks() const {
  return rt.size();
}

std::span<const int> Win::all_ranks() const {
  if (all_ranks_.size() != static_cast<std::size_t>(ranks())) {
    all_ranks_.resize(static_cast<std::size_t>(ranks()));
    for (int i = 0; i < ranks(); ++i) all_ranks_[static_cast<std::size_t>(i)] = i;
  }
  return all_ranks_;
}

WindowState Win::state() const {
  WindowState s;
  s.id = static_cast<int>(id);
  s.flavor = std::string(to_string(flavor));
  s.path = ops ? ops->name : "none";
  s.access_epoch = std::string(to_string(epochs.access()));
  s.exposure_epoch = std::string(to_string(epochs.exposure()));
  if (am) am->describe(s);
  if (backend) backend->describe(s);
  return s;
}

std::unique_ptr<rma::Window> Win::wrap(std::unique_ptr<Win> w) {
  return std::unique_ptr<rma::Window>(new rma::Window(std::move(w)));
}

rma::Request Win::make_request(std::shared_ptr<RequestState> s) {
  return rma::Request(std::move(s));
}

}  // namespace rma::core
