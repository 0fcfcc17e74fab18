// rank_results.hpp — turning what each rank reported about a case into one CaseResult: the
// worst status wins (error > fail > skip > pass), failures keep their rank, RMA packets are
// summed over ranks and divided by the iterations, and the count the case declared is
// checked. Used by the launcher and by runs under an external launcher (PMIx).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/model.hpp"
#include "suite/case_spec.hpp"

namespace harness::launcher {

// The result's fields that come from the case itself (id, ranks, backend, ...).
reports::CaseResult base_result(const suite::CaseSpec& spec);

// `results[r]` is rank r's result message (null if it sent none); fills `out`. On an MPI
// library, `named_impl` is the library with its version as the ranks' hellos named it
// ("mpich 4.0.2"): the case's `impl`, and the name in the reason its message counts are
// null, when no rank's result names it (a crash or deadlock before any result).
void merge_rank_results(const std::vector<nlohmann::json>& results, reports::CaseResult& out,
                        const std::string& named_impl = "");

// Whether a rank's state at the deadline shows it stuck in a library call: blocked in one wait
// for a good part of the case's time limit (half a second, or a quarter of a shorter limit).
// The ranks of a live program block too, for a moment at a time (a lock passed back and
// forth): caught in such a moment they are not deadlocked. A state without `since_s` counts
// by `blocked` alone.
bool stuck_at_deadline(const nlohmann::json& state, double timeout_s);

// On an MPI library (never on the reference), a case that did not pass, was not skipped and
// not interrupted, whose spec carries an `impl_defined` reason, gets the verdict
// impl_defined; its reason then says what MPI leaves open and what the library did (the
// verdict it would have had, and its first failure or detail); the failures stay listed.
void apply_impl_defined(const suite::CaseSpec& spec, reports::CaseResult& r);

}  // namespace harness::launcher
