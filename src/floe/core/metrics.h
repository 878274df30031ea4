#pragma once
// Process-wide metrics: counters and gauges with labels, rendered in the Prometheus text
// exposition format (0.0.4) for GET /metrics. The pipeline updates them per record, so the
// hot path is one relaxed atomic operation on a series looked up once and kept by pointer;
// the registry's mutex is only taken to create a series or to render.
//
//   Counter& consumed = registry.GetCounter("floe_records_consumed_total",
//                                           "Records read from Kafka", {{"topic", topic}});
//   consumed.Increment();  // per record, any thread
//
// Series live as long as the registry and never move, so references may be kept freely.
// Metric names (the contract with dashboards and alerts) are listed in docs/admin-api.md.
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "floe/core/result.h"

namespace floe {

// A monotonically increasing count (Prometheus "counter").
class Counter {
 public:
  Counter() = default;
  Counter(const Counter&) = delete;
  Counter& operator=(const Counter&) = delete;

  // `by` must be >= 0: a counter never goes down, so a negative step is dropped (and
  // asserts in debug builds) rather than corrupting rate() computations downstream.
  void Increment(std::int64_t by = 1) {
    if (by < 0) return DropNegative(by);
    value_.fetch_add(by, std::memory_order_relaxed);
  }
  std::int64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  static void DropNegative(std::int64_t by);
  std::atomic<std::int64_t> value_{0};
};

// A value that goes up and down (Prometheus "gauge").
class Gauge {
 public:
  Gauge() = default;
  Gauge(const Gauge&) = delete;
  Gauge& operator=(const Gauge&) = delete;

  void Set(double v) { value_.store(v, std::memory_order_relaxed); }
  void Add(double d) {
    // compare-exchange instead of atomic<double>::fetch_add, whose lock-freedom varies.
    double current = value_.load(std::memory_order_relaxed);
    while (!value_.compare_exchange_weak(current, current + d, std::memory_order_relaxed)) {
    }
  }
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0.0};
};

// Observations counted in buckets (Prometheus "histogram"): `bounds` are the buckets' upper
// bounds, ascending; +Inf is implied. Observe is lock-free (one atomic add per bucket hit and
// the sum's compare-exchange), so any thread may call it.
class Histogram {
 public:
  explicit Histogram(std::vector<double> bounds);
  Histogram(const Histogram&) = delete;
  Histogram& operator=(const Histogram&) = delete;

  void Observe(double v);
  const std::vector<double>& bounds() const { return bounds_; }
  // Per bound, the observations <= it (cumulative, as Prometheus renders them).
  std::vector<std::int64_t> CumulativeCounts() const;
  std::int64_t count() const { return count_.load(std::memory_order_relaxed); }
  double sum() const { return sum_.value(); }

 private:
  std::vector<double> bounds_;
  std::unique_ptr<std::atomic<std::int64_t>[]> buckets_;  // per bound, not cumulative
  std::atomic<std::int64_t> count_{0};
  Gauge sum_;  // only ever added to
};

// Label (name, value) pairs. Rendered in the order first given; the identity of a series is
// the *set* of pairs, so {a,b} and {b,a} name the same series (Prometheus rejects duplicates).
using Labels = std::vector<std::pair<std::string, std::string>>;

enum class MetricType { kCounter, kGauge, kHistogram };

class MetricsRegistry {
 public:
  MetricsRegistry();
  ~MetricsRegistry();
  MetricsRegistry(const MetricsRegistry&) = delete;
  MetricsRegistry& operator=(const MetricsRegistry&) = delete;

  // The same (name, labels) returns the same series; `help` is kept from the first call
  // for a name. Names match [a-zA-Z_:][a-zA-Z0-9_:]*, label names [a-zA-Z_][a-zA-Z0-9_]*
  // (not starting with "__", not repeated within one series).
  //
  // Breaking a rule is a programming error (names are constants): debug builds abort with
  // the reason; release builds log it and return a working series that is never rendered,
  // so a metrics bug cannot take the pipeline down. Use the Try* variants to get the error.
  Counter& GetCounter(const std::string& name, const std::string& help, const Labels& labels = {});
  Gauge& GetGauge(const std::string& name, const std::string& help, const Labels& labels = {});
  // `bounds` (ascending upper bounds) are kept from the first call for a name: all series of a
  // histogram share their buckets. The label name "le" is Prometheus's and may not be used.
  Histogram& GetHistogram(const std::string& name, const std::string& help, std::vector<double> bounds,
                          const Labels& labels = {});

  // kInvalidArgument for a bad metric or label name, a repeated label name, or a name
  // already registered with the other type. Never null when ok.
  Result<Counter*> TryGetCounter(const std::string& name, const std::string& help, const Labels& labels = {});
  Result<Gauge*> TryGetGauge(const std::string& name, const std::string& help, const Labels& labels = {});
  Result<Histogram*> TryGetHistogram(const std::string& name, const std::string& help, std::vector<double> bounds,
                                     const Labels& labels = {});

  // Prometheus text exposition format 0.0.4: "# HELP" and "# TYPE" per family, families
  // sorted by name, series in creation order, label values escaped (\\, \", \n). Empty
  // when nothing is registered. Values are read atomically per series, not as a snapshot
  // across series.
  std::string RenderPrometheus() const;

 private:
  struct Family;
  struct Lookup;
  Result<Lookup> FindOrCreate(const std::string& name, const std::string& help, const Labels& labels,
                              MetricType type, std::vector<double> bounds = {});

  mutable std::mutex mu_;
  std::map<std::string, std::unique_ptr<Family>> families_;  // std::map: rendered sorted by name
  std::unique_ptr<Family> detached_;  // release-build fallback for rule-breaking calls; not rendered
};

// Checks against the rules above; exposed for tests and for callers validating config.
bool IsValidMetricName(const std::string& name);
bool IsValidLabelName(const std::string& name);

}  // namespace floe
