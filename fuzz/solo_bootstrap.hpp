// solo_bootstrap.hpp — the bootstrap of a job of one rank, for fuzz targets that create a
// runtime in-process: the key-value service is a map, a missing key an error (never a wait).
#pragma once

#include <map>
#include <string>

#include "rma/bootstrap.hpp"

namespace rmabench_fuzz {

class SoloBootstrap final : public rma::bootstrap::Bootstrap {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::string_view kind() const override { return "launcher"; }
  rma::Status put(const std::string& key, const std::string& value) override {
    kv_[key] = value;
    return rma::Status::ok();
  }
  rma::Result<std::string> get(const std::string& key) override {
    auto it = kv_.find(key);
    if (it == kv_.end()) return rma::Status(rma::ErrorClass::other, "no key " + key);
    return it->second;
  }
  rma::Status fence() override { return rma::Status::ok(); }

 private:
  std::map<std::string, std::string> kv_;
};

}  // namespace rmabench_fuzz
