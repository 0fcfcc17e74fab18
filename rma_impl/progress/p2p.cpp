#include "progress/p2p.hpp"

#include <algorithm>
#include <cstring>

namespace rma::progress {
namespace {

// Local completion of one send: the packet (or the last fragment) has left.
struct SentFlag final : SendDone {
  bool flag = false;
  void sent() override { flag = true; }
};

std::uint32_t tag_bits(int tag) {
  return static_cast<std::uint32_t>(tag);
}
int tag_of(const PacketHeader& h) {
  return static_cast<int>(h.win);
}

std::string peer_text(const WaitInfo& w) {
  std::string s = std::string(w.what) + " " + std::to_string(w.peer);
  if (w.tag >= 0) return s + " tag " + std::to_string(w.tag);
  if (w.tag <= kTagBarrier && w.tag > kTagAllgather)
    return s + " (barrier round " + std::to_string(kTagBarrier - w.tag) + ")";
  return s + " (window setup)";
}

// What a point-to-point wait is for, formatted only if the wait lasts (WaitInfo::describe).
WaitInfo waiting(const char* what, int peer, int tag) {
  WaitInfo w{Ctx::any_call, what, peer};
  w.describe = peer_text;
  w.tag = tag;
  return w;
}

}  // namespace

struct P2p::RtsWait final : SendDone {
  bool cts = false;
  std::uint64_t receiver_id = 0;
  bool all_sent = false;
  void sent() override { all_sent = true; }
};

P2p::P2p(Engine& engine, BulkRegistry& bulk, std::size_t eager_limit)
    : e_(engine), bulk_(bulk), eager_limit_(eager_limit) {
  auto eager = [this](int src, const PacketHeader& h, std::span<const std::byte> p) {
    on_eager(src, h, p);
  };
  e_.on(PacketType::p2p_eager, eager);
  e_.on(PacketType::barrier, eager);
  e_.on(PacketType::collective, eager);
  e_.on(PacketType::p2p_rts,
        [this](int src, const PacketHeader& h, std::span<const std::byte>) { on_rts(src, h); });
  e_.on(PacketType::p2p_cts,
        [this](int, const PacketHeader& h, std::span<const std::byte>) { on_cts(h); });
}

P2p::Posted* P2p::match_posted(int src, int tag) {
  for (auto it = posted_.begin(); it != posted_.end(); ++it) {
    if ((*it)->src == src && (*it)->tag == tag) {
      Posted* p = *it;
      posted_.erase(it);
      return p;
    }
  }
  return nullptr;
}

void P2p::on_eager(int src, const PacketHeader& h, std::span<const std::byte> payload) {
  if (Posted* p = match_posted(src, tag_of(h))) {
    p->len = payload.size();
    if (p->grow)
      p->grow->assign(payload.begin(), payload.end());
    else if (p->buf)
      std::memcpy(p->buf, payload.data(), std::min(p->cap, payload.size()));
    p->done = true;
    return;
  }
  unexpected_.push_back(
      {src, tag_of(h), false, payload.size(), 0, {payload.begin(), payload.end()}});
}

void P2p::on_rts(int src, const PacketHeader& h) {
  if (Posted* p = match_posted(src, tag_of(h))) {
    accept_rts(src, h.count, h.cookie, p);
    return;
  }
  unexpected_.push_back({src, tag_of(h), true, h.count, h.cookie, {}});
}

void P2p::on_cts(const PacketHeader& h) {
  auto it = rts_waiting_.find(h.cookie);
  if (it == rts_waiting_.end()) return;
  it->second->cts = true;
  it->second->receiver_id = h.aux;
  rts_waiting_.erase(it);
}

void P2p::accept_rts(int src, std::uint64_t bytes, std::uint64_t sender_cookie, Posted* p) {
  if (p->grow) p->grow->resize(bytes);
  const std::uint64_t id = bulk_.expect(
      bytes,
      [p](std::uint64_t off, std::span<const std::byte> data) {
        std::byte* dst = p->grow ? p->grow->data() : p->buf;
        const std::size_t cap = p->grow ? p->grow->size() : p->cap;
        if (off >= cap) return;  // truncated: the tail is dropped, recv reports TRUNCATE
        std::memcpy(dst + off, data.data(), std::min<std::size_t>(data.size(), cap - off));
      },
      [p, bytes] {
        p->len = bytes;
        p->done = true;
      });
  PacketHeader cts = make_header(PacketType::p2p_cts);
  cts.cookie = sender_cookie;
  cts.aux = id;
  e_.send(src, cts);
}

Status P2p::send(EngineLock& lk, int dst, const void* buf, std::size_t bytes, int tag,
                 PacketType type) {
  const auto data = std::span<const std::byte>(static_cast<const std::byte*>(buf), bytes);
  const WaitInfo what = waiting("sending to", dst, tag);
  if (bytes <= eager_limit_) {
    PacketHeader h = make_header(type);
    h.win = tag_bits(tag);
    h.count = bytes;
    SentFlag done;
    e_.send_ref(dst, h, data, &done);
    return e_.wait_until(
        lk, [&] { return done.flag; }, what);
  }
  RtsWait w;
  const std::uint64_t id = next_cookie_++;
  rts_waiting_[id] = &w;
  PacketHeader rts = make_header(PacketType::p2p_rts);
  rts.win = tag_bits(tag);
  rts.count = bytes;
  rts.cookie = id;
  e_.send(dst, rts);
  Status s = e_.wait_until(
      lk, [&] { return w.cts; }, waiting("p2p_cts from", dst, tag));
  if (!s) {
    rts_waiting_.erase(id);
    return s;
  }
  PacketHeader frag = make_header(PacketType::data);
  frag.cookie = w.receiver_id;
  e_.send_stream(dst, frag, data, &w);
  return e_.wait_until(
      lk, [&] { return w.all_sent; }, what);
}

Status P2p::recv(EngineLock& lk, int src, void* buf, std::size_t bytes, int tag,
                 std::size_t* received) {
  return receive(lk, src, static_cast<std::byte*>(buf), bytes, nullptr, tag, received);
}

Status P2p::receive(EngineLock& lk, int src, std::byte* buf, std::size_t cap,
                    std::vector<std::byte>* grow, int tag, std::size_t* received) {
  Posted p{src, tag, buf, cap, grow};
  auto it = std::find_if(unexpected_.begin(), unexpected_.end(),
                         [&](const Unexpected& u) { return u.src == src && u.tag == tag; });
  if (it != unexpected_.end()) {
    Unexpected u = std::move(*it);
    unexpected_.erase(it);
    if (u.rts) {
      accept_rts(src, u.bytes, u.sender_cookie, &p);
    } else {
      p.len = u.data.size();
      if (grow)
        *grow = std::move(u.data);
      else if (buf)
        std::memcpy(buf, u.data.data(), std::min(cap, u.data.size()));
      p.done = true;
    }
  } else {
    posted_.push_back(&p);
  }
  Status s = e_.wait_until(
      lk, [&] { return p.done; }, waiting("message from", src, tag));
  if (!s) {
    std::erase(posted_, &p);
    return s;
  }
  if (received) *received = p.len;
  if (!grow && p.len > cap)
    return {ErrorClass::truncate, "recv: message from " + std::to_string(src) + " tag " +
                                      std::to_string(tag) + " has " + std::to_string(p.len) +
                                      " bytes, the buffer " + std::to_string(cap)};
  return Status::ok();
}

Status P2p::barrier(EngineLock& lk) {
  const int n = e_.size();
  const int r = e_.rank();
  int round = 0;
  for (int k = 1; k < n; k <<= 1, ++round) {
    RMA_TRY(send(lk, (r + k) % n, nullptr, 0, kTagBarrier - round, PacketType::barrier));
    RMA_TRY(recv(lk, (r - k + n) % n, nullptr, 0, kTagBarrier - round, nullptr));
  }
  return Status::ok();
}

Result<std::vector<std::string>> P2p::allgather(EngineLock& lk, const std::string& mine) {
  const int n = e_.size();
  const int r = e_.rank();
  std::vector<std::string> all(static_cast<std::size_t>(n));
  all[static_cast<std::size_t>(r)] = mine;
  std::vector<std::byte> packed;
  if (r == 0) {
    for (int src = 1; src < n; ++src) {
      std::vector<std::byte> got;
      RMA_TRY(receive(lk, src, nullptr, 0, &got, kTagAllgather, nullptr));
      all[static_cast<std::size_t>(src)].assign(reinterpret_cast<const char*>(got.data()),
                                                got.size());
    }
    for (const auto& s : all) {
      auto len = static_cast<std::uint32_t>(s.size());
      const auto* lb = reinterpret_cast<const std::byte*>(&len);
      packed.insert(packed.end(), lb, lb + sizeof len);
      const auto* sb = reinterpret_cast<const std::byte*>(s.data());
      packed.insert(packed.end(), sb, sb + s.size());
    }
    for (int dst = 1; dst < n; ++dst)
      RMA_TRY(
          send(lk, dst, packed.data(), packed.size(), kTagAllgather - 1, PacketType::collective));
    return all;
  }
  RMA_TRY(send(lk, 0, mine.data(), mine.size(), kTagAllgather, PacketType::collective));
  RMA_TRY(receive(lk, 0, nullptr, 0, &packed, kTagAllgather - 1, nullptr));
  std::size_t at = 0;
  for (int i = 0; i < n; ++i) {
    std::uint32_t len = 0;
    if (at + sizeof len > packed.size()) return Status{ErrorClass::intern, "allgather: short"};
    std::memcpy(&len, packed.data() + at, sizeof len);
    at += sizeof len;
    if (at + len > packed.size()) return Status{ErrorClass::intern, "allgather: short"};
    all[static_cast<std::size_t>(i)].assign(reinterpret_cast<const char*>(packed.data() + at), len);
    at += len;
  }
  return all;
}

std::string P2p::describe() const {
  std::string s;
  for (const Posted* p : posted_) {
    if (!s.empty()) s += "; ";
    s += peer_text(waiting("posted recv from", p->src, p->tag));
  }
  if (!unexpected_.empty()) {
    if (!s.empty()) s += "; ";
    s += std::to_string(unexpected_.size()) + " unexpected message(s)";
  }
  return s;
}

}  // namespace rma::progress
