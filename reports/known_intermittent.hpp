// reports/known_intermittent.hpp — failures a library under test is known to show now and
// then: a defect that fails a case only in some runs (reported, with its reproducer), which
// the gate lists beside the defect instead of counting as a regression (`rmabench gate
// --known FILE`).
//
// An entry names one case, the verdict the defect gives it and a text one of its failures
// (or its reason) contains. A case that fails with that verdict and a failure with that text
// is excused, whatever else failed with it (the defect's failure on one rank usually stops the
// others: the launcher's "was stopped" is one of them); the gate shows the matching failure.
// The same case failing with another verdict or without the text is a regression as before,
// and the case is never taken out of the run. One entry per case and verdict; an entry whose
// case is in neither report changes nothing (one file serves every baseline). The file:
//   { "known_intermittent": [
//       { "case": "quick/flavors/dynamic[impl=openmpi,np=2,progress=calls]",
//         "verdict": "error", "contains": "MPI_ERR_RMA_RANGE",
//         "defect": "Open MPI defect 15, docs/conformance-mpi.md" } ] }
#pragma once

#include <optional>
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

// The entry `c` fails as, and which of its failures matched (-1: its reason).
struct KnownMatch {
  const KnownIntermittent* entry = nullptr;
  int failure = -1;
};
std::optional<KnownMatch> known_failure(const std::vector<KnownIntermittent>& known,
                                        const CaseResult& c);

}  // namespace reports
