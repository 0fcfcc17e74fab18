// rank_results.hpp — turning what each rank reported about a case into one CaseResult: the
// worst status wins (error > fail > skip > pass), failures keep their rank, RMA packets are
// summed over ranks and divided by the iterations, and the count the case declared is
// checked. Used by the launcher and by runs under an external launcher (PMIx).
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "reports/model.hpp"
#include "suite/case_spec.hpp"

namespace harness::launcher {

// The result's fields that come from the case itself (id, ranks, backend, ...).
reports::CaseResult base_result(const suite::CaseSpec& spec);

// `results[r]` is rank r's result message (null if it sent none); fills `out`.
void merge_rank_results(const std::vector<nlohmann::json>& results, reports::CaseResult& out);

}  // namespace harness::launcher
