#pragma once
// Reading Glue's answers and building its table inputs: shared by the Iceberg pointer store
// (glue_catalog.cc) and the Delta table registry (glue_delta_registry.cc).
#include <string>

#include <nlohmann/json.hpp>

#include "floe/core/result.h"

namespace floe::catalog::glue_internal {

// Keeps the code, puts Iceberg's own wording first and Glue's detail after it.
inline Status Reworded(const Status& st, StatusCode code, const std::string& text) {
  if (st.code() != code) return st;
  return Status(code, text + " (" + st.message() + ")");
}

inline std::string StringField(const nlohmann::json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_string()) return "";
  return object[key].get<std::string>();
}

// A copy of object[key], or `fallback` when it is missing: nlohmann's value() with a temporary
// default can hand back a reference to that temporary.
inline nlohmann::json Member(const nlohmann::json& object, const char* key, nlohmann::json fallback) {
  if (object.is_object() && object.contains(key)) return object[key];
  return fallback;
}

// The fields of a GetTable answer that UpdateTable's TableInput takes back. UpdateTable replaces
// the whole definition, so everything others set (Athena's parameters, columns, partition keys)
// is carried over; the rest (CreateTime, VersionId, DatabaseName, …) is not input and Glue
// refuses it.
inline nlohmann::json TableInputOf(const nlohmann::json& table) {
  static constexpr const char* kTableInputFields[] = {
      "Name",          "Description", "Owner",       "Retention",        "StorageDescriptor", "PartitionKeys",
      "TableType",     "Parameters",  "TargetTable", "ViewOriginalText", "ViewExpandedText"};
  nlohmann::json input = nlohmann::json::object();
  for (const char* field : kTableInputFields) {
    if (table.contains(field)) input[field] = table[field];
  }
  return input;
}

// Locations compare without trailing '/' (Glue keeps what it is given, with or without).
inline std::string WithoutTrailingSlash(std::string location) {
  while (location.size() > 1 && location.back() == '/') location.pop_back();
  return location;
}

}  // namespace floe::catalog::glue_internal
