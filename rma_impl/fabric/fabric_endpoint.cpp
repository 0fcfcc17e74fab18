// Opening a rank's endpoint: the provider entry (loopback or not), the fabric objects, the
// completion queue's wait object, and memory registration in the provider's MR mode.
#include "fabric/fabric_endpoint.hpp"

#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>

#include <cstring>
#include <string_view>

namespace rma::fabric {
namespace {

constexpr std::uint64_t kMrModes =
    FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT;

bool is_loopback(const fi_info* i) {
  return i->domain_attr && i->domain_attr->name && std::string_view(i->domain_attr->name) == "lo";
}

// On one host, the loopback interface (IPv4 first); across hosts, anything but loopback.
// Providers without interfaces (shm) have one entry, taken as it is.
fi_info* choose(fi_info* list, bool loopback) {
  for (int pass = 0; pass < 2; ++pass)
    for (fi_info* i = list; i; i = i->next)
      if (is_loopback(i) == loopback && (pass == 1 || i->addr_format == FI_SOCKADDR_IN)) return i;
  return list;
}

constexpr std::uint64_t kAtomicOrder =
    FI_ORDER_ATOMIC_RAR | FI_ORDER_ATOMIC_RAW | FI_ORDER_ATOMIC_WAR | FI_ORDER_ATOMIC_WAW;

fi_info* make_hints(const Api& api, const std::string& provider, std::uint64_t caps, int ordered) {
  fi_info* h = api.dupinfo(nullptr);
  if (!h) return nullptr;
  h->ep_attr->type = FI_EP_RDM;
  h->caps = caps;
  h->mode = FI_CONTEXT | FI_CONTEXT2;
  h->domain_attr->mr_mode = static_cast<int>(kMrModes);
  h->domain_attr->threading = FI_THREAD_SAFE;
  h->fabric_attr->prov_name = ::strdup(provider.c_str());
  if (ordered) {
    const std::uint64_t order = FI_ORDER_SAS | (ordered >= 2 ? kAtomicOrder : 0);
    h->tx_attr->msg_order = order;
    h->rx_attr->msg_order = order;
  }
  return h;
}

// Whether fi_cq_sread on `cq` blocks on something that wakes it. `opened` is the wait
// object fi_cq_open left in the attributes. One that only yields (FI_WAIT_YIELD, the shm
// provider's, written back there) spins inside fi_cq_sread and may not honour the timeout:
// then naps are better. Some providers keep a wait object they do not name: ofi_rxd answers
// FI_GETWAITOBJ with ENOSYS, yet its fi_cq_sread blocks on the datagram provider's descriptor
// and runs the reliability protocol whenever a datagram lands, remote writes included. An
// empty read that times out, rather than failing with ENOSYS, says such a wait object is there.
bool sread_blocks(fid_cq* cq, fi_wait_obj opened) {
  if (opened == FI_WAIT_YIELD || opened == FI_WAIT_NONE) return false;
  fi_wait_obj obj = FI_WAIT_NONE;
  const int rc = fi_control(&cq->fid, FI_GETWAITOBJ, &obj);
  if (rc == 0) return obj != FI_WAIT_YIELD && obj != FI_WAIT_NONE;
  if (rc != -FI_ENOSYS) return false;
  fi_cq_msg_entry e;
  const ssize_t n = fi_cq_sread(cq, &e, 1, nullptr, 0);
  return n == -FI_EAGAIN || n == -FI_ETIMEDOUT;
}

}  // namespace

const char* to_string(WaitMode m) {
  switch (m) {
    case WaitMode::fd:
      return "fd";
    case WaitMode::sread:
      return "sread";
    case WaitMode::none:
      return "none";
  }
  return "?";
}

Result<std::unique_ptr<Endpoint>> Endpoint::open(const Api& api, const EndpointOptions& o) {
  std::unique_ptr<Endpoint> e(new Endpoint(api));
  const std::uint64_t wanted[] = {FI_MSG | FI_RMA | FI_ATOMIC, FI_MSG | FI_RMA, FI_MSG};
  int last_rc = 0;
  for (std::uint64_t caps : wanted) {
    for (int ordered : {2, 1, 0}) {
      if (ordered == 2 && !(caps & FI_ATOMIC)) continue;
      fi_info* hints = make_hints(api, o.provider, caps, ordered);
      if (!hints) return Status{ErrorClass::other, "fi_dupinfo: out of memory"};
      fi_info* list = nullptr;
      last_rc = api.getinfo(kApiVersion, nullptr, nullptr, 0, hints, &list);
      api.freeinfo(hints);
      if (last_rc != 0) continue;
      e->info_ = api.dupinfo(choose(list, o.loopback));
      api.freeinfo(list);
      if (!e->info_) return Status{ErrorClass::other, "fi_dupinfo: out of memory"};
      e->ordered_ = ordered;
      RMA_TRY(e->open_queues(o));
      return e;
    }
  }
  return Status{ErrorClass::unsupported, "fabric provider '" + o.provider +
                                             "' offers no reliable-datagram endpoint here (" +
                                             error_text("fi_getinfo", last_rc) + ")"};
}

Endpoint::~Endpoint() {
  ep_.reset();
  remote_access_.reset();
  av_.reset();
  cq_.reset();
  domain_.reset();
  fabric_.reset();
  if (info_) api_.freeinfo(info_);
}

Status Endpoint::open_queues(const EndpointOptions& o) {
  if (int rc = api_.fabric(info_->fabric_attr, fabric_.out(), nullptr))
    return Status{ErrorClass::other, error_text("fi_fabric", rc)};
  if (int rc = fi_domain(fabric_.get(), info_, domain_.out(), nullptr))
    return Status{ErrorClass::other, error_text("fi_domain", rc)};

  // The best wait object the provider has: a file descriptor we can epoll together with our
  // own wake-up eventfds; else whatever fi_cq_sread blocks on; else none.
  fi_cq_attr cq{};
  cq.format = FI_CQ_FORMAT_MSG;
  cq.size = o.cq_size;
  cq.wait_obj = FI_WAIT_FD;
  if (fi_cq_open(domain_.get(), &cq, cq_.out(), nullptr) == 0 &&
      fi_control(&cq_.get()->fid, FI_GETWAIT, &wait_fd_) == 0 && wait_fd_ >= 0) {
    wait_mode_ = WaitMode::fd;
  } else {
    wait_fd_ = -1;
    cq_.reset();
    cq.wait_obj = FI_WAIT_UNSPEC;
    cq.wait_cond = FI_CQ_COND_NONE;
    if (fi_cq_open(domain_.get(), &cq, cq_.out(), nullptr) == 0 &&
        sread_blocks(cq_.get(), cq.wait_obj)) {
      wait_mode_ = WaitMode::sread;
    } else {
      cq_.reset();
      cq.wait_obj = FI_WAIT_NONE;
      if (int rc = fi_cq_open(domain_.get(), &cq, cq_.out(), nullptr))
        return Status{ErrorClass::other, error_text("fi_cq_open", rc)};
      wait_mode_ = WaitMode::none;
    }
  }

  fi_av_attr av{};
  av.type = FI_AV_TABLE;
  av.count = o.av_size;
  if (int rc = fi_av_open(domain_.get(), &av, av_.out(), nullptr))
    return Status{ErrorClass::other, error_text("fi_av_open", rc)};
  if (int rc = fi_endpoint(domain_.get(), info_, ep_.out(), nullptr))
    return Status{ErrorClass::other, error_text("fi_endpoint", rc)};
  if (int rc = fi_ep_bind(ep_.get(), &cq_.get()->fid, FI_TRANSMIT | FI_RECV))
    return Status{ErrorClass::other, error_text("fi_ep_bind(cq)", rc)};
  if (int rc = fi_ep_bind(ep_.get(), &av_.get()->fid, 0))
    return Status{ErrorClass::other, error_text("fi_ep_bind(av)", rc)};
  count_remote_access();
  if (int rc = fi_enable(ep_.get())) return Status{ErrorClass::other, error_text("fi_enable", rc)};
  return Status::ok();
}

// In sread mode a target asleep inside the provider answers a peer's put or get with no
// completion to wake its wait loop, which then sleeps through the next one too: every remote
// access after the first pays a kernel wake-up (docs/protocol.md, "Progress"). A counter of
// remote accesses (FI_RMA_EVENT, which ofi_rxd offers) lets the wait loop see that traffic.
// Bound after the queues, before fi_enable; where the provider refuses it, none.
void Endpoint::count_remote_access() {
  if (!(info_->caps & FI_RMA_EVENT) || wait_mode_ != WaitMode::sread) return;
  fi_cntr_attr attr{};
  attr.events = FI_CNTR_EVENTS_COMP;
  attr.wait_obj = FI_WAIT_NONE;
  if (fi_cntr_open(domain_.get(), &attr, remote_access_.out(), nullptr) != 0 ||
      fi_ep_bind(ep_.get(), &remote_access_.get()->fid, FI_REMOTE_WRITE | FI_REMOTE_READ) != 0)
    remote_access_.reset();
}

std::uint64_t Endpoint::remote_accesses() const {
  return remote_access_ ? fi_cntr_read(remote_access_.get()) : 0;
}

std::string Endpoint::provider() const {
  return info_->fabric_attr->prov_name ? info_->fabric_attr->prov_name : "?";
}

std::string Endpoint::domain_name() const {
  return info_->domain_attr->name ? info_->domain_attr->name : "?";
}

bool Endpoint::has_rma() const {
  return (info_->caps & FI_RMA) != 0;
}
bool Endpoint::has_atomics() const {
  return (info_->caps & FI_ATOMIC) != 0;
}
bool Endpoint::local_mr() const {
  return (static_cast<std::uint64_t>(info_->domain_attr->mr_mode) & FI_MR_LOCAL) != 0;
}
bool Endpoint::manual_progress() const {
  return info_->domain_attr->data_progress == FI_PROGRESS_MANUAL;
}

Result<std::string> Endpoint::name() const {
  std::string out(256, '\0');
  std::size_t len = out.size();
  int rc = fi_getname(&ep_.get()->fid, out.data(), &len);
  if (rc == -FI_ETOOSMALL) {
    out.resize(len);
    rc = fi_getname(&ep_.get()->fid, out.data(), &len);
  }
  if (rc) return Status{ErrorClass::other, error_text("fi_getname", rc)};
  out.resize(len);
  return out;
}

Status Endpoint::insert(const std::vector<std::string>& names, std::vector<fi_addr_t>& out) {
  out.assign(names.size(), FI_ADDR_NOTAVAIL);
  for (std::size_t r = 0; r < names.size(); ++r) {
    const int n = fi_av_insert(av_.get(), names[r].data(), 1, &out[r], 0, nullptr);
    if (n != 1)
      return Status{ErrorClass::other, "fi_av_insert: rank " + std::to_string(r) +
                                           "'s address was refused (" + std::to_string(n) + ")"};
  }
  return Status::ok();
}

Result<MemoryRegion> Endpoint::register_memory(void* base, std::size_t len, std::uint64_t access) {
  const auto mode = static_cast<std::uint64_t>(info_->domain_attr->mr_mode);
  MemoryRegion m;
  // Without provider keys, keys are ours to choose and must be unique in the domain.
  const std::uint64_t key = (mode & FI_MR_PROV_KEY) ? 0 : next_key_++;
  if (int rc = fi_mr_reg(domain_.get(), base, len, access, 0, key, 0, m.mr_.out(), nullptr))
    return Status{ErrorClass::other, error_text("fi_mr_reg", rc)};
  if (mode & FI_MR_ENDPOINT) {
    if (int rc = fi_mr_bind(m.mr_.get(), &ep_.get()->fid, 0))
      return Status{ErrorClass::other, error_text("fi_mr_bind", rc)};
    if (int rc = fi_mr_enable(m.mr_.get()))
      return Status{ErrorClass::other, error_text("fi_mr_enable", rc)};
  }
  m.desc_ = fi_mr_desc(m.mr_.get());
  m.key_ = fi_mr_key(m.mr_.get());
  m.remote_base_ = (mode & FI_MR_VIRT_ADDR) ? reinterpret_cast<std::uint64_t>(base) : 0;
  return m;
}

}  // namespace rma::fabric
