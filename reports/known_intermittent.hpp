// reports/known_intermittent.hpp — failures a library under test is known to show now and
// then: a defect that fails a case only in some runs (reported, with its reproducer), which
// the gate lists beside the defect instead of counting as a regression (`rmabench gate
// --known FILE`).
//
// An entry names one case, the verdict the defect gives it and a text its failures contain.
// Only a failure that matches all three is excused; the same case failing any other way is a
// regression as before, and the case is never taken out of the run. The file (JSON):
//   { "known_intermittent": [
//       { "case": "quick/flavors/dynamic[impl=openmpi,np=2,progress=calls]",
//         "verdict": "error", "contains": "MPI_ERR_RMA_RANGE",
//         "defect": "Open MPI defect 15, docs/conformance-mpi.md" } ] }
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/model.hpp"

namespace reports {

struct KnownIntermittent {
  std::string case_id;   // the case's full id, as reports write it
  Verdict verdict{};     // a failing verdict: fail, error, crash, timeout or deadlock
  std::string contains;  // a text of one of its failures (or of its reason)
  std::string defect;    // what the defect is and where it is written up
};

// Reads the file's JSON; a bad entry throws std::runtime_error naming the field
// ("known_intermittent[1].verdict: ...").
std::vector<KnownIntermittent> known_intermittent_from_json(const nlohmann::json& j);

// The entry `c` fails as, or nullptr.
const KnownIntermittent* known_failure(const std::vector<KnownIntermittent>& known,
                                       const CaseResult& c);

}  // namespace reports
