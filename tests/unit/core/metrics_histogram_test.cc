// Histograms in the Prometheus text format: cumulative buckets with `le` last among the
// labels, +Inf, _sum and _count; one set of bounds per family; "le" refused as a label.
#include <gtest/gtest.h>

#include "floe/core/metrics.h"

namespace floe {
namespace {

TEST(MetricsHistogramTest, RendersCumulativeBucketsSumAndCount) {
  MetricsRegistry registry;
  Histogram& h = registry.GetHistogram("floe_commit_duration_seconds", "Commit time", {0.5, 0.1, 1}, {{"table", "a.b"}});
  for (double v : {0.05, 0.1, 0.3, 0.7, 3.0}) h.Observe(v);
  EXPECT_EQ(h.bounds(), (std::vector<double>{0.1, 0.5, 1}));  // sorted
  EXPECT_EQ(h.CumulativeCounts(), (std::vector<std::int64_t>{2, 3, 4}));
  EXPECT_EQ(registry.RenderPrometheus(),
            "# HELP floe_commit_duration_seconds Commit time\n"
            "# TYPE floe_commit_duration_seconds histogram\n"
            "floe_commit_duration_seconds_bucket{table=\"a.b\",le=\"0.1\"} 2\n"
            "floe_commit_duration_seconds_bucket{table=\"a.b\",le=\"0.5\"} 3\n"
            "floe_commit_duration_seconds_bucket{table=\"a.b\",le=\"1\"} 4\n"
            "floe_commit_duration_seconds_bucket{table=\"a.b\",le=\"+Inf\"} 5\n"
            "floe_commit_duration_seconds_sum{table=\"a.b\"} 4.15\n"
            "floe_commit_duration_seconds_count{table=\"a.b\"} 5\n");
}

TEST(MetricsHistogramTest, SeriesShareTheFirstBoundsAndLeIsRefused) {
  MetricsRegistry registry;
  registry.GetHistogram("h", "x", {1, 2});
  Histogram& other = registry.GetHistogram("h", "x", {5}, {{"t", "b"}});
  EXPECT_EQ(other.bounds(), (std::vector<double>{1, 2}));
  EXPECT_FALSE(registry.TryGetHistogram("g", "x", {1}, {{"le", "1"}}).ok());
  EXPECT_FALSE(registry.TryGetCounter("h", "x").ok());  // already a histogram
  other.Observe(1.5);
  EXPECT_NE(registry.RenderPrometheus().find("h_bucket{le=\"+Inf\"} 0\nh_sum 0\nh_count 0\n"), std::string::npos);
  EXPECT_NE(registry.RenderPrometheus().find("h_bucket{t=\"b\",le=\"2\"} 1\n"), std::string::npos);
}

}  // namespace
}  // namespace floe
