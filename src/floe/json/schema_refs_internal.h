#pragma once
// The documents a JSON Schema's `$ref`s lead to: the schema itself, and external documents
// fetched once each through the RefResolver. Resolving a ref finds the schema it names by
// JSON pointer (RFC 6901, percent-decoded as a URI fragment).
#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "floe/core/result.h"
#include "floe/json/schema_mapping.h"

namespace floe::json::internal {

// Ordered: a struct's fields follow the order in which the schema lists its properties.
using SchemaJson = nlohmann::ordered_json;

struct SchemaDoc {
  std::string uri;  // "" for the schema itself, else the external ref's document name
  SchemaJson root;
};

// "<uri>#<pointer>": where a schema is, for messages (and as a key to detect cycles).
std::string Where(const SchemaDoc& doc, const std::string& pointer);
// The pointer to a child: the token escaped (~0, ~1).
std::string Child(const std::string& pointer, const std::string& token);

Result<SchemaJson> ParseSchema(std::string_view text, const std::string& what);

class SchemaDocs {
 public:
  explicit SchemaDocs(const RefResolver& resolver) : resolver_(resolver) {}

  struct Target {
    const SchemaDoc* doc;
    const SchemaJson* schema;
    std::string pointer;  // within doc
  };
  // The schema `ref` names, written in `from`; `where` is the ref's own location. A ref to
  // another document without a resolver, or to an anchor, is kUnsupported; a pointer to
  // nothing is kInvalidArgument; the resolver's errors come back with the ref named.
  Result<Target> Resolve(const SchemaDoc& from, const std::string& ref, const std::string& where);

 private:
  Result<const SchemaDoc*> External(const std::string& uri, const std::string& where);

  const RefResolver& resolver_;
  std::map<std::string, std::unique_ptr<SchemaDoc>> docs_;
};

}  // namespace floe::json::internal
