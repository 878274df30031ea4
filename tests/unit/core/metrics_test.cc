// The metrics registry: series identity, type and name rules, exact counts under
// concurrency, and the Prometheus text exposition (golden text).
#include "floe/core/metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <thread>

namespace floe {
namespace {

TEST(Metrics, SameNameAndLabelsReturnTheSameSeries) {
  MetricsRegistry registry;
  Counter& a = registry.GetCounter("floe_records_consumed_total", "Records", {{"topic", "orders"}});
  Counter& b = registry.GetCounter("floe_records_consumed_total", "other help", {{"topic", "orders"}});
  Counter& c = registry.GetCounter("floe_records_consumed_total", "Records", {{"topic", "users"}});
  EXPECT_EQ(&a, &b);
  EXPECT_NE(&a, &c);
  Gauge& g1 = registry.GetGauge("floe_buffered_bytes", "Bytes");
  Gauge& g2 = registry.GetGauge("floe_buffered_bytes", "Bytes");
  EXPECT_EQ(&g1, &g2);
}

TEST(Metrics, LabelOrderDoesNotChangeTheSeriesButIsKeptForRendering) {
  MetricsRegistry registry;
  Gauge& a = registry.GetGauge("floe_partition_lag", "Lag", {{"topic", "t"}, {"partition", "0"}});
  Gauge& b = registry.GetGauge("floe_partition_lag", "Lag", {{"partition", "0"}, {"topic", "t"}});
  EXPECT_EQ(&a, &b);
  a.Set(5);
  EXPECT_EQ(registry.RenderPrometheus(),
            "# HELP floe_partition_lag Lag\n"
            "# TYPE floe_partition_lag gauge\n"
            "floe_partition_lag{topic=\"t\",partition=\"0\"} 5\n");
}

TEST(Metrics, SeriesStayValidAsManyMoreAreCreated) {
  MetricsRegistry registry;
  Counter& first = registry.GetCounter("c_total", "h", {{"i", "first"}});
  first.Increment(7);
  for (int i = 0; i < 5000; ++i) registry.GetCounter("c_total", "h", {{"i", std::to_string(i)}}).Increment();
  for (int i = 0; i < 100; ++i) registry.GetGauge("g" + std::to_string(i), "h").Set(i);
  first.Increment();
  EXPECT_EQ(first.value(), 8);
  EXPECT_EQ(&first, &registry.GetCounter("c_total", "h", {{"i", "first"}}));
}

TEST(Metrics, CounterAndGaugeArithmetic) {
  Counter c;
  EXPECT_EQ(c.value(), 0);
  c.Increment();
  c.Increment(41);
  c.Increment(0);
  EXPECT_EQ(c.value(), 42);
  Gauge g;
  EXPECT_EQ(g.value(), 0.0);
  g.Set(10);
  g.Add(2.5);
  g.Add(-20);
  EXPECT_DOUBLE_EQ(g.value(), -7.5);
}

TEST(Metrics, ConcurrentIncrementsGiveTheExactSum) {
  MetricsRegistry registry;
  constexpr int kThreads = 8;
  constexpr int kPerThread = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&registry, t] {
      // Looking the series up concurrently is part of what is tested: all threads must
      // land on the same counter and gauge.
      Counter& shared = registry.GetCounter("floe_records_written_total", "Records", {{"topic", "orders"}});
      Counter& own = registry.GetCounter("per_thread_total", "h", {{"thread", std::to_string(t)}});
      Gauge& gauge = registry.GetGauge("floe_buffered_bytes", "Bytes");
      for (int i = 0; i < kPerThread; ++i) {
        shared.Increment();
        own.Increment(2);
        gauge.Add(1);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(registry.GetCounter("floe_records_written_total", "Records", {{"topic", "orders"}}).value(),
            kThreads * kPerThread);
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(registry.GetCounter("per_thread_total", "h", {{"thread", std::to_string(t)}}).value(), 2 * kPerThread);
  }
  EXPECT_EQ(registry.GetGauge("floe_buffered_bytes", "Bytes").value(), double{kThreads * kPerThread});
}

TEST(Metrics, RenderingWhileIncrementingIsSafe) {
  MetricsRegistry registry;
  Counter& c = registry.GetCounter("c_total", "h");
  std::thread writer([&] {
    for (int i = 0; i < 20000; ++i) {
      c.Increment();
      registry.GetGauge("g", "h", {{"i", std::to_string(i % 50)}}).Set(i);
    }
  });
  for (int i = 0; i < 200; ++i) {
    EXPECT_NE(registry.RenderPrometheus().find("# TYPE c_total counter"), std::string::npos);
  }
  writer.join();
  EXPECT_NE(registry.RenderPrometheus().find("c_total 20000\n"), std::string::npos);
}

TEST(Metrics, RenderGoldenText) {
  MetricsRegistry registry;
  // Created out of name order: families render sorted by name, series in creation order.
  registry.GetGauge("floe_topic_suspended", "1 while the topic is suspended", {{"topic", "users"}}).Set(1);
  registry.GetGauge("floe_topic_suspended", "ignored: help is kept from the first call", {{"topic", "orders"}});
  registry.GetCounter("floe_commits_total", "Commits", {{"table", "kafka.users"}}).Increment(3);
  registry.GetCounter("floe_commits_total", "Commits", {{"table", "kafka.orders"}}).Increment();
  registry.GetGauge("floe_buffered_bytes", "Bytes buffered, not yet written").Set(1048576);
  registry.GetCounter("app:requests_total", "Colons are allowed in metric names").Increment(9000000000);
  EXPECT_EQ(registry.RenderPrometheus(),
            "# HELP app:requests_total Colons are allowed in metric names\n"
            "# TYPE app:requests_total counter\n"
            "app:requests_total 9000000000\n"
            "# HELP floe_buffered_bytes Bytes buffered, not yet written\n"
            "# TYPE floe_buffered_bytes gauge\n"
            "floe_buffered_bytes 1048576\n"
            "# HELP floe_commits_total Commits\n"
            "# TYPE floe_commits_total counter\n"
            "floe_commits_total{table=\"kafka.users\"} 3\n"
            "floe_commits_total{table=\"kafka.orders\"} 1\n"
            "# HELP floe_topic_suspended 1 while the topic is suspended\n"
            "# TYPE floe_topic_suspended gauge\n"
            "floe_topic_suspended{topic=\"users\"} 1\n"
            "floe_topic_suspended{topic=\"orders\"} 0\n");
}

TEST(Metrics, RenderEscapesLabelValuesAndHelp) {
  MetricsRegistry registry;
  registry.GetCounter("x_total", "line one\nback\\slash \"quotes\" stay", {{"topic", "a\\b\"c\nd"}, {"k", "é{},="}})
      .Increment();
  EXPECT_EQ(registry.RenderPrometheus(),
            "# HELP x_total line one\\nback\\\\slash \"quotes\" stay\n"
            "# TYPE x_total counter\n"
            "x_total{topic=\"a\\\\b\\\"c\\nd\",k=\"é{},=\"} 1\n");
}

TEST(Metrics, EscapedValuesDoNotCollideAsSeriesKeys) {
  MetricsRegistry registry;
  // Unescaped joining would make both of these `a="x",b="y"`.
  Counter& one = registry.GetCounter("c_total", "h", {{"a", "x\",b=\"y"}});
  Counter& two = registry.GetCounter("c_total", "h", {{"a", "x"}, {"b", "y"}});
  EXPECT_NE(&one, &two);
}

TEST(Metrics, RenderGaugeValues) {
  MetricsRegistry registry;
  registry.GetGauge("g", "h", {{"v", "frac"}}).Set(0.1);
  registry.GetGauge("g", "h", {{"v", "neg"}}).Set(-2.5);
  registry.GetGauge("g", "h", {{"v", "big"}}).Set(1e21);
  registry.GetGauge("g", "h", {{"v", "nan"}}).Set(std::nan(""));
  registry.GetGauge("g", "h", {{"v", "inf"}}).Set(std::numeric_limits<double>::infinity());
  registry.GetGauge("g", "h", {{"v", "-inf"}}).Set(-std::numeric_limits<double>::infinity());
  EXPECT_EQ(registry.RenderPrometheus(),
            "# HELP g h\n"
            "# TYPE g gauge\n"
            "g{v=\"frac\"} 0.1\n"
            "g{v=\"neg\"} -2.5\n"
            "g{v=\"big\"} 1e+21\n"
            "g{v=\"nan\"} NaN\n"
            "g{v=\"inf\"} +Inf\n"
            "g{v=\"-inf\"} -Inf\n");
}

TEST(Metrics, EmptyRegistryRendersNothing) {
  MetricsRegistry registry;
  EXPECT_EQ(registry.RenderPrometheus(), "");
}

TEST(Metrics, NameRules) {
  EXPECT_TRUE(IsValidMetricName("floe_records_consumed_total"));
  EXPECT_TRUE(IsValidMetricName("_x"));
  EXPECT_TRUE(IsValidMetricName(":a:b:"));
  EXPECT_TRUE(IsValidMetricName("A9"));
  EXPECT_FALSE(IsValidMetricName(""));
  EXPECT_FALSE(IsValidMetricName("9a"));
  EXPECT_FALSE(IsValidMetricName("a-b"));
  EXPECT_FALSE(IsValidMetricName("a b"));
  EXPECT_FALSE(IsValidMetricName("a.b"));
  EXPECT_TRUE(IsValidLabelName("topic"));
  EXPECT_TRUE(IsValidLabelName("_p"));
  EXPECT_FALSE(IsValidLabelName("__name__"));
  EXPECT_FALSE(IsValidLabelName("a:b"));
  EXPECT_FALSE(IsValidLabelName("1a"));
  EXPECT_FALSE(IsValidLabelName(""));
}

TEST(Metrics, TryVariantsReportMisuse) {
  MetricsRegistry registry;
  auto bad_name = registry.TryGetCounter("bad-name", "h");
  ASSERT_FALSE(bad_name.ok());
  EXPECT_EQ(bad_name.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad_name.status().message().find("bad-name"), std::string::npos);

  auto bad_label = registry.TryGetGauge("g", "h", {{"__reserved", "x"}});
  ASSERT_FALSE(bad_label.ok());
  EXPECT_EQ(bad_label.status().code(), StatusCode::kInvalidArgument);

  auto repeated = registry.TryGetCounter("c_total", "h", {{"topic", "a"}, {"topic", "b"}});
  ASSERT_FALSE(repeated.ok());
  EXPECT_NE(repeated.status().message().find("given twice"), std::string::npos);

  ASSERT_TRUE(registry.TryGetCounter("c_total", "h").ok());
  auto wrong_type = registry.TryGetGauge("c_total", "h");
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_EQ(wrong_type.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(wrong_type.status().message().find("is a counter"), std::string::npos);

  // Failed calls leave nothing behind: only the one good series renders.
  EXPECT_EQ(registry.RenderPrometheus(), "# HELP c_total h\n# TYPE c_total counter\nc_total 0\n");

  auto ok = registry.TryGetCounter("c_total", "h");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, &registry.GetCounter("c_total", "h"));
}

#ifndef NDEBUG
// Debug builds stop at the bug; release builds log it and hand out an unexported series.
TEST(MetricsDeathTest, MisuseAbortsInDebugBuilds) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  MetricsRegistry registry;
  registry.GetCounter("c_total", "h");
  EXPECT_DEATH(registry.GetGauge("c_total", "h"), "is a counter");
  EXPECT_DEATH(registry.GetCounter("bad name", "h"), "invalid metric name");
  Counter c;
  EXPECT_DEATH(c.Increment(-1), "negative");
}
#endif

}  // namespace
}  // namespace floe
