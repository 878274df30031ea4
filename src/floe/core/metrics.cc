#include "floe/core/metrics.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <unordered_map>

namespace floe {
namespace {

bool IsNameStart(char c, bool allow_colon) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (allow_colon && c == ':');
}

bool IsNameChar(char c, bool allow_colon) { return IsNameStart(c, allow_colon) || (c >= '0' && c <= '9'); }

bool IsValidName(const std::string& name, bool allow_colon) {
  if (name.empty() || !IsNameStart(name[0], allow_colon)) return false;
  return std::all_of(name.begin() + 1, name.end(), [&](char c) { return IsNameChar(c, allow_colon); });
}

// HELP text escapes only backslash and newline; label values also escape the double quote.
std::string Escape(const std::string& text, bool quote) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (quote && c == '"') {
      out += "\\\"";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string JoinLabels(const Labels& labels) {
  std::string out;
  for (const auto& [name, value] : labels) {
    if (!out.empty()) out.push_back(',');
    out += name;
    out += "=\"";
    out += Escape(value, true);
    out.push_back('"');
  }
  return out;
}

// The identity of a series: its labels sorted by name. Escaped values cannot contain a bare
// '"', so the joined text is unambiguous.
std::string CanonicalKey(const Labels& labels) {
  Labels sorted = labels;
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return JoinLabels(sorted);
}

Status ValidateLabels(const std::string& metric, const Labels& labels) {
  std::vector<std::string> names;
  for (const auto& [name, value] : labels) {
    if (!IsValidLabelName(name)) {
      return Status::InvalidArgument("metric " + metric + ": invalid label name '" + name +
                                     "' (must match [a-zA-Z_][a-zA-Z0-9_]* and not start with __)");
    }
    names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  if (auto dup = std::adjacent_find(names.begin(), names.end()); dup != names.end()) {
    return Status::InvalidArgument("metric " + metric + ": label '" + *dup + "' given twice");
  }
  return Status::OK();
}

const char* TypeName(MetricType type) {
  switch (type) {
    case MetricType::kCounter: return "counter";
    case MetricType::kGauge: return "gauge";
    case MetricType::kHistogram: return "histogram";
  }
  return "untyped";
}

// Prometheus spells the non-finite values NaN, +Inf and -Inf; finite values use the shortest
// text that reads back to the same double.
std::string FormatDouble(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  return ec == std::errc() ? std::string(buf, end) : "NaN";
}

}  // namespace

bool IsValidMetricName(const std::string& name) { return IsValidName(name, true); }

bool IsValidLabelName(const std::string& name) {
  return IsValidName(name, false) && name.rfind("__", 0) != 0;  // "__" is reserved for Prometheus
}

Histogram::Histogram(std::vector<double> bounds)
    : bounds_(std::move(bounds)), buckets_(std::make_unique<std::atomic<std::int64_t>[]>(bounds_.size())) {
  std::sort(bounds_.begin(), bounds_.end());
  for (std::size_t i = 0; i < bounds_.size(); ++i) buckets_[i].store(0, std::memory_order_relaxed);
}

void Histogram::Observe(double v) {
  const auto bucket = std::lower_bound(bounds_.begin(), bounds_.end(), v) - bounds_.begin();
  if (static_cast<std::size_t>(bucket) < bounds_.size()) buckets_[bucket].fetch_add(1, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
  sum_.Add(v);
}

std::vector<std::int64_t> Histogram::CumulativeCounts() const {
  std::vector<std::int64_t> out(bounds_.size());
  std::int64_t running = 0;
  for (std::size_t i = 0; i < bounds_.size(); ++i) out[i] = running += buckets_[i].load(std::memory_order_relaxed);
  return out;
}

void Counter::DropNegative([[maybe_unused]] std::int64_t by) {
  assert(by >= 0 && "Counter::Increment with a negative step");
}

// One metric name: its type, help and series. std::deque keeps every series at a fixed
// address as more are added, which is what lets callers keep references.
struct MetricsRegistry::Family {
  MetricType type = MetricType::kCounter;
  std::string help;
  std::deque<Counter> counters;  // used when type == kCounter (and by the detached family)
  std::deque<Gauge> gauges;      // used when type == kGauge (and by the detached family)
  std::deque<Histogram> histograms;  // used when type == kHistogram (and by the detached family)
  std::vector<double> bounds;        // kHistogram: every series' buckets
  std::vector<std::string> rendered_labels;  // per series, creation order: `{a="x"}` or ""
  std::unordered_map<std::string, std::size_t> index;  // canonical key -> position in the deque

  // Returns the position of the series for `key`, creating it (rendered from `labels`) if new.
  std::size_t FindOrAdd(const std::string& key, MetricType series_type, const Labels& labels) {
    auto [it, inserted] = index.try_emplace(key, 0);
    if (!inserted) return it->second;
    if (series_type == MetricType::kCounter) {
      it->second = counters.size();
      counters.emplace_back();
    } else if (series_type == MetricType::kGauge) {
      it->second = gauges.size();
      gauges.emplace_back();
    } else {
      it->second = histograms.size();
      histograms.emplace_back(bounds);
    }
    rendered_labels.push_back(labels.empty() ? std::string() : "{" + JoinLabels(labels) + "}");
    return it->second;
  }
};

struct MetricsRegistry::Lookup {
  Counter* counter = nullptr;
  Gauge* gauge = nullptr;
  Histogram* histogram = nullptr;
};

MetricsRegistry::MetricsRegistry() : detached_(std::make_unique<Family>()) {}

MetricsRegistry::~MetricsRegistry() = default;

Result<MetricsRegistry::Lookup> MetricsRegistry::FindOrCreate(const std::string& name, const std::string& help,
                                                              const Labels& labels, MetricType type,
                                                              std::vector<double> bounds) {
  if (!IsValidMetricName(name)) {
    return Status::InvalidArgument("invalid metric name '" + name + "' (must match [a-zA-Z_:][a-zA-Z0-9_:]*)");
  }
  FLOE_RETURN_IF_ERROR(ValidateLabels(name, labels));
  if (type == MetricType::kHistogram &&
      std::any_of(labels.begin(), labels.end(), [](const auto& label) { return label.first == "le"; })) {
    return Status::InvalidArgument("metric " + name + ": a histogram cannot have a label named 'le'");
  }
  const std::string key = CanonicalKey(labels);
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, inserted] = families_.try_emplace(name, nullptr);
  if (inserted) {
    it->second = std::make_unique<Family>();
    it->second->type = type;
    it->second->help = help;
    it->second->bounds = std::move(bounds);
  } else if (it->second->type != type) {
    return Status::InvalidArgument("metric " + name + " is a " + TypeName(it->second->type) +
                                   ", requested as a " + TypeName(type));
  }
  Family& family = *it->second;
  const std::size_t pos = family.FindOrAdd(key, type, labels);
  if (type == MetricType::kCounter) return Lookup{&family.counters[pos], nullptr, nullptr};
  if (type == MetricType::kGauge) return Lookup{nullptr, &family.gauges[pos], nullptr};
  return Lookup{nullptr, nullptr, &family.histograms[pos]};
}

Result<Counter*> MetricsRegistry::TryGetCounter(const std::string& name, const std::string& help,
                                                const Labels& labels) {
  FLOE_ASSIGN_OR_RETURN(Lookup found, FindOrCreate(name, help, labels, MetricType::kCounter));
  return found.counter;
}

Result<Gauge*> MetricsRegistry::TryGetGauge(const std::string& name, const std::string& help, const Labels& labels) {
  FLOE_ASSIGN_OR_RETURN(Lookup found, FindOrCreate(name, help, labels, MetricType::kGauge));
  return found.gauge;
}

Result<Histogram*> MetricsRegistry::TryGetHistogram(const std::string& name, const std::string& help,
                                                    std::vector<double> bounds, const Labels& labels) {
  FLOE_ASSIGN_OR_RETURN(Lookup found, FindOrCreate(name, help, labels, MetricType::kHistogram, std::move(bounds)));
  return found.histogram;
}

namespace {

// A rule-breaking registration is a bug in Floe: loud in debug builds, harmless in release.
void ReportMisuse(const Status& status) {
#ifndef NDEBUG
  // Straight to stderr: the configured logger may be buffered or elsewhere, and we abort now.
  std::fprintf(stderr, "floe: metrics registry misuse: %s\n", status.message().c_str());
  std::abort();
#else
  spdlog::error("metrics registry misuse (series will not be exported): {}", status.message());
#endif
}

}  // namespace

Counter& MetricsRegistry::GetCounter(const std::string& name, const std::string& help, const Labels& labels) {
  auto found = TryGetCounter(name, help, labels);
  if (found.ok()) return **found;
  ReportMisuse(found.status());
  std::lock_guard<std::mutex> lock(mu_);
  // Keyed by name too, so that repeating the bad call in a loop does not grow memory.
  return detached_->counters[detached_->FindOrAdd("c:" + name + "|" + CanonicalKey(labels), MetricType::kCounter, {})];
}

Gauge& MetricsRegistry::GetGauge(const std::string& name, const std::string& help, const Labels& labels) {
  auto found = TryGetGauge(name, help, labels);
  if (found.ok()) return **found;
  ReportMisuse(found.status());
  std::lock_guard<std::mutex> lock(mu_);
  return detached_->gauges[detached_->FindOrAdd("g:" + name + "|" + CanonicalKey(labels), MetricType::kGauge, {})];
}

Histogram& MetricsRegistry::GetHistogram(const std::string& name, const std::string& help, std::vector<double> bounds,
                                         const Labels& labels) {
  auto found = TryGetHistogram(name, help, bounds, labels);
  if (found.ok()) return **found;
  ReportMisuse(found.status());
  std::lock_guard<std::mutex> lock(mu_);
  detached_->bounds = bounds;
  return detached_->histograms[detached_->FindOrAdd("h:" + name + "|" + CanonicalKey(labels), MetricType::kHistogram, {})];
}

namespace {

// One histogram series: cumulative _bucket lines with `le`, then _sum and _count.
void RenderHistogram(const std::string& name, const std::string& labels, const Histogram& h, std::string& out) {
  // `labels` is "" or "{a=\"x\"}": `le` goes last inside the braces.
  const std::string open = labels.empty() ? "{" : labels.substr(0, labels.size() - 1) + ",";
  const auto counts = h.CumulativeCounts();
  for (std::size_t i = 0; i < counts.size(); ++i) {
    out += name + "_bucket" + open + "le=\"" + FormatDouble(h.bounds()[i]) + "\"} " + std::to_string(counts[i]) + "\n";
  }
  const std::int64_t count = h.count();
  out += name + "_bucket" + open + "le=\"+Inf\"} " + std::to_string(count) + "\n";
  out += name + "_sum" + labels + " " + FormatDouble(h.sum()) + "\n";
  out += name + "_count" + labels + " " + std::to_string(count) + "\n";
}

}  // namespace

std::string MetricsRegistry::RenderPrometheus() const {
  std::string out;
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [name, family] : families_) {
    out += "# HELP " + name + " " + Escape(family->help, false) + "\n";
    out += "# TYPE " + name + " " + TypeName(family->type) + "\n";
    for (std::size_t i = 0; i < family->rendered_labels.size(); ++i) {
      if (family->type == MetricType::kHistogram) {
        RenderHistogram(name, family->rendered_labels[i], family->histograms[i], out);
        continue;
      }
      const std::string value = family->type == MetricType::kCounter ? std::to_string(family->counters[i].value())
                                                                      : FormatDouble(family->gauges[i].value());
      out += name + family->rendered_labels[i] + " " + value + "\n";
    }
  }
  return out;
}

}  // namespace floe
