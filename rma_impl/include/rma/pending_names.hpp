// rma/pending_names.hpp — the /dev/shm names this process created and has not removed yet.
//
// A segment's name lives from its creation until every rank that needs it has opened it
// (then its creator unlinks it, and nothing is left in /dev/shm whatever happens later). A
// process killed inside that window would leave the name behind; the handler of the signal
// that kills it (a worker's parent-death signal) calls unlink_pending_names() first.
//
//   rma::add_pending_name("/rmabench.123.0.transport");   // after shm_open(O_CREAT)
//   rma::remove_pending_name("/rmabench.123.0.transport"); // after shm_unlink
#pragma once

#include <string_view>

namespace rma {

// A name as shm_open takes it ("/name"). Holds 256 at a time (memory from alloc_mem keeps its
// name until it is freed); past that a name is not recorded, and only the next run's sweep of
// dead runs' names removes it if the process is killed.
void add_pending_name(std::string_view name);
void remove_pending_name(std::string_view name);
// Unlinks every recorded name. Async-signal-safe: no allocation, no lock, only unlink(2).
void unlink_pending_names() noexcept;

}  // namespace rma
