#include "floe/kafka/consumer_conf.h"

#include <map>
#include <string>

namespace floe::kafka {

Result<std::unique_ptr<RdKafka::Conf>> BuildConsumerConf(const ConsumerOptions& options) {
  std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
  std::string error;
  // Floe's defaults first; the user's properties may override any of them.
  std::map<std::string, std::string> settings = {
      {"bootstrap.servers", options.bootstrap_servers},
      {"group.id", options.group_id},
      // The table, not Kafka, is the source of truth; group offsets are for lag tools only.
      // Floe stores them (CommitOffsets) and librdkafka's auto-commit sends them: its timer
      // skips commits while the group rebalances, which a commit of Floe's own could not know.
      {"enable.auto.commit", "true"},
      {"enable.auto.offset.store", "false"},
      {"auto.offset.reset", "earliest"},
      {"enable.partition.eof", "false"},
      // Records of aborted transactions never reach the table; transaction markers are skipped
      // (the pipeline still moves its offsets past them: GroupConsumer::ReadPosition).
      {"isolation.level", "read_committed"},
      {"client.id", "floe"},
      // A rebalance moves only the partitions that change owner; the others keep flowing.
      {"partition.assignment.strategy", "cooperative-sticky"},
      // How long a dead worker keeps its partitions (librdkafka's default is 45 s). Heartbeats
      // come from librdkafka's own thread, not from the poll loop, so a long commit cannot
      // miss them: 10 s only has to cover a network hiccup or a broker failover. A static
      // member (instance_id) restarted within this time takes its partitions back without a
      // rebalance; docs/reliability.md explains the trade-off.
      {"session.timeout.ms", "10000"},
      {"heartbeat.interval.ms", "1000"},
      // The broker returns a record batch larger than fetch.max.bytes whole (so consumers make
      // progress), but librdkafka refuses any response over receive.message.max.bytes (default
      // 100 MB) and fetches it again for ever: a topic allowing 100 MiB records would stall
      // every partition on that broker. Up to 1 GiB is fetched; max_record_size then decides
      // (pipeline/record_limits.h).
      {"receive.message.max.bytes", "1073741824"},
      // Every 5 s the brokers' connection states reach the event callback: /status's
      // kafka.state comes from them (broker_states.h says why ALL_BROKERS_DOWN is not enough).
      {"statistics.interval.ms", "5000"},
  };
  if (!options.instance_id.empty()) settings["group.instance.id"] = options.instance_id;
  for (const auto& [k, v] : options.properties) settings[k] = v;
  for (const auto& [k, v] : settings) {
    if (conf->set(k, v, error) != RdKafka::Conf::CONF_OK) {
      return Status::InvalidArgument("kafka property '" + k + "': " + error);
    }
  }
  return conf;
}

}  // namespace floe::kafka
