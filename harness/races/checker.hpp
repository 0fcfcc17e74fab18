// checker.hpp — the second half of `--check races`: reads every rank's log (recorder.hpp)
// and reports what MPI-3's rules forbid and the implementation does not reject (local
// accesses against remote ops are taken in the unified memory model both paths provide):
//
//  - conflict: two accesses to shared bytes of one rank's window (remote ops, or loads and
//    stores through window memory; a derived-type layout touches only its runs) that are not
//    both reads (a get_accumulate or fetch_and_op with no_op reads) nor both accumulates with
//    the same op (or no_op) on the same basic type, element for element (footprint.hpp),
//    with nothing ordering them. Order comes from happens-before over the
//    synchronization calls (fence and free and barriers join all ranks, post→start,
//    complete→wait, send→recv, program order), where a remote op counts from its issue to the
//    call that completes it at the target (fence, unlock, flush, complete, free; an atomic
//    that returned its old value: its own call); two lock epochs on one target of which one
//    is exclusive exclude each other, and so do two ranks' compare_and_swap critical sections
//    on one lock word when the values the atomics returned prove it.
//  - sync: two ranks' loads and stores of shared memory ordered by a barrier or message but
//    without a window synchronization (win:sync, fence, lock/unlock...) on each side.
//  - completion: an op's origin or result buffer touched before the op completed at the
//    origin (found by the recorder, reported here).
//  - nocheck: a lock with nocheck while another rank's conflicting lock on that target is not
//    ordered with it; a start with nocheck whose matching post did not happen before it; a
//    matched post and start of which only one says nocheck.
//  - nostore / noput: a fence or post whose assert was false. (A false noprecede or
//    nosucceed the implementation itself rejects with RMA_SYNC.)
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "races/race_event.hpp"
#include "reports/model.hpp"

namespace harness::races {

// `logs[r]` is rank r's log (null if it sent none). At most `limit` findings, one per pair of
// script lines and rule.
std::vector<reports::Race> check(const std::vector<nlohmann::json>& logs, std::size_t limit = 50);
// The same over logs already decoded (race_event.hpp); from_json's errors come from the one
// above.
std::vector<reports::Race> check(const std::vector<std::vector<RaceEvent>>& logs,
                                 std::size_t limit = 50);

}  // namespace harness::races
