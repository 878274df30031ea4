// `floe status`'s text (apps/floe/status_table.h) from /status bodies: the columns, unknown
// values as "-", the progress bar of a topic catching up, the suspending error.
#include "floe/status_table.h"  // apps/floe/

#include <gtest/gtest.h>

namespace floe::cli {
namespace {

using nlohmann::json;

TEST(StatusTableTest, ProgressBarAndDurations) {
  EXPECT_EQ(ProgressBar(0, 10), "[----------]");
  EXPECT_EQ(ProgressBar(37.5, 10), "[###-------]");
  EXPECT_EQ(ProgressBar(100, 10), "[##########]");
  EXPECT_EQ(ProgressBar(250, 4), "[####]");
  EXPECT_EQ(HumanSeconds(2.04), "2.0 s");
  EXPECT_EQ(HumanSeconds(45), "45 s");
  EXPECT_EQ(HumanSeconds(200), "3 m 20 s");
  EXPECT_EQ(HumanSeconds(7500), "2 h 5 m");
  EXPECT_EQ(HumanSeconds(3 * 86400 + 4 * 3600), "3 d 4 h");
}

TEST(StatusTableTest, TopicsPartitionsProgressAndErrors) {
  const json status = json::parse(R"({
    "version": "0.1.0", "uptime_seconds": 75, "group_id": "floe",
    "topics": [
      {"topic": "orders", "table": "kafka.orders", "state": "suspended",
       "error": {"position": "orders/3@42", "reason": "bad magic byte"},
       "records_per_second": 0, "freshness_seconds": 12.4, "backlog_records": 55, "catching_up": false,
       "last_commit": {"time": "2026-12-05T08:01:02Z", "age_seconds": 11, "snapshot_id": 7, "rows": 10,
                       "duration_seconds": 0.4},
       "partitions": [{"partition": 3, "phase": "suspended", "lag": 55, "backlog_records": 55}]},
      {"topic": "clicks", "table": "kafka.clicks", "state": "running", "error": null,
       "records_per_second": 41250.4, "freshness_seconds": null, "backlog_records": 8200000, "catching_up": true,
       "progress_percent": 37.5, "eta_seconds": 198.8, "last_commit": null,
       "partitions": [{"partition": 0, "phase": "reading", "lag": null, "backlog_records": null}]}
    ]})");
  const std::string text = RenderStatusTable(status);
  EXPECT_EQ(text,
            "floe 0.1.0, group floe, up 1 m 15 s\n"
            "\n"
            "TOPIC   PARTITION  STATE      LAG  BACKLOG  FRESHNESS  LAST COMMIT  RATE     TABLE\n"
            "orders             suspended  55   55       12 s       11 s ago     0/s      kafka.orders\n"
            "        3          suspended  55   55\n"
            "  error at orders/3@42: bad magic byte\n"
            "clicks             running    -    8200000  -          -            41250/s  kafka.clicks\n"
            "        0          reading    -    -\n"
            "  catching up [#######-------------]  38%  8200000 records to go at 41250/s, ETA 3 m 19 s\n");
}

TEST(StatusTableTest, NoTopics) {
  EXPECT_EQ(RenderStatusTable(json::parse(R"({"version":"0.1.0","uptime_seconds":1,"group_id":"g","topics":[]})")),
            "floe 0.1.0, group g, up 1.0 s\n\nno topics\n");
}

}  // namespace
}  // namespace floe::cli
