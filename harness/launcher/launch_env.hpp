// launch_env.hpp — what the environment says about the external launcher that started this
// rank (srun --mpi=pmix, mpirun), for the report's context: under Slurm the launcher is
// "slurm" with the job id, step id and node list Slurm exported; any other PMIx launcher is
// "pmix". Read from the environment only: nothing is asked of Slurm.
#pragma once

#include <functional>

#include <nlohmann/json.hpp>

namespace harness::launcher {

// {"launcher": "slurm", "job_id": "12", "step_id": "0", "nodelist": "n[01-02]"} under srun
// (a variable Slurm did not set is left out), {"launcher": "pmix"} otherwise.
nlohmann::json launch_env();
// The same from `lookup` (getenv's contract: nullptr for unset), for tests.
nlohmann::json launch_env(const std::function<const char*(const char*)>& lookup);

}  // namespace harness::launcher
