// fake_implementation.hpp — for unit tests: an Implementation that executes nothing and logs
// the calls it is given (by name, and the calls themselves), with a chosen call failing,
// counters that may be absent (as an MPI library's are) and windows that hold no memory.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "impl/implementation.hpp"

namespace harness::impl {

class FakeWindow final : public Window {
 public:
  bool passive = false;  // what passive_access() says

  int id() const override { return 7; }
  rma::Flavor flavor() const override { return rma::Flavor::allocate; }
  std::string path() const override { return "fake"; }
  std::string path_detail() const override { return "fake"; }
  void* base() const override { return nullptr; }
  std::size_t size() const override { return 0; }
  bool freed() const override { return false; }
  bool passive_access() const override { return passive; }
  std::shared_ptr<void> memory_keeper() const override { return nullptr; }
  rma::Result<rma::SharedRegion> shared_query(int) override {
    return rma::Status{rma::ErrorClass::unsupported, "fake: no memory"};
  }
  std::optional<rma::Counters> counters() const override { return std::nullopt; }
};

class FakeImplementation final : public Implementation {
 public:
  std::vector<std::string> log;                   // "put", "rput", "rput.wait", ...
  std::vector<call::Call> calls;                  // as execute() received them
  FakeWindow window;                              // what create_window() returns
  std::optional<call::Kind> fail_on;              // this call returns RMA_SYNC
  std::optional<rma::Counters> counters_value{};  // nullopt: not observable

  std::string name() const override { return "fake"; }
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::size_t eager_limit() const override { return 0; }
  rma::Result<Window*> create_window(const rma::WindowConfig&) override { return &window; }
  rma::Result<void*> alloc_mem(std::size_t) override {
    return rma::Status{rma::ErrorClass::unsupported, "fake: no memory"};
  }
  rma::Status free_mem(void*) override { return rma::Status::ok(); }
  rma::Status execute(const call::Call& c, Outcome* out) override {
    log.emplace_back(call::to_string(c.kind));
    calls.push_back(c);
    if (fail_on == c.kind) return {rma::ErrorClass::rma_sync, "fake: refused"};
    if (c.kind == call::Kind::recv && out) out->received = c.bytes;
    if (call::family_of(c.kind) == call::Family::request && out)
      out->request = std::make_unique<Req>(this, std::string(call::to_string(c.kind)));
    return rma::Status::ok();
  }
  std::optional<rma::Counters> counters() const override { return counters_value; }
  rma::RankState state() const override { return {}; }
  void poke() override {}

 private:
  struct Req final : Request {
    Req(FakeImplementation* f, std::string n) : fake(f), name(std::move(n)) {}
    rma::Status wait() override {
      fake->log.push_back(name + ".wait");
      return rma::Status::ok();
    }
    rma::Result<bool> test() override { return true; }
    FakeImplementation* fake;
    std::string name;
  };
};

}  // namespace harness::impl
