// mpi_impl_check.cpp — checks mpi_impl.cpp on a real MPI without the Lua layer:
// run under the library's launcher with 2 ranks (ctest does: `mpi_impl_check_<mpi>`), it
// executes calls through Implementation::execute() and compares what arrived with what was
// sent. Exit 0 when every check held on this rank; each failed check prints rank and line.
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "mpi/mpi_impl.hpp"

namespace {

using harness::call::Call;
using harness::call::Kind;
using harness::impl::Implementation;
using harness::impl::Outcome;
using harness::impl::Window;

int g_failed = 0;
int g_rank = -1;

#define CHECK(cond, what)                                                                    \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      std::fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", g_rank, __FILE__, __LINE__, \
                   std::string(what).c_str());                                               \
      ++g_failed;                                                                            \
    }                                                                                        \
  } while (0)

// Runs a call that must succeed.
void ok(Implementation& impl, const Call& c, Outcome* out = nullptr) {
  const rma::Status s = impl.execute(c, out);
  CHECK(s.is_ok(), s.to_string());
}

Call win_call(Kind k, Window* w, int target = 0) {
  Call c;
  c.kind = k;
  c.win = w;
  c.target = target;
  return c;
}

void barrier(Implementation& impl) {
  ok(impl, Call{});
}  // Kind::barrier is the default

Call data_call(Kind k, Window* w, int target, std::uint64_t disp, std::int64_t* origin,
               std::int64_t* result, std::size_t count, rma::Op op = rma::Op::replace) {
  Call c = win_call(k, w, target);
  c.origin = origin;
  c.result = result;
  c.count = count;
  c.dtype = rma::Dtype::i64;
  c.disp = disp;
  c.op = op;
  return c;
}

void check_passive(Implementation& impl, Window* w) {
  const int me = impl.rank();
  auto* mem = static_cast<std::int64_t*>(w->base());
  for (int i = 0; i < 8; ++i) mem[i] = 0;
  barrier(impl);
  // Rank 0 puts 8 values into rank 1 under an exclusive lock; rank 1 gets them back from 0.
  std::int64_t src[8], back[8] = {};
  for (int i = 0; i < 8; ++i) src[i] = 100 + i;
  if (me == 0) {
    Call lk = win_call(Kind::lock, w, 1);
    ok(impl, lk);
    CHECK(w->passive_access(), "passive_access inside lock");
    ok(impl, data_call(Kind::put, w, 1, 0, src, nullptr, 8));
    ok(impl, win_call(Kind::unlock, w, 1));
    CHECK(!w->passive_access(), "no passive_access after unlock");
  }
  barrier(impl);
  if (me == 1) {
    for (int i = 0; i < 8; ++i)
      CHECK(mem[i] == 100 + i, "put arrived at element " + std::to_string(i));
    Call lk = win_call(Kind::lock, w, 0);
    lk.lock_type = rma::LockType::shared;
    ok(impl, lk);
    ok(impl, data_call(Kind::get, w, 0, 0, nullptr, back, 8));
    ok(impl, win_call(Kind::unlock, w, 0));
    for (int i = 0; i < 8; ++i) CHECK(back[i] == 0, "get read rank 0's zeros");
  }
  barrier(impl);
  // Both ranks accumulate into rank 0's element 1 and fetch-and-add its element 2; then
  // compare-and-swap element 3 from 0 to 7 (only one rank can win).
  std::int64_t three = 3, got = -1, seven = 7, zero = 0;
  std::int64_t mine = 10 + me;
  ok(impl, win_call(Kind::lock, w, 0));
  ok(impl, data_call(Kind::accumulate, w, 0, 8, &three, nullptr, 1, rma::Op::sum));
  ok(impl, data_call(Kind::fetch_and_op, w, 0, 16, &mine, &got, 1, rma::Op::sum));
  ok(impl, win_call(Kind::unlock, w, 0));
  CHECK(got == 0 || got == 10 || got == 11, "fetch_and_op old value " + std::to_string(got));
  std::int64_t cas_old = -1;
  Call cas = data_call(Kind::compare_and_swap, w, 0, 24, &seven, &cas_old, 1);
  cas.compare = &zero;
  ok(impl, win_call(Kind::lock, w, 0));
  ok(impl, cas);
  ok(impl, win_call(Kind::unlock, w, 0));
  CHECK(cas_old == 0 || cas_old == 7, "compare_and_swap old value " + std::to_string(cas_old));
  barrier(impl);
  if (me == 0) {
    CHECK(mem[1] == 6, "accumulate sum from both ranks: " + std::to_string(mem[1]));
    CHECK(mem[2] == 21, "fetch_and_op sum from both ranks: " + std::to_string(mem[2]));
    CHECK(mem[3] == 7, "compare_and_swap swapped once: " + std::to_string(mem[3]));
  }
  barrier(impl);
}

