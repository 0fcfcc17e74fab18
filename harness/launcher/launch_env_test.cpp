// Unit tests for launch_env: which launcher the environment names, and Slurm's job facts.
#include "launcher/launch_env.hpp"

#include <map>
#include <string>

#include <gtest/gtest.h>

namespace {

nlohmann::json env_of(const std::map<std::string, std::string>& vars) {
  return harness::launcher::launch_env([&](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}

TEST(LaunchEnv, SrunStepIsSlurmWithJobStepAndNodes) {
  const auto j = env_of({{"SLURM_JOB_ID", "42"},
                         {"SLURM_STEP_ID", "3"},
                         {"SLURM_PROCID", "1"},
                         {"SLURM_JOB_NODELIST", "n[01-02]"},
                         {"PMIX_RANK", "1"}});
  EXPECT_EQ(
      j, (nlohmann::json{
             {"launcher", "slurm"}, {"job_id", "42"}, {"step_id", "3"}, {"nodelist", "n[01-02]"}}));
}

TEST(LaunchEnv, MpirunIsPmixEvenInsideASlurmAllocation) {
  EXPECT_EQ(env_of({{"PMIX_RANK", "0"}}), (nlohmann::json{{"launcher", "pmix"}}));
  EXPECT_EQ(env_of({{"SLURM_JOB_ID", "42"},
                    {"SLURM_STEP_ID", "0"},
                    {"SLURM_PROCID", "0"},
                    {"OMPI_COMM_WORLD_SIZE", "4"}}),
            (nlohmann::json{{"launcher", "pmix"}}));
}

TEST(LaunchEnv, BatchScriptWithoutAStepIsNotAnSrunTask) {
  EXPECT_EQ(env_of({{"SLURM_JOB_ID", "42"}, {"SLURM_JOB_NODELIST", "vm"}}),
            (nlohmann::json{{"launcher", "pmix"}}));
}

}  // namespace
