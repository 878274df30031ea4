#include "floe/kafka/consumer_callbacks.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <exception>
#include <map>

#include "floe/kafka/broker_states.h"
#include "floe/kafka/consumer.h"  // IsSecurityFailure
#include "floe/kafka/rdkafka_interop.h"

namespace floe::kafka {

std::string ConsumerCallbacks::TakeSecurityFailure() {
  std::lock_guard lock(mutex_);
  return std::exchange(security_failure_, std::string());
}

void ConsumerCallbacks::event_cb(RdKafka::Event& event) {
  if (silenced_.load()) return;  // abandoned at exit (Consumer::Close): spdlog may be gone
  switch (event.type()) {
    case RdKafka::Event::EVENT_ERROR:
      if (IsSecurityFailure(event.err(), event.str())) {
        std::lock_guard lock(mutex_);
        if (security_failure_.empty()) security_failure_ = event.str();
      }
      if (event.err() == RdKafka::ERR__ALL_BROKERS_DOWN) {
        std::lock_guard lock(mutex_);
        if (!outage_) outage_ = BrokerOutage{std::chrono::system_clock::now(), event.str()};
        failures_recorded_.store(true);
      } else if (event.err() == RdKafka::ERR__TRANSPORT) {
        // An outage only once the statistics show no broker connected (below): one broker's
        // dropped connection is routine.
        std::lock_guard lock(mutex_);
        if (!transport_failure_) transport_failure_ = BrokerOutage{std::chrono::system_clock::now(), event.str()};
        failures_recorded_.store(true);
      }
      spdlog::warn("{}: {}: {}", log_name_, RdKafka::err2str(event.err()), event.str());
      break;
    case RdKafka::Event::EVENT_STATS: {
      auto up = AnyBrokerUp(event.str());
      if (!up.ok()) {
        spdlog::debug("kafka statistics: {}", up.status().message());
      } else if (*up) {
        ClearOutage();
      } else {
        std::lock_guard lock(mutex_);
        if (!outage_ && transport_failure_) {
          outage_ = transport_failure_;
          spdlog::warn("{}: no broker is reachable (first failure: {})", log_name_, transport_failure_->reason);
        }
      }
      break;
    }
    case RdKafka::Event::EVENT_LOG: {
      const int severity = static_cast<int>(event.severity());
      const auto level = severity <= 3   ? spdlog::level::err
                         : severity == 4 ? spdlog::level::warn
                         : severity <= 6 ? spdlog::level::info
                                         : spdlog::level::debug;
      spdlog::log(level, "{}: [{}] {}", log_name_, event.fac(), event.str());
      break;
    }
    default:
      break;
  }
}

std::optional<BrokerOutage> ConsumerCallbacks::outage() const {
  std::lock_guard lock(mutex_);
  return outage_;
}

void ConsumerCallbacks::ClearOutage() {
  if (!failures_recorded_.load(std::memory_order_relaxed)) return;
  std::lock_guard lock(mutex_);
  failures_recorded_.store(false);
  if (outage_) spdlog::info("{}: the brokers are reachable again", log_name_);
  outage_.reset();
  transport_failure_.reset();
}

void ConsumerCallbacks::rebalance_cb(RdKafka::KafkaConsumer* consumer, RdKafka::ErrorCode err,
                                     std::vector<RdKafka::TopicPartition*>& partitions) {
  const bool cooperative = consumer->rebalance_protocol() == "COOPERATIVE";
  switch (err) {
    case RdKafka::ERR__ASSIGN_PARTITIONS: return Assign(*consumer, partitions, cooperative);
    case RdKafka::ERR__REVOKE_PARTITIONS: return Revoke(*consumer, partitions, cooperative);
    default: return GiveUpAssignment(*consumer, err);
  }
}

void ConsumerCallbacks::offset_commit_cb(RdKafka::ErrorCode err, std::vector<RdKafka::TopicPartition*>& offsets) {
  // ERR__NO_OFFSET: there was nothing new to commit, which is not a failure.
  if (err == RdKafka::ERR_NO_ERROR || err == RdKafka::ERR__NO_OFFSET) return;
  // Group offsets only feed lag monitoring, so a failed commit is worth a warning, not an error.
  spdlog::warn("{}: committing group offsets for {} failed: {}", log_name_, DescribePartitions(FromRdKafka(offsets), true),
               RdKafka::err2str(err));
}

void ConsumerCallbacks::Assign(RdKafka::KafkaConsumer& consumer, std::vector<RdKafka::TopicPartition*>& partitions,
                               bool cooperative) {
  std::vector<TopicPartition> chosen = FromRdKafka(partitions);
  for (auto& tp : chosen) tp.offset = kOffsetCommitted;
  const bool listener_ok = chosen.empty() || CallListener("OnAssigned", [&] { listener_->OnAssigned(chosen); });
  ApplyChosenOffsets(chosen, partitions);
  // Cooperative rounds often assign nothing new (e.g. right after a revoke): not worth a line.
  if (!partitions.empty()) spdlog::info("{}: assigned {}", log_name_, DescribePartitions(FromRdKafka(partitions), true));
  // Cooperative assignors require the incremental call even for an empty list.
  const Status assigned = cooperative ? FromError(consumer.incremental_assign(partitions), "incremental assign")
                                      : FromCode(consumer.assign(partitions), "assign");
  if (!assigned.ok()) return Fail(assigned);
  assigned_once_ = true;
  // Without offsets from the listener the partitions would be read from wherever the group
  // offset points: hold them until the caller, told by Poll(), decides what to do.
  if (!listener_ok) {
    Fail(FromCode(consumer.pause(partitions), "pause"));
    Fail(FirstPartitionError(partitions, "pause"));
  }
}

void ConsumerCallbacks::ApplyChosenOffsets(const std::vector<TopicPartition>& chosen,
                                           std::vector<RdKafka::TopicPartition*>& partitions) {
  std::map<std::pair<std::string, std::int32_t>, std::int64_t> offsets;
  for (const auto& tp : chosen) offsets[{tp.topic, tp.partition}] = tp.offset;
  for (auto* tp : partitions) {
    const auto it = offsets.find({tp->topic(), tp->partition()});
    if (it == offsets.end()) {
      Fail(Status::Internal("RebalanceListener::OnAssigned dropped " + tp->topic() + "/" +
                            std::to_string(tp->partition()) + " from its list"));
      continue;
    }
    tp->set_offset(it->second);
  }
}

void ConsumerCallbacks::Revoke(RdKafka::KafkaConsumer& consumer, std::vector<RdKafka::TopicPartition*>& partitions,
                               bool cooperative) {
  // Read before unassigning: the unassign calls reset the flag.
  const bool lost = consumer.assignment_lost();
  const std::vector<TopicPartition> revoked = FromRdKafka(partitions);
  if (!revoked.empty()) spdlog::info("{}: {} {}", log_name_, lost ? "lost" : "revoked", DescribePartitions(revoked, false));
  if (!revoked.empty()) CallListener("OnRevoked", [&] { listener_->OnRevoked(revoked, lost); });
  Fail(cooperative ? FromError(consumer.incremental_unassign(partitions), "incremental unassign")
                   : FromCode(consumer.unassign(), "unassign"));
}

void ConsumerCallbacks::GiveUpAssignment(RdKafka::KafkaConsumer& consumer, RdKafka::ErrorCode err) {
  spdlog::error("{}: rebalance failed: {}; dropping the whole assignment", log_name_, RdKafka::err2str(err));
  PartitionList current;
  Fail(FromCode(consumer.assignment(current.get()), "reading the assignment"));
  const std::vector<TopicPartition> lost = FromRdKafka(current.get());
  if (!lost.empty()) CallListener("OnRevoked", [&] { listener_->OnRevoked(lost, true); });
  Fail(FromCode(consumer.unassign(), "unassign"));
}

bool ConsumerCallbacks::CallListener(std::string_view what, const std::function<void()>& call) {
  if (listener_ == nullptr) return true;  // Assign() users have no listener and no rebalances
  try {
    call();
    return true;
  } catch (const std::exception& e) {
    Fail(Status::Internal("RebalanceListener::" + std::string(what) + " threw: " + e.what()));
  } catch (...) {
    Fail(Status::Internal("RebalanceListener::" + std::string(what) + " threw a non-std exception"));
  }
  return false;
}

void ConsumerCallbacks::Fail(const Status& status) {
  if (status.ok()) return;
  spdlog::error("{}: {}", log_name_, status.message());
  if (error_.ok()) error_ = status;
}

}  // namespace floe::kafka
