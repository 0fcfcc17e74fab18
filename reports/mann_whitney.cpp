#include "reports/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace reports {

UTest mann_whitney_u(std::span<const double> x, std::span<const double> y) {
  UTest t;
  const double n1 = static_cast<double>(x.size());
  const double n2 = static_cast<double>(y.size());
  if (x.empty() || y.empty()) {
    t.u1 = t.u2 = n1 * n2 / 2;
    return t;
  }

  // Ranks of the pooled values; a run of ties shares the mean of the ranks it spans.
  std::vector<std::pair<double, bool>> pooled;  // value, from x
  pooled.reserve(x.size() + y.size());
  for (double v : x) pooled.emplace_back(v, true);
  for (double v : y) pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  double rank_sum_x = 0;
  double tie_term = 0;  // sum over tie runs of t^3 - t
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double run = static_cast<double>(j - i);
    const double mean_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    for (std::size_t k = i; k < j; ++k) {
      if (pooled[k].second) rank_sum_x += mean_rank;
    }
    tie_term += run * run * run - run;
    i = j;
  }

  t.u1 = rank_sum_x - n1 * (n1 + 1) / 2;
  t.u2 = n1 * n2 - t.u1;
  const double n = n1 + n2;
  const double variance = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  if (!(variance > 0)) return t;  // every value equal: no evidence of a difference
  t.z = (std::max(t.u1, t.u2) - n1 * n2 / 2 - 0.5) / std::sqrt(variance);
  // Two-sided: twice the upper tail of the standard normal, 2 * Q(z) = erfc(z / sqrt 2).
  t.p = std::clamp(std::erfc(t.z / std::sqrt(2.0)), 0.0, 1.0);
  return t;
}

}  // namespace reports
