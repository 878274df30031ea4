#pragma once
// The decode plan: a JsonType compiled once against the Arrow builders of its columns, and
// run over a parsed simdjson DOM value. Run<false> checks a value exactly as Run<true> would
// append it, appending nothing: the decoder uses it to keep bad records out of the builders
// (record_decoder.cc says when).
#include <arrow/array/builder_base.h>
#include <simdjson.h>

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "floe/core/result.h"
#include "floe/json/json_type.h"

namespace floe::json::internal {

struct PlanNode {
  PlanNode() = default;
  PlanNode(PlanNode&&) = default;
  PlanNode& operator=(PlanNode&&) = default;
  PlanNode(const PlanNode&) = delete;  // `index` views into `names`: a copy would dangle

  Kind kind = Kind::kNull;
  int bits = 64;       // kInteger
  int precision = 0;   // kDecimal*
  int scale = 0;       // kDecimal*
  bool nullable = true;
  // The builder of this value's column, or null when the type has no column (HasColumn):
  // such values are only checked (null, or objects/arrays of nulls).
  arrow::ArrayBuilder* builder = nullptr;
  arrow::ArrayBuilder* key_builder = nullptr;  // kMap
  // kObject: one per property, in schema order, named by `names`; kArray/kMap: the item.
  std::vector<PlanNode> children;
  std::vector<std::string> names;
  // kObject with many properties: name → index (views into `names`, which never changes
  // after Compile).
  std::unordered_map<std::string_view, std::size_t> index;
  // Per-record scratch of kObject: the member found for each property. A node is never
  // entered again while its own members are being visited (types are finite), so one
  // scratch per node is enough.
  mutable std::vector<simdjson::dom::element> slots;
  mutable std::vector<char> found;
};

// Where a value is, for messages: "$", "$.a.b", "$.items[3]", "$.attrs['a key']". Built on
// the stack as the walk descends and rendered only when a value is refused.
struct Path {
  const Path* parent = nullptr;
  std::string_view name;
  std::int64_t index = -1;  // an array element when >= 0
};
std::string Render(const Path& path);

// Compiles `field` against `builder`, a builder of ToArrowType(field.type) (or null when
// the type has no column).
Result<PlanNode> Compile(const JsonField& field, arrow::ArrayBuilder* builder);
// The top level of a value: one builder per field that has a column, in field order.
Result<PlanNode> CompileColumns(const JsonType& object, const std::vector<arrow::ArrayBuilder*>& columns);

// One value of the node (null included).
template <bool kAppend>
Status Run(const PlanNode& node, simdjson::dom::element value, const Path& path);
// The members of an object into the node's children (the top level of a value).
template <bool kAppend>
Status RunMembers(const PlanNode& node, simdjson::dom::object object, const Path& path);

extern template Status Run<true>(const PlanNode&, simdjson::dom::element, const Path&);
extern template Status Run<false>(const PlanNode&, simdjson::dom::element, const Path&);
extern template Status RunMembers<true>(const PlanNode&, simdjson::dom::object, const Path&);
extern template Status RunMembers<false>(const PlanNode&, simdjson::dom::object, const Path&);

// One simdjson DOM parser and the padded copy of the payload it reads (simdjson reads up to
// SIMDJSON_PADDING bytes past the end), both reused from record to record. The element
// returned lives until the next Parse.
class PaddedParser {
 public:
  // Invalid JSON (syntax, UTF-8, trailing bytes, too-large numbers) is kInvalidArgument.
  Result<simdjson::dom::element> Parse(std::string_view payload);

 private:
  simdjson::dom::parser parser_;
  std::vector<char> padded_;
};

// Whether a value needs a column: anything but null, and objects/arrays holding only such.
// Deeper than max_depth counts as needing one (callers then refuse it).
bool NeedsColumn(simdjson::dom::element value, int depth, int max_depth);

// The array or object a value of that type is, by value: iterating a simdjson_result's
// value_unsafe() directly would iterate a dead temporary.
inline simdjson::dom::array ArrayOf(simdjson::dom::element v) { return v.get_array().value_unsafe(); }
inline simdjson::dom::object ObjectOf(simdjson::dom::element v) { return v.get_object().value_unsafe(); }

// What a JSON value is, as messages name it: "string", "integer", "number", "object", ...
const char* FoundName(simdjson::dom::element value);

}  // namespace floe::json::internal