void check_active(Implementation& impl, Window* w) {
  const int me = impl.rank(), peer = 1 - me;
  auto* mem = static_cast<std::int64_t*>(w->base());
  std::int64_t v = 500 + me;
  // Fence: each rank puts its value into the other's element 4.
  ok(impl, win_call(Kind::fence, w));
  ok(impl, data_call(Kind::put, w, peer, 32, &v, nullptr, 1));
  Call closing = win_call(Kind::fence, w);
  closing.asserts = rma::assert_nosucceed;
  ok(impl, closing);
  CHECK(mem[4] == 500 + peer, "fence put from the peer");
  // PSCW: rank 0 is the origin, rank 1 the target (post, then test until done).
  std::int64_t p = 900;
  if (me == 0) {
    Call st = win_call(Kind::start, w);
    st.group = {1};
    ok(impl, st);
    ok(impl, data_call(Kind::put, w, 1, 40, &p, nullptr, 1));
    ok(impl, win_call(Kind::complete, w));
  } else {
    Call po = win_call(Kind::post, w);
    po.group = {0};
    ok(impl, po);
    ok(impl, win_call(Kind::wait, w));
    CHECK(mem[5] == 900, "pscw put arrived");
  }
  barrier(impl);
  // Request-based: rput under lock_all, waited on.
  std::int64_t r = 1234 + me;
  ok(impl, win_call(Kind::lock_all, w));
  Outcome out;
  ok(impl, data_call(Kind::rput, w, peer, 48, &r, nullptr, 1), &out);
  CHECK(out.request != nullptr, "rput returns a request");
  if (out.request) {
    const rma::Status s = out.request->wait();
    CHECK(s.is_ok(), s.to_string());
  }
  ok(impl, win_call(Kind::flush_all, w));
  ok(impl, win_call(Kind::unlock_all, w));
  barrier(impl);
  CHECK(mem[6] == 1234 + peer, "rput arrived");
}

void check_errors(Implementation& impl, Window* w) {
  // Unlock without a lock is erroneous; MPI_ERRORS_RETURN gives its class back.
  rma::Status s = impl.execute(win_call(Kind::unlock, w, 1 - impl.rank()));
  CHECK(!s.is_ok(), "unlock without lock fails");
  CHECK(s.error_class() == rma::ErrorClass::rma_sync,
        "unlock without lock is RMA_SYNC, got " + s.to_string());
  CHECK(s.message().find("MPI_Win_unlock") != std::string::npos, "message names the call");
  barrier(impl);
}

void check_state(Implementation& impl, Window* w) {
  const rma::RankState st = impl.state();
  CHECK(st.call.call.empty(), "no call in progress between calls: " + st.call.call);
  CHECK(st.rank == impl.rank(), "state names the rank");
  bool listed = false;
  for (const auto& ws : st.windows) listed |= ws.id == w->id() && ws.access_epoch == "none";
  CHECK(listed, "state lists the window with no epoch");
  CHECK(!impl.counters().has_value(), "packet counts are not observable");
}

