#include "worker/state_board.hpp"

#include "rma/trace.hpp"
#include "worker/trace_record.hpp"

namespace harness::worker {

using nlohmann::json;

json counters_json(const rma::Counters& c) {
  json by_type = json::object(), direct = json::object(), transport = json::object();
  // RMA packets by type; transport traffic (fragments) beside them. The scripts' own
  // send/recv and the harness's barriers are neither.
  for (int i = 0; i < rma::packet_type_count; ++i) {
    const auto t = static_cast<rma::PacketType>(i);
    if (!c.sent[i]) continue;
    if (rma::class_of(t) == rma::PacketClass::rma)
      by_type[std::string(rma::to_string(t))] = c.sent[i];
    if (rma::class_of(t) == rma::PacketClass::transport)
      transport[std::string(rma::to_string(t))] = c.sent[i];
  }
  for (int i = 0; i < rma::direct_op_count; ++i)
    if (c.direct[i])
      direct[std::string(rma::to_string(static_cast<rma::DirectOp>(i)))] = c.direct[i];
  for (const auto& [k, v] : c.transport)
    if (v) transport[k] = v;
  json datatypes = json::object();
  for (const auto& [k, v] : c.datatypes)
    if (v) datatypes[k] = v;
  return {
      {"by_type", by_type}, {"direct", direct}, {"transport", transport}, {"datatypes", datatypes}};
}

json StateBoard::snapshot(int rank) const {
  std::lock_guard g(mu_);
  json s = {{"rank", rank}, {"phase", phase_}};
  // --trace: what this rank sent and handled up to now (the parent takes it out of the state).
  if (rma::trace::on()) s["trace"] = trace_json(rank);
  if (ctx_) s["where"] = ctx_->where();
  if (!impl_) {
    s["call"] = "";
    s["blocked"] = false;
    return s;
  }
  const rma::RankState st = impl_->state();
  s["call"] = st.call.call;
  s["blocked"] = st.call.blocked;
  s["since_s"] = st.call.since_s;
  s["window"] = st.call.window;
  s["target"] = st.call.target;
  s["waiting_for"] = st.call.waiting_for;
  json wins = json::array();
  for (const auto& w : st.windows) {
    json targets = json::array();
    for (const auto& t : w.targets)
      targets.push_back({{"target", t.target},
                         {"lock", t.lock},
                         {"queued_ops", t.queued_ops},
                         {"in_flight", t.in_flight},
                         {"awaiting_acks", t.awaiting_acks}});
    wins.push_back({{"id", w.id},
                    {"flavor", w.flavor},
                    {"path", w.path},
                    {"access_epoch", w.access_epoch},
                    {"exposure_epoch", w.exposure_epoch},
                    {"targets", targets},
                    {"lock_holders", w.lock_holders},
                    {"lock_waiters", w.lock_waiters}});
  }
  s["windows"] = wins;
  if (auto c = impl_->counters()) s["counters"] = counters_json(*c);
  return s;
}

}  // namespace harness::worker
