#pragma once
// A Protobuf schema from the Schema Registry, parsed once into its own DescriptorPool: the
// schema's file, every file it imports, and the messages a record can name.
//
// What a registry hands out, both accepted:
//  - `.proto` text (what Java's serializer and the registry UI register), parsed with
//    libprotoc's own parser; errors carry the parser's message as file:line:column;
//  - base64 of a serialized FileDescriptorProto (what Python's ProtobufSerializer registers).
//    Text that is valid base64 and decodes to a FileDescriptorProto is read this way; anything
//    else is parsed as `.proto` text (which always has `;` or `{`, never base64).
//
// Imports, resolved in this order, each file once (import cycles are refused):
//  1. files already in the pool (an import shared by two files);
//  2. built in, without any registry entry: `google/protobuf/*.proto` (copied from libprotobuf's
//     generated pool), `confluent/meta.proto`, `confluent/type/decimal.proto` and
//     `google/type/date.proto` (embedded copies of the public definitions);
//  3. the ImportResolver, which the pipeline backs with the schema's registry references
//     (reference name -> subject/version -> schema text). Its errors pass through unchanged,
//     so an unreachable registry stays kUnavailable (retry later) rather than a bad schema.
// A schema that does not parse or build is kInvalidArgument naming the file and position.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "floe/core/result.h"

namespace google::protobuf {
class Descriptor;
class DescriptorPool;
class FileDescriptor;
}  // namespace google::protobuf

namespace floe::proto {

// The schema text (either form above) of an imported file, by its import name. Called for
// imports of imports too, right after the importing file was resolved: a resolver backed by
// registry references can add each fetched schema's own references to its name -> subject /
// version map before returning its text, and nested references resolve.
using ImportResolver = std::function<Result<std::string>(const std::string& import_name)>;

class ProtoSchema {
 public:
  // `root_name` is the file name the schema gets in its pool (registry schemas have none of
  // their own); a base64 FileDescriptorProto keeps the name it carries.
  static Result<std::shared_ptr<const ProtoSchema>> Parse(std::string_view text, const ImportResolver& imports = {},
                                                          const std::string& root_name = "schema.proto");

  ~ProtoSchema();
  ProtoSchema(const ProtoSchema&) = delete;
  ProtoSchema& operator=(const ProtoSchema&) = delete;

  const google::protobuf::FileDescriptor* file() const { return file_; }

  // The message a record is, from its message indexes (wire_format.h): [0] is the file's first
  // message, [1, 0] the first nested message of the second one (map entries count, as they
  // are nested types of the descriptor). The configured name (the topic's `message:`) is used
  // only when the indexes are [0]: that is what producers write when they do not know better,
  // and any other index path was chosen deliberately by the producer, so it wins. Indexes
  // that name no message, or a configured name that is not in the pool, are kInvalidArgument.
  Result<const google::protobuf::Descriptor*> MessageFor(std::span<const std::int32_t> indexes,
                                                         std::string_view configured_name = {}) const;
  // A message by full name (`acme.Payment`), from this file or any file it imports.
  Result<const google::protobuf::Descriptor*> FindMessage(std::string_view full_name) const;

 private:
  ProtoSchema() = default;
  class Loader;

  std::unique_ptr<google::protobuf::DescriptorPool> pool_;
  const google::protobuf::FileDescriptor* file_ = nullptr;
};

}  // namespace floe::proto
