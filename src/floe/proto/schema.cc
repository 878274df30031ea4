#include "floe/proto/schema.h"

#include <google/protobuf/compiler/parser.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <vector>

#include "floe/proto/builtin_files_internal.h"

namespace floe::proto {

namespace gp = google::protobuf;

namespace {

// The parser goes on after an error, and later errors are mostly consequences of the first:
// a few are enough to act on.
constexpr std::size_t kMaxReportedErrors = 3;

std::string JoinErrors(const std::vector<std::string>& errors) {
  std::string out;
  for (std::size_t i = 0; i < errors.size() && i < kMaxReportedErrors; ++i) out += (i == 0 ? "" : "; ") + errors[i];
  if (errors.size() > kMaxReportedErrors) out += " (and " + std::to_string(errors.size() - kMaxReportedErrors) + " more)";
  return out;
}

class TextErrors final : public gp::io::ErrorCollector {
 public:
  explicit TextErrors(const std::string& file) : file_(file) {}
  void AddError(int line, gp::io::ColumnNumber column, const std::string& message) override {
    // libprotoc counts from 0; editors and the registry UI count from 1.
    errors_.push_back(file_ + ":" + std::to_string(line + 1) + ":" + std::to_string(column + 1) + ": " + message);
  }
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  const std::string& file_;
  std::vector<std::string> errors_;
};

class BuildErrors final : public gp::DescriptorPool::ErrorCollector {
 public:
  explicit BuildErrors(const gp::compiler::SourceLocationTable* locations) : locations_(locations) {}
  void AddError(const std::string& filename, const std::string& element_name, const gp::Message* descriptor,
                ErrorLocation location, const std::string& message) override {
    int line = -1;
    int column = 0;
    if (locations_ != nullptr && descriptor != nullptr) locations_->Find(descriptor, location, &line, &column);
    std::string where = filename;
    if (line >= 0) where += ":" + std::to_string(line + 1) + ":" + std::to_string(column + 1);
    errors_.push_back(where + ": " + (element_name.empty() ? "" : "'" + element_name + "': ") + message);
  }
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  const gp::compiler::SourceLocationTable* locations_;
  std::vector<std::string> errors_;
};

int Base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;  // standard and URL-safe alphabets
  if (c == '/' || c == '_') return 63;
  return -1;
}

// Strict base64 (padding optional, whitespace ignored): false for anything else, which is how
// `.proto` text is told apart.
bool DecodeBase64(std::string_view text, std::string* out) {
  std::uint32_t bits = 0;
  int nbits = 0;
  std::size_t symbols = 0;
  std::size_t padding = 0;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (c == '=') {
      ++padding;
      continue;
    }
    const int v = Base64Value(c);
    if (v < 0 || padding > 0) return false;
    bits = (bits << 6) | static_cast<std::uint32_t>(v);
    nbits += 6;
    ++symbols;
    if (nbits >= 8) {
      nbits -= 8;
      out->push_back(static_cast<char>((bits >> nbits) & 0xff));
    }
  }
  if (symbols == 0 || symbols % 4 == 1 || padding > 2) return false;
  return padding == 0 || (symbols + padding) % 4 == 0;
}

}  // namespace

class ProtoSchema::Loader {
 public:
  Loader(gp::DescriptorPool* pool, const ImportResolver& imports) : pool_(pool), imports_(imports) {}

