#include "floe/core/config.h"

#include <gtest/gtest.h>

#include "config_test_util.h"

namespace floe {
namespace {

constexpr const char* kValid = R"yaml(kafka:
  bootstrap_servers: "localhost:9092"
  properties:
    security.protocol: PLAINTEXT
schema_registry:
  url: "http://localhost:8081"
warehouse: "file:///tmp/wh"
catalog:
  type: builtin
  uri: "sqlite:///tmp/catalog.db"
  listen: "127.0.0.1:8181"
admin:
  listen: "127.0.0.1:8180"
defaults:
  namespace: lake
  commit_interval: 5s
  target_file_size: 64MiB
topics:
  - name: Orders.V1
    value: avro
    key: string
    partition_by: ["day(_kafka.timestamp)", "bucket[16](id)"]
    sort_by: ["amount DESC nulls last", customer]
    error_mode: dlq
    dlq_topic: orders.dlq
  - pattern: "^clicks\\..*"
    value: json
    commit_interval: 1s
)yaml";

TEST(Config, ParsesTheDocumentedLayout) {
  auto r = ParseConfig(kValid, "floe.yaml");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const FloeConfig& c = *r;
  EXPECT_EQ(c.kafka.bootstrap_servers, "localhost:9092");
  EXPECT_EQ(c.kafka.group_id, "floe");
  EXPECT_EQ(c.kafka.properties.at("security.protocol"), "PLAINTEXT");
  ASSERT_TRUE(c.schema_registry.has_value());
  EXPECT_EQ(c.schema_registry->url, "http://localhost:8081");
  EXPECT_EQ(c.catalog.listen, "127.0.0.1:8181");
  ASSERT_EQ(c.topics.size(), 2u);
  EXPECT_EQ(c.topics[0].table, "lake.orders_v1");  // namespace default + sanitized name
  EXPECT_EQ(c.topics[0].key, PayloadFormat::kString);
  EXPECT_EQ(c.topics[0].error_mode, ErrorMode::kDlq);
  EXPECT_EQ(c.topics[0].commit_interval.count(), 5000);  // from defaults
  EXPECT_EQ(c.topics[0].target_file_size, 64LL << 20);
  EXPECT_EQ(c.topics[0].partition_by.size(), 2u);
  EXPECT_EQ(c.topics[0].sort_by, (std::vector<std::string>{"amount DESC nulls last", "customer"}));
  EXPECT_EQ(c.topics[1].pattern, "^clicks\\..*");
  EXPECT_EQ(c.topics[1].table, "");  // decided per matching topic
  EXPECT_EQ(c.topics[1].commit_interval.count(), 1000);  // per-topic override
  EXPECT_EQ(c.topics[1].key, PayloadFormat::kBytes);
}

TEST(Config, UnknownKeyNamesLineAndSuggestsTheRightKey) {
  const std::string e = ConfigErrors("kafka:\n  bootstrap_server: x\nwarehouse: w\ntopics: [{name: t, value: json}]\n");
  EXPECT_NE(e.find("floe.yaml:2:3: kafka.bootstrap_server: unknown key (did you mean 'bootstrap_servers'?)"),
            std::string::npos) << e;
  EXPECT_NE(e.find("kafka.bootstrap_servers: required value is missing"), std::string::npos) << e;
}

TEST(Config, WrongTypeNamesTheKey) {
  const std::string e = ConfigErrors(
      "kafka: {bootstrap_servers: x}\nwarehouse: w\ndefaults:\n  commit_interval: 10\ntopics: [{name: t, value: json}]\n");
  EXPECT_NE(e.find("floe.yaml:4:20: defaults.commit_interval: '10' is not a duration"), std::string::npos) << e;
}

TEST(Config, MissingRequiredSectionsAreAllReported) {
  const std::string e = ConfigErrors("defaults: {}\n");
  EXPECT_NE(e.find("kafka: required section is missing"), std::string::npos) << e;
  EXPECT_NE(e.find("warehouse: required value is missing"), std::string::npos) << e;
  EXPECT_NE(e.find("topics: required list is missing"), std::string::npos) << e;
}

TEST(Config, CatalogServeNeedsOnlyWarehouseAndCatalog) {
  // docs/rest-catalog.md's config for `floe catalog serve`: no kafka, no topics.
  const std::string yaml = "warehouse: /var/lib/floe\ncatalog: {type: builtin}\n";
  auto served = ParseConfig(yaml, "floe.yaml", ConfigUse::kCatalogServe);
  ASSERT_TRUE(served.ok()) << served.status().message();
  EXPECT_EQ(served->warehouse, "/var/lib/floe");
  EXPECT_TRUE(served->topics.empty());
  // What is there is still checked, and the warehouse is still required.
  auto bad = ParseConfig("catalog: {type: builtin}\ntopics: [{nme: t}]\n", "floe.yaml", ConfigUse::kCatalogServe);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("warehouse: required value is missing"), std::string::npos);
  EXPECT_NE(bad.status().message().find("topics[0].nme: unknown key"), std::string::npos) << bad.status().message();
  EXPECT_EQ(bad.status().message().find("kafka"), std::string::npos) << bad.status().message();
  // `floe run` needs both.
  auto run = ParseConfig(yaml, "floe.yaml");
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("kafka: required section is missing"), std::string::npos);
  EXPECT_NE(run.status().message().find("topics: required list is missing"), std::string::npos);
}

