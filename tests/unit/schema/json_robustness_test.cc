// No exception may leave the module, whatever the metadata JSON holds: every value of
// valid documents is replaced, one at a time, by a value of every JSON type, and each
// result must be parsed or rejected with a Status.
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "floe/schema/json.h"
#include "schema_test_util.h"

namespace floe::schema {
namespace {

using nlohmann::json;

std::vector<json::json_pointer> AllPointers(const json& j, const json::json_pointer& at = json::json_pointer()) {
  std::vector<json::json_pointer> out{at};
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      auto child = AllPointers(it.value(), at / it.key());
      out.insert(out.end(), child.begin(), child.end());
    }
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) {
      auto child = AllPointers(j[i], at / i);
      out.insert(out.end(), child.begin(), child.end());
    }
  }
  return out;
}

int MutateEverywhere(json doc, const std::function<bool(const json&)>& parse) {
  const json replacements[] = {nullptr, -1, 2147483648LL, 1.5, "x", true, json::array({1}), json{{"type", "struct"}}};
  int accepted = 0;
  for (const auto& ptr : AllPointers(doc)) {
    const json original = doc[ptr];
    for (const json& r : replacements) {
      doc[ptr] = r;
      bool ok = false;
      EXPECT_NO_THROW(ok = parse(doc)) << ptr.to_string() << " = " << r.dump();
      accepted += ok ? 1 : 0;
    }
    doc[ptr] = original;
  }
  return accepted;
}

TEST(SchemaJsonRobustness, NoMutationOfASchemaThrows) {
  // Small, but with every kind of node: struct, list, map, doc, default, identifier ids.
  const json doc = testing::J(R"json({"type":"struct","schema-id":1,"identifier-field-ids":[1],"fields":[
      {"id":1,"name":"id","required":true,"type":"decimal(9,2)","doc":"d"},
      {"id":2,"name":"s","required":false,"initial-default":{"3":1},"type":{"type":"struct","fields":[
        {"id":3,"name":"l","required":false,"type":{"type":"list","element-id":4,"element-required":true,"element":"fixed[3]"}}]}},
      {"id":5,"name":"m","required":false,"type":{"type":"map","key-id":6,"key":"string","value-id":7,
        "value-required":false,"value":"timestamptz"}}]})json");
  const int accepted = MutateEverywhere(doc, [](const json& j) {
    Result<Schema> s = SchemaFromJson(j);
    if (s.ok()) (void)SchemaToJson(*s).dump();  // what parses must also serialize
    return s.ok();
  });
  EXPECT_GT(accepted, 0) << "some mutations (docs, defaults, names) are still valid schemas";
}

TEST(SchemaJsonRobustness, NoMutationOfASpecOrOrderThrows) {
  const json spec = testing::J(R"({"spec-id":1,"fields":[
      {"name":"a","transform":"bucket[4]","source-id":1,"field-id":1000},
      {"name":"b","transform":"day","source-ids":[2],"field-id":1001}]})");
  MutateEverywhere(spec, [](const json& j) { return PartitionSpecFromJson(j).ok(); });
  const json order = testing::J(R"({"order-id":1,"fields":[
      {"transform":"identity","source-id":1,"direction":"asc","null-order":"nulls-first"}]})");
  MutateEverywhere(order, [](const json& j) { return SortOrderFromJson(j).ok(); });
  for (const json& j : {json(nullptr), json(5), json("x"), json::array(), json::object()}) {
    EXPECT_NO_THROW((void)TypeFromJson(j));
    EXPECT_NO_THROW((void)SchemaFromJson(j));
    EXPECT_NO_THROW((void)PartitionSpecFromJson(j));
    EXPECT_NO_THROW((void)SortOrderFromJson(j));
  }
}

}  // namespace
}  // namespace floe::schema
