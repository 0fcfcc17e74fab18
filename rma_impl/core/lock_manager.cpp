#include "core/lock_manager.hpp"

#include <algorithm>

#include "core/fault.hpp"

namespace rma::core {

bool LockManager::compatible(LockType t) const {
  if (holders_.empty() || core::fault(core::Fault::grant_ignores_table)) return true;
  return t == LockType::shared && holders_.front().type == LockType::shared;
}

bool LockManager::request(LockRequest r) {
  if ((waiting_.empty() || core::fault(core::Fault::grant_ignores_table)) && compatible(r.type)) {
    holders_.push_back({r.origin, r.type});
    return true;
  }
  waiting_.push_back(std::move(r));
  return false;
}

bool LockManager::try_grant(int origin, LockType type) {
  if ((waiting_.empty() || core::fault(core::Fault::grant_ignores_table)) && compatible(type)) {
    holders_.push_back({origin, type});
    return true;
  }
  return false;
}

std::vector<LockRequest> LockManager::release(int origin) {
  std::vector<LockRequest> granted;
  auto it = std::find_if(holders_.begin(), holders_.end(),
                         [&](const Holder& h) { return h.origin == origin; });
  if (it == holders_.end()) return granted;
  holders_.erase(it);
  while (!waiting_.empty() && compatible(waiting_.front().type)) {
    holders_.push_back({waiting_.front().origin, waiting_.front().type});
    granted.push_back(std::move(waiting_.front()));
    waiting_.pop_front();
    if (holders_.back().type == LockType::exclusive) break;
  }
  return granted;
}

LockRequest* LockManager::find_waiting(int origin) {
  for (LockRequest& r : waiting_)
    if (r.origin == origin) return &r;
  return nullptr;
}

bool LockManager::holds(int origin) const {
  return std::any_of(holders_.begin(), holders_.end(),
                     [&](const Holder& h) { return h.origin == origin; });
}

std::string LockManager::holders_text() const {
  if (holders_.empty()) return "";
  std::string s = std::string(to_string(holders_.front().type)) + " by ";
  for (std::size_t i = 0; i < holders_.size(); ++i)
    s += (i ? ", " : "") + std::to_string(holders_[i].origin);
  return s;
}

std::string LockManager::waiters_text() const {
  std::string s;
  for (const auto& w : waiting_)
    s += (s.empty() ? "" : ", ") + std::string(to_string(w.type)) + " " + std::to_string(w.origin);
  return s;
}

}  // namespace rma::core
