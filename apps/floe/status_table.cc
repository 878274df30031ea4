#include "status_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

namespace floe::cli {

namespace {

using nlohmann::json;

// A number, or "-" when the field is missing or null (unknown).
std::string Int(const json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_number()) return "-";
  return std::to_string(j[key].get<std::int64_t>());
}

std::string Seconds(const json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_number()) return "-";
  return HumanSeconds(j[key].get<double>());
}

std::string Rate(const json& j) {
  if (!j.contains("records_per_second") || !j["records_per_second"].is_number()) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.0f/s", j["records_per_second"].get<double>());
  return buf;
}

std::string LastCommit(const json& topic) {
  const json& c = topic.value("last_commit", json(nullptr));
  if (!c.is_object()) return "-";
  return HumanSeconds(c.value("age_seconds", 0.0)) + " ago";
}

// Sum of the partitions' lag, "-" when none is known.
std::string TopicLag(const json& topic) {
  std::int64_t total = 0;
  bool known = false;
  for (const auto& p : topic.value("partitions", json::array())) {
    if (p.contains("lag") && p["lag"].is_number()) {
      total += p["lag"].get<std::int64_t>();
      known = true;
    }
  }
  return known ? std::to_string(total) : "-";
}

class Table {
 public:
  void Row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  // A line printed as it is, between rows, not aligned.
  void Note(std::string line) { rows_.push_back({"\x01" + std::move(line)}); }
  std::string Render() const {
    std::vector<std::size_t> widths;
    for (const auto& r : rows_) {
      if (IsNote(r)) continue;
      widths.resize(std::max(widths.size(), r.size()));
      for (std::size_t i = 0; i < r.size(); ++i) widths[i] = std::max(widths[i], r[i].size());
    }
    std::string out;
    for (const auto& r : rows_) {
      if (IsNote(r)) {
        out += r[0].substr(1) + "\n";
        continue;
      }
      std::string line;
      for (std::size_t i = 0; i < r.size(); ++i) {
        line += r[i];
        if (i + 1 < r.size()) line += std::string(widths[i] - r[i].size() + 2, ' ');
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
    return out;
  }

 private:
  static bool IsNote(const std::vector<std::string>& r) { return r.size() == 1 && !r[0].empty() && r[0][0] == '\x01'; }
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace

std::string HumanSeconds(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) seconds = 0;
  const auto s = static_cast<std::int64_t>(std::llround(seconds));
  char buf[48];
  if (seconds < 10) {
    std::snprintf(buf, sizeof(buf), "%.1f s", seconds);
  } else if (s < 60) {
    std::snprintf(buf, sizeof(buf), "%lld s", static_cast<long long>(s));
  } else if (s < 3600) {
    std::snprintf(buf, sizeof(buf), "%lld m %lld s", static_cast<long long>(s / 60), static_cast<long long>(s % 60));
  } else if (s < 86400) {
    std::snprintf(buf, sizeof(buf), "%lld h %lld m", static_cast<long long>(s / 3600),
                  static_cast<long long>(s % 3600 / 60));
  } else {
    std::snprintf(buf, sizeof(buf), "%lld d %lld h", static_cast<long long>(s / 86400),
                  static_cast<long long>(s % 86400 / 3600));
  }
  return buf;
}

std::string ProgressBar(double percent, int width) {
  if (!std::isfinite(percent)) percent = 0;
  percent = std::clamp(percent, 0.0, 100.0);
  const int filled = static_cast<int>(std::floor(percent / 100.0 * width));
  return "[" + std::string(filled, '#') + std::string(width - filled, '-') + "]";
}

std::string RenderStatusTable(const json& status) {
  std::ostringstream head;
  head << "floe " << status.value("version", "?") << ", group " << status.value("group_id", "?") << ", up "
       << HumanSeconds(status.value("uptime_seconds", 0.0)) << "\n\n";
  const json topics = status.value("topics", json::array());
  if (topics.empty()) return head.str() + "no topics\n";
  Table table;
  table.Row({"TOPIC", "PARTITION", "STATE", "LAG", "BACKLOG", "FRESHNESS", "LAST COMMIT", "RATE", "TABLE"});
  for (const auto& t : topics) {
    table.Row({t.value("topic", "?"), "", t.value("state", "?"), TopicLag(t), Int(t, "backlog_records"),
               Seconds(t, "freshness_seconds"), LastCommit(t), Rate(t), t.value("table", "")});
    for (const auto& p : t.value("partitions", json::array())) {
      table.Row({"", Int(p, "partition"), p.value("phase", "?"), Int(p, "lag"), Int(p, "backlog_records")});
    }
    if (t.value("catching_up", false)) {
      char pct[16];
      std::snprintf(pct, sizeof(pct), "%3.0f%%", t.value("progress_percent", 0.0));
      std::string line = "  catching up " + ProgressBar(t.value("progress_percent", 0.0)) + " " + pct + "  " +
                         Int(t, "backlog_records") + " records to go at " + Rate(t);
      line += t.contains("eta_seconds") && t["eta_seconds"].is_number() ? ", ETA " + Seconds(t, "eta_seconds")
                                                                       : ", ETA unknown";
      table.Note(line);
    }
    if (t.contains("error") && t["error"].is_object()) {
      table.Note("  error at " + t["error"].value("position", "?") + ": " + t["error"].value("reason", "?"));
    }
    if (t.contains("commit_error") && t["commit_error"].is_string()) {
      table.Note("  commit failing: " + t["commit_error"].get<std::string>());
    }
  }
  return head.str() + table.Render();
}

}  // namespace floe::cli