TEST(Config, BadChoiceListsTheAllowedValues) {
  const std::string e = ConfigErrors("kafka: {bootstrap_servers: x}\nwarehouse: w\ntopics:\n  - name: t\n    value: avor\n");
  EXPECT_NE(e.find("topics[0].value: 'avor' is not one of: auto, avro, protobuf, json_schema, json, string, bytes "
                   "(did you mean 'avro'?)"),
            std::string::npos) << e;
}

TEST(Config, ValueFormatDefaultsToAutoWithARegistryAndAvroWithout) {
  auto with = ParseConfig("kafka: {bootstrap_servers: x}\nwarehouse: w\nschema_registry: {url: \"http://r\"}\n"
                          "topics:\n  - name: t\n  - name: u\n    value: avro\n", "floe.yaml");
  ASSERT_TRUE(with.ok()) << with.status().ToString();
  EXPECT_EQ(with->topics[0].value, PayloadFormat::kAuto);
  EXPECT_EQ(with->topics[1].value, PayloadFormat::kAvro);
  auto without = ParseConfig("kafka: {bootstrap_servers: x}\nwarehouse: w\ntopics:\n  - name: t\n    value: string\n",
                             "floe.yaml");
  ASSERT_TRUE(without.ok()) << without.status().ToString();
  EXPECT_EQ(without->topics[0].key, PayloadFormat::kBytes);
}

TEST(Config, RegistryFormatsNeedARegistry) {
  const std::string e = ConfigErrors("kafka: {bootstrap_servers: x}\nwarehouse: w\ntopics:\n  - name: t\n    value: avro\n");
  EXPECT_NE(e.find("topics[0]: uses a Schema Registry format but no schema_registry.url is configured"),
            std::string::npos) << e;
}

TEST(Config, TopicRules) {
  const std::string base = "kafka: {bootstrap_servers: x}\nwarehouse: w\ntopics:\n";
  EXPECT_NE(ConfigErrors(base + "  - {value: json}\n").find("exactly one of 'name'"), std::string::npos);
  EXPECT_NE(ConfigErrors(base + "  - {name: a, pattern: b, value: json}\n").find("exactly one of 'name'"), std::string::npos);
  EXPECT_NE(ConfigErrors(base + "  - {pattern: '([', value: json}\n").find("not a valid regular expression"),
            std::string::npos);
  EXPECT_NE(ConfigErrors(base + "  - {name: a, value: json, error_mode: dlq}\n").find("no dlq_topic"), std::string::npos);
  EXPECT_NE(ConfigErrors(base + "  - {name: a, value: json, partition_by: ['day(']}\n").find("not a column or a transform"),
            std::string::npos);
  EXPECT_NE(ConfigErrors(base + "  - {name: a, value: json, sort_by: ['amount downwards']}\n")
                .find("optionally followed by asc or desc"),
            std::string::npos);
  EXPECT_NE(ConfigErrors(base + "  - {name: a, value: json}\n  - {name: b, table: kafka.a, value: json}\n")
                .find("already the target of another topic"),
            std::string::npos);
  EXPECT_NE(ConfigErrors(base + "  - {name: a, value: json, target_file_size: 1KiB}\n").find("at least 1MiB"),
            std::string::npos);
  EXPECT_NE(ConfigErrors(base + "  - {name: a, value: json, formats: [iceberg, hudi]}\n").find("'hudi' is not one of"),
            std::string::npos);
}

TEST(Config, InvalidYamlReportsPosition) {
  const std::string e = ConfigErrors("kafka: [unclosed\n");
  EXPECT_NE(e.find("floe.yaml:"), std::string::npos) << e;
  EXPECT_NE(e.find("not valid YAML"), std::string::npos) << e;
}

TEST(Config, ListenAddressesAreChecked) {
  const std::string e =
      ConfigErrors("kafka: {bootstrap_servers: x}\nwarehouse: w\nadmin: {listen: '8180'}\ntopics: [{name: t, value: json}]\n");
  EXPECT_NE(e.find("admin.listen: '8180' is not host:port"), std::string::npos) << e;
}

TEST(Config, RestCatalogNeedsUri) {
  const std::string e =
      ConfigErrors("kafka: {bootstrap_servers: x}\nwarehouse: w\ncatalog: {type: rest}\ntopics: [{name: t, value: json}]\n");
  EXPECT_NE(e.find("catalog.uri: required value is missing"), std::string::npos) << e;
}

TEST(Config, MissingFileIsNotFound) {
  auto r = LoadConfigFile("/nonexistent/floe.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
}

TEST(SanitizeTableName, LowercasesAndReplaces) {
  EXPECT_EQ(SanitizeTableName("Orders.V1-eu"), "orders_v1_eu");
  EXPECT_EQ(SanitizeTableName("a_b9"), "a_b9");
}

}  // namespace
}  // namespace floe
