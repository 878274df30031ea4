// Which librdkafka connection errors Floe treats as refused credentials or certificates (fatal
// at start-up), and the error it reports for them. The messages are the ones librdkafka 2.0.2
// printed against the TLS/SASL test broker (tests/integration/test_kafka_security.py).
#include <librdkafka/rdkafkacpp.h>

#include <gtest/gtest.h>

#include "floe/kafka/consumer.h"

namespace floe::kafka {
namespace {

constexpr const char* kWrongPassword =
    "sasl_ssl://127.0.0.1:47073/bootstrap: SASL authentication error: Authentication failed: Invalid username or "
    "password (after 302ms in state AUTH_REQ)";
constexpr const char* kUntrustedCa =
    "ssl://127.0.0.1:35939/bootstrap: SSL handshake failed: error:0A000086:SSL routines::certificate verify failed: "
    "broker certificate could not be verified (after 18ms in state SSL_HANDSHAKE)";
constexpr const char* kNoClientCert =
    "ssl://127.0.0.1:53643/bootstrap: Receive failed: error:0A000412:SSL routines::sslv3 alert bad certificate: SSL "
    "alert number 42 (after 0ms in state APIVERSION_QUERY)";
constexpr const char* kScram =
    "sasl_ssl://127.0.0.1:38955/bootstrap: SASL authentication error: Authentication failed during authentication due "
    "to invalid credentials with SASL mechanism SCRAM-SHA-256 (after 323ms in state AUTH_REQ)";

TEST(ConsumerSecurityTest, RefusedCredentialsAndCertificatesAreSecurityFailures) {
  EXPECT_TRUE(IsSecurityFailure(RdKafka::ERR__AUTHENTICATION, kWrongPassword));
  EXPECT_TRUE(IsSecurityFailure(RdKafka::ERR_SASL_AUTHENTICATION_FAILED, "Invalid username or password"));
  EXPECT_TRUE(IsSecurityFailure(RdKafka::ERR__SSL, kUntrustedCa));
  EXPECT_TRUE(IsSecurityFailure(RdKafka::ERR__TRANSPORT, kNoClientCert));
}

TEST(ConsumerSecurityTest, BrokersThatAreDownOrDropConnectionsAreNot) {
  EXPECT_FALSE(IsSecurityFailure(RdKafka::ERR__TRANSPORT,
                                 "127.0.0.1:1/bootstrap: Connect to ipv4#127.0.0.1:1 failed: Connection refused"));
  EXPECT_FALSE(IsSecurityFailure(RdKafka::ERR__TRANSPORT,
                                 "ssl://127.0.0.1:9093/bootstrap: Receive failed: error:0A000126:SSL routines::"
                                 "unexpected eof while reading"));
  EXPECT_FALSE(IsSecurityFailure(RdKafka::ERR__TRANSPORT,
                                 "127.0.0.1:35939/bootstrap: Disconnected while requesting ApiVersion: might be caused "
                                 "by incorrect security.protocol configuration (connecting to a SSL listener?)"));
  EXPECT_FALSE(IsSecurityFailure(RdKafka::ERR__ALL_BROKERS_DOWN, "1/1 brokers are down"));
  EXPECT_FALSE(IsSecurityFailure(RdKafka::ERR__TIMED_OUT, ""));
}

TEST(ConsumerSecurityTest, TheReportNamesTheBrokersTheProblemAndWhatToCheck) {
  const std::string sasl = DescribeSecurityFailure("b1:9096,b2:9096", kWrongPassword, 0x020a00ff);
  EXPECT_NE(sasl.find("cannot connect to the Kafka brokers at b1:9096,b2:9096"), std::string::npos) << sasl;
  EXPECT_NE(sasl.find("Invalid username or password"), std::string::npos) << sasl;
  EXPECT_NE(sasl.find("sasl.password"), std::string::npos) << sasl;

  const std::string tls = DescribeSecurityFailure("b1:9093", kUntrustedCa, 0x020a00ff);
  EXPECT_NE(tls.find("certificate verify failed"), std::string::npos) << tls;
  EXPECT_NE(tls.find("ssl.ca.location"), std::string::npos) << tls;
  EXPECT_NE(DescribeSecurityFailure("b1:9094", kNoClientCert, 0x020a00ff).find("ssl.certificate.location"),
            std::string::npos);

  // librdkafka 2.12.1's words when its OIDC client gets no token (seen in test_kafka_security.py).
  const std::string oidc = DescribeSecurityFailure(
      "b1:9095", "Failed to acquire SASL OAUTHBEARER token: {\"error\":\"invalid_client\"}", 0x020c01ff);
  EXPECT_NE(oidc.find("invalid_client"), std::string::npos) << oidc;
  EXPECT_NE(oidc.find("sasl.oauthbearer.client.secret"), std::string::npos) << oidc;
  EXPECT_EQ(oidc.find("sasl.username"), std::string::npos) << oidc;
}

TEST(ConsumerSecurityTest, ScramFailuresOnOldLibrdkafkaMentionItsKafka4Bug) {
  const std::string old_build = DescribeSecurityFailure("b:9096", kScram, 0x020002ff);  // 2.0.2
  EXPECT_NE(old_build.find("librdkafka 2.0.2"), std::string::npos) << old_build;
  EXPECT_NE(old_build.find("2.6.1"), std::string::npos) << old_build;
  EXPECT_EQ(DescribeSecurityFailure("b:9096", kScram, 0x020601ff).find("2.6.1"), std::string::npos);
  EXPECT_EQ(DescribeSecurityFailure("b:9096", kWrongPassword, 0x020002ff).find("2.6.1"), std::string::npos);
}

}  // namespace
}  // namespace floe::kafka