void check_shared_and_dynamic(Implementation& impl) {
  rma::WindowConfig sc;
  sc.flavor = rma::Flavor::shared;
  sc.size = 64;
  auto sw = impl.create_window(sc);
  CHECK(sw.is_ok(), sw.status().to_string());
  if (sw) {
    Window* w = *sw;
    static_cast<std::int64_t*>(w->base())[0] = 77 + impl.rank();
    barrier(impl);
    ok(impl, win_call(Kind::lock_all, w));
    ok(impl, win_call(Kind::sync, w));
    auto region = w->shared_query(1 - impl.rank());
    CHECK(region.is_ok(), region.status().to_string());
    if (region) {
      CHECK(region.value().size == 64, "shared_query size");
      CHECK(static_cast<std::int64_t*>(region.value().base)[0] == 77 + (1 - impl.rank()),
            "shared_query sees the peer's memory");
    }
    ok(impl, win_call(Kind::unlock_all, w));
    ok(impl, win_call(Kind::free, w));
    CHECK(w->freed(), "freed after free");
    rma::Status again = impl.execute(win_call(Kind::fence, w));
    CHECK(again.error_class() == rma::ErrorClass::win,
          "a freed window is WIN: " + again.to_string());
  }
  rma::WindowConfig dc;
  dc.flavor = rma::Flavor::dynamic;
  auto dw = impl.create_window(dc);
  CHECK(dw.is_ok(), dw.status().to_string());
  if (dw) {
    Window* w = *dw;
    std::vector<std::int64_t> mem(4, 0);
    Call at = win_call(Kind::attach, w);
    at.origin = mem.data();
    at.bytes = mem.size() * sizeof(std::int64_t);
    ok(impl, at);
    // Exchange the addresses with send/recv, as the scripts do.
    std::uint64_t addr = reinterpret_cast<std::uintptr_t>(mem.data()), peer_addr = 0;
    Call send, recv;
    send.kind = Kind::send;
    send.origin = &addr;
    recv.kind = Kind::recv;
    recv.result = &peer_addr;
    send.bytes = recv.bytes = sizeof addr;
    send.target = recv.target = 1 - impl.rank();
    send.tag = recv.tag = 5;
    if (impl.rank() == 0) {
      ok(impl, send);
      ok(impl, recv);
    } else {
      ok(impl, recv);
      ok(impl, send);
    }
    std::int64_t v = 4242;
    ok(impl, win_call(Kind::lock, w, 1 - impl.rank()));
    ok(impl, data_call(Kind::put, w, 1 - impl.rank(), peer_addr + 8, &v, nullptr, 1));
    ok(impl, win_call(Kind::unlock, w, 1 - impl.rank()));
    barrier(impl);
    CHECK(mem[1] == 4242, "put into attached memory of a dynamic window");
    Call de = win_call(Kind::detach, w);
    de.origin = mem.data();
    ok(impl, de);
    ok(impl, win_call(Kind::free, w));
  }
}

// The plain-C loops the bench times beside a replay: every sync mode and flavor opens, runs
// and closes on both ranks (collective); a configuration the loops do not know is refused
// with the reason on both ranks, and the job goes on.
void check_plain_loops(Implementation& impl) {
  for (const char* sync : {"lock", "lock_all", "flush", "flush_local", "fence", "pscw"}) {
    for (const char* flavor : {"create", "allocate", "shared", "dynamic"}) {
      harness::impl::PlainPattern p{"latency", "put", sync, flavor, 8};
      auto loop = impl.plain_loop(p);
      CHECK(loop.is_ok(), std::string(sync) + "/" + flavor + ": " + loop.status().to_string());
      if (!loop) continue;
      const bool active = loop.value()->active();
      CHECK(active ==
                (impl.rank() == 0 || std::string(sync) == "fence" || std::string(sync) == "pscw"),
            std::string(sync) + ": active");
      barrier(impl);
      if (active) {
        const rma::Status s = loop.value()->run(10);
        CHECK(s.is_ok(), std::string(sync) + "/" + flavor + ": " + s.to_string());
      }
      barrier(impl);
    }  // the loop closes here, on both ranks
  }
  for (const char* op :
       {"get", "accumulate", "get_accumulate", "fetch_and_op", "compare_and_swap"}) {
    auto loop = impl.plain_loop({"latency", op, "lock", "allocate", 64});
    CHECK(loop.is_ok(), std::string(op) + ": " + loop.status().to_string());
    if (loop && loop.value()->active()) CHECK(loop.value()->run(3).is_ok(), op);
    barrier(impl);
  }
  {
    auto pingpong = impl.plain_loop({"pingpong", "", "", "", 4096});
    CHECK(pingpong.is_ok(), "pingpong: " + pingpong.status().to_string());
    if (pingpong) CHECK(pingpong.value()->active() && pingpong.value()->run(5).is_ok(), "pingpong");
  }  // closed on both ranks
  auto refused = impl.plain_loop({"latency", "put", "lock", "allocate", 0});
  CHECK(!refused.is_ok() && refused.status().error_class() == rma::ErrorClass::unsupported &&
            refused.status().message().find("size") != std::string::npos,
        "size 0 refused with its reason");
  refused = impl.plain_loop({"latency", "put", "no_such_sync", "allocate", 8});
  CHECK(!refused.is_ok() && refused.status().message().find("sync") != std::string::npos,
        "an unknown sync refused with its reason");
  barrier(impl);
}

