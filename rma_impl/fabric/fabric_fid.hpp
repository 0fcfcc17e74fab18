// fabric_fid.hpp — ownership of one libfabric object (fabric, domain, CQ, AV, endpoint, MR):
// closed with fi_close when the owner goes, so a failed setup leaks nothing.
//
//   Fid<fid_cq> cq;
//   if (int rc = fi_cq_open(domain, &attr, cq.out(), nullptr)) return error_text("fi_cq_open", rc);
//   fi_cq_read(cq.get(), ...);
#pragma once

#include <rdma/fabric.h>

#include <utility>

namespace rma::fabric {

template <class T>
class Fid {
 public:
  Fid() = default;
  Fid(const Fid&) = delete;
  Fid& operator=(const Fid&) = delete;
  Fid(Fid&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  Fid& operator=(Fid&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
    }
    return *this;
  }
  ~Fid() { reset(); }

  T* get() const { return p_; }
  T** out() {
    reset();
    return &p_;
  }
  explicit operator bool() const { return p_ != nullptr; }
  void reset() {
    if (p_) fi_close(&p_->fid);
    p_ = nullptr;
  }

 private:
  T* p_ = nullptr;
};

}  // namespace rma::fabric
