#include "floe/kafka/broker_states.h"

#include <nlohmann/json.hpp>

#include <string>

namespace floe::kafka {
namespace {

// The string member `key`, or "" (json::value would throw on a member of another type).
std::string StringMember(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

Result<bool> AnyBrokerUp(std::string_view statistics_json) {
  const auto stats = nlohmann::json::parse(statistics_json, nullptr, /*allow_exceptions=*/false);
  if (!stats.is_object() || !stats.contains("brokers") || !stats["brokers"].is_object()) {
    return Status::InvalidArgument("librdkafka statistics without a \"brokers\" object");
  }
  for (const auto& [name, broker] : stats["brokers"].items()) {
    if (!broker.is_object()) continue;
    const std::string source = StringMember(broker, "source");
    if (source == "logical" || source == "internal") continue;
    const std::string state = StringMember(broker, "state");
    if (state == "UP" || state == "UPDATE" || state == "REAUTH") return true;
  }
  return false;
}

}  // namespace floe::kafka
