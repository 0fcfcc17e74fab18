// Regression tests: each script of tests/e2e/scripts/regressions/ reproduced a defect the
// pattern library found (its header says which). They run on both paths, and in the
// progress mode the defect needed, and must pass.
#include <gtest/gtest.h>

#include "run_rmabench.hpp"

namespace {

struct Regression {
  const char* script;    // in tests/e2e/scripts/regressions/
  const char* progress;  // the mode the defect showed in
};

class Regressions : public ::testing::TestWithParam<std::tuple<Regression, const char* /*path*/>> {
};

TEST_P(Regressions, StaysFixed) {
  const auto& [reg, path] = GetParam();
  const std::string dir = e2e::temp_dir(std::string("regression-") + reg.script);
  auto r = e2e::run(
      {"run", std::string("tests/e2e/scripts/regressions/") + reg.script + ".lua", "--path", path,
       "--progress", reg.progress, "--timeout", "30", "--report-dir", dir, "--format", "json"},
      120);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto report = e2e::read_json(dir + "/report.json");
  ASSERT_FALSE(report["cases"].empty());
  for (const auto& c : report["cases"]) EXPECT_EQ(c["status"], "pass") << c.dump(2);
  EXPECT_TRUE(e2e::leftover_ranks(r.pid).empty());
  EXPECT_TRUE(e2e::leftover_segments(r.pid).empty());
}

INSTANTIATE_TEST_SUITE_P(
    Fixed, Regressions,
    ::testing::Combine(::testing::Values(Regression{"calls_progress_self_polling", "calls"},
                                         Regression{"direct_lock_lost_on_recheck", "async"},
                                         Regression{"dropped_request_buffer", "async"},
                                         Regression{"lock_proc_null", "async"},
                                         Regression{"negative_disp_not_rma_error", "async"},
                                         Regression{"request_test_never_completes", "async"}),
                       ::testing::Values("am", "direct")),
    [](const auto& p) {
      return std::string(std::get<0>(p.param).script) + "_" + std::get<1>(p.param);
    });

}  // namespace
