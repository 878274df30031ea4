// Broker reachability from librdkafka's statistics (broker_states.h), on the shapes librdkafka
// emits: a bootstrap broker left idle, a learned broker, the group coordinator's logical broker.
#include "floe/kafka/broker_states.h"

#include <gtest/gtest.h>

#include <string>

namespace floe::kafka {
namespace {

std::string Stats(const std::string& learned_state, const std::string& coordinator_state) {
  return R"({"name": "floe#consumer-1", "type": "consumer", "brokers": {
    "127.0.0.1:9092/bootstrap": {"name": "127.0.0.1:9092/bootstrap", "nodeid": -1, "source": "configured", "state": "INIT"},
    "127.0.0.1:9092/1": {"name": "127.0.0.1:9092/1", "nodeid": 1, "source": "learned", "state": ")" +
         learned_state + R"("},
    "GroupCoordinator": {"name": "GroupCoordinator", "nodeid": 1, "source": "logical", "state": ")" +
         coordinator_state + R"("}}, "topics": {}})";
}

TEST(BrokerStates, UpWhileARealBrokerIsConnected) {
  EXPECT_TRUE(*AnyBrokerUp(Stats("UP", "UP")));
  EXPECT_TRUE(*AnyBrokerUp(Stats("UPDATE", "DOWN")));
}

TEST(BrokerStates, DownWhenOnlyTheLogicalCoordinatorOrNothingIsUp) {
  for (const char* state : {"DOWN", "TRY_CONNECT", "CONNECT", "INIT", "SSL_HANDSHAKE", "AUTH_REQ", "APIVERSION_QUERY"}) {
    EXPECT_FALSE(*AnyBrokerUp(Stats(state, "UP"))) << state;
  }
  EXPECT_FALSE(*AnyBrokerUp(R"({"brokers": {}})"));
}

TEST(BrokerStates, NotStatisticsIsAnError) {
  for (const char* bad : {"", "{", "[]", R"({"brokers": 3})", R"({"name": "x"})"}) {
    EXPECT_FALSE(AnyBrokerUp(bad).ok()) << bad;
  }
  EXPECT_FALSE(*AnyBrokerUp(R"({"brokers": {"x": 5, "y": {"state": 7}}})"));
}

}  // namespace
}  // namespace floe::kafka
