// lazy_deque.hpp — a std::deque made on first use, for per-peer queues.
//
// An empty std::deque already allocates (its map and a first block, about 600 bytes); the
// engine keeps a queue of packets waiting for room per peer, so with 1024 ranks empty queues
// alone were megabytes per rank. This one costs a pointer until something is queued. Only the
// members the engine uses. (The am path's per-target op queues are intrusive lists instead:
// am/am_win.hpp, OpList.)
#pragma once

#include <cstddef>
#include <deque>
#include <memory>

namespace rma::progress {

template <class T>
class LazyDeque {
 public:
  using const_iterator = typename std::deque<T>::const_iterator;
  using iterator = typename std::deque<T>::iterator;

  bool empty() const { return !d_ || d_->empty(); }
  std::size_t size() const { return d_ ? d_->size() : 0; }
  T& front() { return d_->front(); }
  const T& front() const { return d_->front(); }
  void push_back(T v) { get().push_back(std::move(v)); }
  void push_front(T v) { get().push_front(std::move(v)); }
  void insert(iterator at, T v) { get().insert(at, std::move(v)); }
  void pop_front() { d_->pop_front(); }
  void clear() {
    if (d_) d_->clear();
  }
  iterator begin() { return get().begin(); }
  iterator end() { return get().end(); }
  const_iterator begin() const { return d_ ? d_->cbegin() : none().cbegin(); }
  const_iterator end() const { return d_ ? d_->cend() : none().cend(); }

 private:
  std::deque<T>& get() {
    if (!d_) d_ = std::make_unique<std::deque<T>>();
    return *d_;
  }
  static const std::deque<T>& none() {
    static const std::deque<T> e;
    return e;
  }
  std::unique_ptr<std::deque<T>> d_;
};

}  // namespace rma::progress
