#include "floe/delta/partition_values.h"

#include <arrow/util/decimal.h>
#include <nlohmann/json.hpp>

#include "floe/delta/value_format_internal.h"

namespace floe::delta {

Result<std::optional<std::string>> PartitionValueString(const schema::PartitionValue& value,
                                                        const schema::Type& type) {
  if (!value) return std::optional<std::string>();
  const schema::Literal& v = *value;
  using schema::TypeId;
  auto wrong = [&] { return Status::Internal("partition value does not match its type " + type.ToString()); };
  switch (type.id()) {
    case TypeId::kBoolean:
      if (!std::holds_alternative<bool>(v)) return wrong();
      return std::optional<std::string>(std::get<bool>(v) ? "true" : "false");
    case TypeId::kInt:
      if (!std::holds_alternative<std::int32_t>(v)) return wrong();
      return std::optional<std::string>(std::to_string(std::get<std::int32_t>(v)));
    case TypeId::kDate:
      if (!std::holds_alternative<std::int32_t>(v)) return wrong();
      return std::optional<std::string>(FormatDate(std::get<std::int32_t>(v)));
    case TypeId::kLong:
      if (!std::holds_alternative<std::int64_t>(v)) return wrong();
      return std::optional<std::string>(std::to_string(std::get<std::int64_t>(v)));
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      if (!std::holds_alternative<std::int64_t>(v)) return wrong();
      return std::optional<std::string>(FormatPartitionTimestamp(std::get<std::int64_t>(v)));
    case TypeId::kFloat:
      if (!std::holds_alternative<float>(v)) return wrong();
      return std::optional<std::string>(nlohmann::json(static_cast<double>(std::get<float>(v))).dump());
    case TypeId::kDouble:
      if (!std::holds_alternative<double>(v)) return wrong();
      return std::optional<std::string>(nlohmann::json(std::get<double>(v)).dump());
    case TypeId::kString:
      if (!std::holds_alternative<std::string>(v)) return wrong();
      return std::optional<std::string>(std::get<std::string>(v));
    case TypeId::kDecimal: {
      if (!std::holds_alternative<std::string>(v)) return wrong();
      const auto& bytes = std::get<std::string>(v);
      if (bytes.empty() || bytes.size() > 16) return wrong();
      auto d = arrow::Decimal128::FromBigEndian(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                                static_cast<std::int32_t>(bytes.size()));
      if (!d.ok()) return wrong();
      return std::optional<std::string>(d->ToString(type.scale()));
    }
    default:
      return Status::Unsupported("Delta partition values of type " + type.ToString() + " are not supported");
  }
}

}  // namespace floe::delta