// The address space this process holds now, bytes (0 if /proc cannot tell).
std::uint64_t address_space_now() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t pages = 0;
  statm >> pages;
  return pages * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

// A loop whose memory only one rank gets: rank 1 opens it under an address-space limit that
// leaves room for MPI's own small allocations but not for 256 MiB of buffers. Both ranks must
// come back refused (rank 1 out of memory, rank 0 told the other rank failed) without either
// entering the window's collective creation: the barrier after it would hang otherwise.
void check_plain_loop_memory_on_one_rank(Implementation& impl) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return;  // a sanitizer's allocator has reserved its heap: a limit would not bite
#else
  constexpr std::uint64_t kRoom = 64 << 20;
  rlimit before{};
  const bool limited =
      impl.rank() == 1 && getrlimit(RLIMIT_AS, &before) == 0 && address_space_now() > 0;
  if (limited) {
    rlimit tight = before;
    tight.rlim_cur = address_space_now() + kRoom;
    if (before.rlim_cur != RLIM_INFINITY && before.rlim_cur < tight.rlim_cur)
      tight.rlim_cur = before.rlim_cur;
    CHECK(setrlimit(RLIMIT_AS, &tight) == 0, "setrlimit");
  }
  auto loop = impl.plain_loop({"latency", "put", "lock", "allocate", 256 << 20});
  if (limited) CHECK(setrlimit(RLIMIT_AS, &before) == 0, "setrlimit back");
  CHECK(!loop.is_ok(), "a loop whose memory rank 1 could not get was refused");
  if (!loop.is_ok()) {
    const std::string why = loop.status().message();
    CHECK(why.find(impl.rank() == 1 ? "out of memory" : "failed on the other rank") !=
              std::string::npos,
          "the reason: " + why);
  }
  barrier(impl);
#endif
}

}  // namespace

int main() {
  harness::mpi::MpiOptions opts;
  if (const char* osc = std::getenv("OMPI_MCA_osc")) opts.osc = osc;
  auto made = harness::mpi::make_mpi_implementation(opts);
  if (!made) {
    std::fprintf(stderr, "%s\n", made.status().to_string().c_str());
    return 2;
  }
  Implementation& impl = *made.value();
  g_rank = impl.rank();
  if (impl.size() != 2) {
    std::fprintf(stderr, "run with 2 ranks\n");
    return 2;
  }
  const std::string name = impl.name();
  CHECK(name.rfind("mpich ", 0) == 0 || name.rfind("openmpi ", 0) == 0, "name " + name);

  rma::WindowConfig cfg;
  cfg.flavor = rma::Flavor::allocate;
  cfg.size = 64;
  cfg.disp_unit = 1;
  cfg.info = {{"accumulate_ordering", "rar,raw,war,waw"}};
  auto win = impl.create_window(cfg);
  CHECK(win.is_ok(), win.status().to_string());
  if (win) {
    check_state(impl, *win);
    check_passive(impl, *win);
    check_active(impl, *win);
    check_errors(impl, *win);
  }
  check_shared_and_dynamic(impl);
  check_plain_loops(impl);
  check_plain_loop_memory_on_one_rank(impl);
  const rma::Status fin = harness::mpi::finalize_mpi(impl);
  CHECK(fin.is_ok(), fin.to_string());
  if (g_rank == 0) std::printf("%s: %s\n", name.c_str(), g_failed ? "FAILED" : "all checks held");
  return g_failed ? 1 : 0;
}