  // Parses `text` (either form) as the file `name` and builds it with its imports. With
  // `keep_descriptor_name`, a serialized descriptor keeps the name it carries.
  Result<const gp::FileDescriptor*> Load(std::string_view text, const std::string& name, bool keep_descriptor_name) {
    gp::FileDescriptorProto file;
    std::string binary;
    if (DecodeBase64(text, &binary) && file.ParseFromString(binary)) {
      if (!keep_descriptor_name || file.name().empty()) file.set_name(name);
      return Build(file, nullptr);
    }
    file.Clear();
    gp::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()));
    TextErrors errors(name);
    gp::io::Tokenizer tokenizer(&input, &errors);
    gp::compiler::SourceLocationTable locations;
    gp::compiler::Parser parser;
    parser.RecordErrorsTo(&errors);
    parser.RecordSourceLocationsTo(&locations);
    if (!parser.Parse(&tokenizer, &file) || !errors.errors().empty()) {
      return Status::InvalidArgument("the Protobuf schema does not parse: " + JoinErrors(errors.errors()));
    }
    file.set_name(name);
    return Build(file, &locations);
  }

 private:
  Result<const gp::FileDescriptor*> Build(const gp::FileDescriptorProto& file,
                                          const gp::compiler::SourceLocationTable* locations) {
    if (const auto* built = pool_->FindFileByName(file.name())) return built;
    loading_.push_back(file.name());
    for (const std::string& dependency : file.dependency()) {
      FLOE_RETURN_IF_ERROR(Import(dependency, file.name()));
    }
    loading_.pop_back();
    BuildErrors errors(locations);
    const gp::FileDescriptor* built = pool_->BuildFileCollectingErrors(file, &errors);
    if (built == nullptr) {
      return Status::InvalidArgument("the Protobuf schema is not valid: " + JoinErrors(errors.errors()));
    }
    return built;
  }

  Status Import(const std::string& name, const std::string& importer) {
    if (pool_->FindFileByName(name) != nullptr) return Status::OK();
    if (std::find(loading_.begin(), loading_.end(), name) != loading_.end()) {
      std::string cycle;
      for (auto it = std::find(loading_.begin(), loading_.end(), name); it != loading_.end(); ++it) cycle += *it + " -> ";
      return Status::InvalidArgument("Protobuf imports form a cycle: " + cycle + name);
    }
    if (const std::string_view builtin = internal::BuiltinProtoSource(name); !builtin.empty()) {
      return Load(builtin, name, false).status();
    }
    if (name.starts_with("google/protobuf/")) {
      if (const auto* wkt = gp::DescriptorPool::generated_pool()->FindFileByName(name)) {
        gp::FileDescriptorProto file;
        wkt->CopyTo(&file);
        return Build(file, nullptr).status();
      }
    }
    if (!imports_) {
      return Status::InvalidArgument("import \"" + name + "\" of " + importer +
                                     " is not a built-in file and the schema has no references to resolve it");
    }
    Result<std::string> text = imports_(name);
    if (!text.ok()) return text.status().WithContext("resolving import \"" + name + "\" of " + importer);
    Result<const gp::FileDescriptor*> loaded = Load(*text, name, false);
    if (!loaded.ok()) return loaded.status().WithContext("import \"" + name + "\" of " + importer);
    return Status::OK();
  }

  gp::DescriptorPool* pool_;
  const ImportResolver& imports_;
  std::vector<std::string> loading_;  // the import chain being built, for cycle messages
};

ProtoSchema::~ProtoSchema() = default;

Result<std::shared_ptr<const ProtoSchema>> ProtoSchema::Parse(std::string_view text, const ImportResolver& imports,
                                                              const std::string& root_name) {
  std::shared_ptr<ProtoSchema> schema(new ProtoSchema());
  schema->pool_ = std::make_unique<gp::DescriptorPool>();
  Loader loader(schema->pool_.get(), imports);
  FLOE_ASSIGN_OR_RETURN(schema->file_, loader.Load(text, root_name, true));
  return std::shared_ptr<const ProtoSchema>(std::move(schema));
}

Result<const gp::Descriptor*> ProtoSchema::MessageFor(std::span<const std::int32_t> indexes,
                                                      std::string_view configured_name) const {
  if (indexes.empty()) return Status::InvalidArgument("an empty message-index array names no message");
  if (!configured_name.empty() && indexes.size() == 1 && indexes[0] == 0) return FindMessage(configured_name);
  auto path = [&] {
    std::string s;
    for (std::int32_t i : indexes) s += (s.empty() ? "" : ", ") + std::to_string(i);
    return "message indexes [" + s + "]";
  };
  if (indexes[0] < 0 || indexes[0] >= file_->message_type_count()) {
    return Status::InvalidArgument(path() + " name no message: " + file_->name() + " has " +
                                   std::to_string(file_->message_type_count()) + " top-level messages");
  }
  const gp::Descriptor* message = file_->message_type(indexes[0]);
  for (std::size_t i = 1; i < indexes.size(); ++i) {
    if (indexes[i] < 0 || indexes[i] >= message->nested_type_count()) {
      return Status::InvalidArgument(path() + " name no message: " + message->full_name() + " has " +
                                     std::to_string(message->nested_type_count()) + " nested messages");
    }
    message = message->nested_type(indexes[i]);
  }
  return message;
}

Result<const gp::Descriptor*> ProtoSchema::FindMessage(std::string_view full_name) const {
  const gp::Descriptor* message = pool_->FindMessageTypeByName(std::string(full_name));
  if (message == nullptr) {
    return Status::InvalidArgument("no message '" + std::string(full_name) + "' in " + file_->name() +
                                   " or the files it imports");
  }
  return message;
}

}  // namespace floe::proto
