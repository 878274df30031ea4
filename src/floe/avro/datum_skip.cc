#include "floe/avro/datum_skip_internal.h"

#include <limits>
#include <string>
#include <string_view>

namespace floe::avro {
namespace {

// The field path of the value being skipped, built only when there is an error: one
// frame per level on the stack, like the decoders' "customer.tags[]".
struct PathFrame {
  const PathFrame* parent = nullptr;
  std::string_view name;  // a field name, "[]" (array items), "{}" (map values)
};

std::string PathOf(const PathFrame* f) {
  if (f == nullptr) return "";
  std::string parent = PathOf(f->parent);
  if (f->name == "[]" || f->name == "{}") return parent + std::string(f->name);
  return parent.empty() ? std::string(f->name) : parent + "." + std::string(f->name);
}

Status Annotate(const PathFrame* where, Status error) {
  const std::string path = PathOf(where);
  return path.empty() ? error : error.WithContext("field '" + path + "'");
}

#define FLOE_SKIP_TRY(expr)                                          \
  do {                                                               \
    ::floe::Status skip_status_ = (expr);                            \
    if (!skip_status_.ok()) [[unlikely]] {                           \
      return Annotate(where, std::move(skip_status_));               \
    }                                                                \
  } while (0)

Status Skip(const Node& n, BinaryReader& in, const PathFrame* where);

// Array and map blocks, as the decoders read them (see decode_plan_run.cc): a negative
// count is followed by the block's byte size, which must match the items.
Status SkipBlocks(const Node& n, BinaryReader& in, const PathFrame* where) {
  const Node& item = n.type == Type::kArray ? *n.items : *n.values;
  const bool empty_items = n.type == Type::kArray && IsAlwaysEmpty(item);
  PathFrame child{where, n.type == Type::kArray ? "[]" : "{}"};
  while (true) {
    const std::size_t at = in.offset();
    std::int64_t count = 0;
    FLOE_SKIP_TRY(in.ReadLong(&count));
    if (count == 0) return Status::OK();
    std::int64_t byte_size = -1;
    if (count < 0) {
      if (count == std::numeric_limits<std::int64_t>::min()) {
        return Annotate(where, reader_errors::Invalid(at, "block count " + std::to_string(count) + " is out of range"));
      }
      count = -count;
      const std::size_t size_at = in.offset();
      FLOE_SKIP_TRY(in.ReadLong(&byte_size));
      if (byte_size < 0 || static_cast<std::uint64_t>(byte_size) > in.remaining()) {
        return Annotate(where, reader_errors::Invalid(size_at, "block size " + std::to_string(byte_size) + " with " +
                                                                   std::to_string(in.remaining()) + " bytes left"));
      }
    }
    // Items of zero bytes (arrays of null) need no walk; any other item takes a byte at
    // least (a map entry two), so a larger count is a lie, and would loop for nothing.
    if (empty_items) continue;
    if (static_cast<std::uint64_t>(count) > in.remaining()) {
      return Annotate(where, reader_errors::Invalid(at, "block of " + std::to_string(count) + " items with only " +
                                                            std::to_string(in.remaining()) + " bytes left"));
    }
    const std::size_t block_start = in.offset();
    for (std::int64_t i = 0; i < count; ++i) {
      if (n.type == Type::kMap) {
        std::string_view key;
        FLOE_SKIP_TRY(in.ReadString(&key));
      }
      FLOE_RETURN_IF_ERROR(Skip(item, in, &child));
    }
    if (byte_size >= 0 && in.offset() - block_start != static_cast<std::uint64_t>(byte_size)) {
      return Annotate(where, reader_errors::Invalid(block_start, "block says it has " + std::to_string(byte_size) +
                                                                     " bytes but its items took " +
                                                                     std::to_string(in.offset() - block_start)));
    }
  }
}

Status Skip(const Node& n, BinaryReader& in, const PathFrame* where) {
  switch (n.type) {
    case Type::kNull: return Status::OK();
    case Type::kBoolean: {
      bool v = false;
      FLOE_SKIP_TRY(in.ReadBoolean(&v));
      return Status::OK();
    }
    case Type::kInt: {
      std::int32_t v = 0;
      FLOE_SKIP_TRY(in.ReadInt(&v));
      return Status::OK();
    }
    case Type::kLong: {
      std::int64_t v = 0;
      FLOE_SKIP_TRY(in.ReadLong(&v));
      return Status::OK();
    }
    case Type::kFloat: FLOE_SKIP_TRY(in.Skip(4)); return Status::OK();
    case Type::kDouble: FLOE_SKIP_TRY(in.Skip(8)); return Status::OK();
    case Type::kBytes:
    case Type::kString: {
      std::string_view v;
      FLOE_SKIP_TRY(in.ReadBytes(&v));
      return Status::OK();
    }
    case Type::kFixed: {
      std::string_view v;
      FLOE_SKIP_TRY(in.ReadFixed(static_cast<std::size_t>(n.fixed_size), &v));
      return Status::OK();
    }
    case Type::kEnum: {
      const std::size_t at = in.offset();
      std::int32_t v = 0;
      FLOE_SKIP_TRY(in.ReadInt(&v));
      if (v < 0 || static_cast<std::size_t>(v) >= n.symbols.size()) {
        return Annotate(where, reader_errors::Invalid(at, "enum index " + std::to_string(v) +
                                                              " does not exist (the enum has " +
                                                              std::to_string(n.symbols.size()) + " symbols)"));
      }
      return Status::OK();
    }
    case Type::kRecord:
      for (const Field& f : n.fields) {
        PathFrame child{where, f.name};
        FLOE_RETURN_IF_ERROR(Skip(*f.node, in, &child));
      }
      return Status::OK();
    case Type::kArray:
    case Type::kMap: return SkipBlocks(n, in, where);
    case Type::kUnion: {
      const std::size_t at = in.offset();
      std::int64_t branch = 0;
      FLOE_SKIP_TRY(in.ReadLong(&branch));
      if (branch < 0 || static_cast<std::uint64_t>(branch) >= n.branches.size()) {
        return Annotate(where, reader_errors::Invalid(at, "union branch " + std::to_string(branch) +
                                                              " does not exist (the union has " +
                                                              std::to_string(n.branches.size()) + ")"));
      }
      return Skip(*n.branches[static_cast<std::size_t>(branch)], in, where);
    }
  }
  return Status::Internal("unhandled Avro type " + std::string(TypeName(n.type)));
}

#undef FLOE_SKIP_TRY

}  // namespace

Status SkipDatum(const Node& schema, BinaryReader& in) { return Skip(schema, in, nullptr); }

bool IsAlwaysEmpty(const Node& schema) {
  switch (schema.type) {
    case Type::kNull: return true;
    case Type::kFixed: return schema.fixed_size == 0;
    case Type::kRecord:
      for (const Field& f : schema.fields) {
        if (!IsAlwaysEmpty(*f.node)) return false;
      }
      return true;
    default: return false;  // every other type writes at least a varint or a byte
  }
}

}  // namespace floe::avro
