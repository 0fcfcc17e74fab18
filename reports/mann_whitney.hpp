// reports/mann_whitney.hpp — the Mann-Whitney U test, two-sided, for the gate's noise band.
//
// Whether two sets of repetitions (a baseline's and a run's times of one benchmark) come
// from the same distribution, without assuming it is normal: the test Google Benchmark's
// compare.py runs (scipy.stats.mannwhitneyu, two-sided). This uses the normal approximation
// with the tie correction and the continuity correction, which is scipy's "asymptotic"
// method; compare.py asks for at least 5-9 repetitions a side for it to mean much.
//
//   UTest t = mann_whitney_u(baseline_ns, current_ns);
//   if (t.p < 0.05) { /* the difference is beyond noise */ }
#pragma once

#include <span>

namespace reports {

struct UTest {
  double u1 = 0;  // U of the first sample: pairs (x, y) with x > y, a tie counting 1/2
  double u2 = 0;  // U of the second sample; u1 + u2 = n1 * n2
  double z = 0;   // (max(u1, u2) - n1 n2 / 2 - 1/2) / sigma, with sigma tie-corrected
  double p = 1;   // two-sided p-value; 1 when a sample is empty or every value is equal
};

UTest mann_whitney_u(std::span<const double> x, std::span<const double> y);

}  // namespace reports
