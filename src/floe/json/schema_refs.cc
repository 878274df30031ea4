#include <charconv>

#include "floe/core/json_depth.h"
#include "floe/json/schema_refs_internal.h"

namespace floe::json::internal {
namespace {

std::string PercentDecode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    int v = 0;
    if (s[i] == '%' && i + 2 < s.size() &&
        std::from_chars(s.data() + i + 1, s.data() + i + 3, v, 16).ptr == s.data() + i + 3) {
      out += static_cast<char>(v);
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string Unescape(std::string_view token) {
  std::string out;
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
      out += token[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      out += token[i];
    }
  }
  return out;
}

}  // namespace

std::string Where(const SchemaDoc& doc, const std::string& pointer) { return doc.uri + "#" + pointer; }

std::string Child(const std::string& pointer, const std::string& token) {
  std::string out = pointer + "/";
  for (char c : token) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

Result<SchemaJson> ParseSchema(std::string_view text, const std::string& what) {
  FLOE_RETURN_IF_ERROR(CheckJsonDepth(text, what));
  try {  // nlohmann reports where the text breaks only through its exception
    return SchemaJson::parse(text);
  } catch (const SchemaJson::exception& e) {
    return Status::InvalidArgument(what + " is not valid JSON: " + e.what());
  }
}

Result<SchemaDocs::Target> SchemaDocs::Resolve(const SchemaDoc& from, const std::string& ref,
                                               const std::string& where) {
  const std::size_t hash = ref.find('#');
  const std::string base = ref.substr(0, hash);
  const std::string pointer = hash == std::string::npos ? "" : PercentDecode(ref.substr(hash + 1));
  const SchemaDoc* doc = &from;
  // A ref to the document's own $id is local.
  const bool local = base.empty() || (from.root.is_object() && from.root.contains("$id") && from.root["$id"] == base);
  if (!local) {
    FLOE_ASSIGN_OR_RETURN(doc, External(base, where));
  }
  if (!pointer.empty() && pointer[0] != '/') {
    return Status::Unsupported(where + ": $ref '" + ref + "' names an anchor; only JSON pointers (#/...) are resolved");
  }
  const SchemaJson* at = &doc->root;
  for (std::size_t pos = 0; pos < pointer.size();) {
    const std::size_t next = pointer.find('/', pos + 1);
    const std::string token =
        Unescape(std::string_view(pointer).substr(pos + 1, next == std::string::npos ? std::string::npos : next - pos - 1));
    const SchemaJson* child = nullptr;
    if (at->is_object()) {
      if (auto it = at->find(token); it != at->end()) child = &*it;
    } else if (at->is_array()) {
      std::size_t index = 0;
      auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), index);
      if (ec == std::errc() && end == token.data() + token.size() && index < at->size()) child = &(*at)[index];
    }
    if (!child) return Status::InvalidArgument(where + ": $ref '" + ref + "' points to nothing in " + Where(*doc, ""));
    at = child;
    pos = next == std::string::npos ? pointer.size() : next;
  }
  return Target{doc, at, pointer};
}

Result<const SchemaDoc*> SchemaDocs::External(const std::string& uri, const std::string& where) {
  if (auto it = docs_.find(uri); it != docs_.end()) return it->second.get();
  if (!resolver_) {
    return Status::Unsupported(where + ": $ref to '" + uri + "' needs a reference resolver, and none was given");
  }
  auto text = resolver_(uri);
  if (!text.ok()) return text.status().WithContext(where + ": resolving $ref '" + uri + "'");
  FLOE_ASSIGN_OR_RETURN(SchemaJson root, ParseSchema(*text, "the schema of $ref '" + uri + "'"));
  auto doc = std::make_unique<SchemaDoc>(SchemaDoc{uri, std::move(root)});
  const SchemaDoc* raw = doc.get();
  docs_.emplace(uri, std::move(doc));
  return raw;
}

}  // namespace floe::json::internal
