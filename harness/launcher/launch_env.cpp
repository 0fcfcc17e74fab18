// launch_env.cpp — the launcher's name and Slurm's job facts from the environment.
#include "launcher/launch_env.hpp"

#include <cstdlib>

namespace harness::launcher {

nlohmann::json launch_env(const std::function<const char*(const char*)>& lookup) {
  auto var = [&](const char* name) -> const char* {
    const char* v = lookup(name);
    return v && *v ? v : nullptr;
  };
  // srun exports the step and the task's rank; a task of mpirun inside a Slurm allocation
  // inherits the job's variables too (its daemons were started by srun), but Open MPI marks
  // its own tasks, and there mpirun is the launcher.
  const bool slurm = var("SLURM_JOB_ID") && var("SLURM_STEP_ID") && var("SLURM_PROCID") &&
                     !var("OMPI_COMM_WORLD_SIZE");
  if (!slurm) return {{"launcher", "pmix"}};
  nlohmann::json j = {{"launcher", "slurm"}};
  for (const auto& [key, name] :
       {std::pair{"job_id", "SLURM_JOB_ID"}, std::pair{"step_id", "SLURM_STEP_ID"},
        std::pair{"nodelist", "SLURM_JOB_NODELIST"}})
    if (const char* v = var(name)) j[key] = v;
  return j;
}

nlohmann::json launch_env() {
  return launch_env([](const char* name) { return std::getenv(name); });
}

}  // namespace harness::launcher
