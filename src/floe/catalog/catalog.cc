#include "floe/catalog/catalog.h"

#include <cstddef>
#include <cstdint>

namespace floe::catalog {
namespace {

Status NoViews() { return Status::Unsupported("this catalog does not store Iceberg views"); }

constexpr std::size_t kMaxNameBytes = 255;        // VARCHAR(255) name columns
constexpr std::size_t kMaxLocationBytes = 1000;   // VARCHAR(1000) location / value columns

// Well-formed UTF-8 (no overlongs, no surrogates, at most U+10FFFF).
bool IsValidUtf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len;
    std::uint32_t cp;
    if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + len > s.size()) return false;
    for (std::size_t k = 1; k < len; ++k) {
      auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000)) return false;
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

// Shown in messages: the text itself when short and printable, else a cut-down form.
std::string Shown(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 80)) {
    if (c == '\0') {
      out += "\\0";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += '?';
    } else {
      out += c;
    }
  }
  if (s.size() > 80) out += "...";
  return "'" + out + "'";
}

Status CheckText(std::string_view what, std::string_view s, std::size_t max_bytes) {
  if (s.empty()) return Status::InvalidArgument(std::string(what) + " must not be empty");
  if (s.find('\0') != std::string_view::npos) {
    return Status::InvalidArgument(std::string(what) + " " + Shown(s) + " contains a NUL character");
  }
  if (s.size() > max_bytes) {
    return Status::InvalidArgument(std::string(what) + " " + Shown(s) + " is " + std::to_string(s.size()) +
                                   " bytes long; the catalog allows at most " + std::to_string(max_bytes));
  }
  if (!IsValidUtf8(s)) return Status::InvalidArgument(std::string(what) + " " + Shown(s) + " is not valid UTF-8");
  return Status::OK();
}

}  // namespace

std::string NamespaceToString(const Namespace& ns) {
  std::string out;
  for (std::size_t i = 0; i < ns.size(); ++i) {
    if (i) out += '.';
    out += ns[i];
  }
  return out;
}

std::string TableIdentifierToString(const TableIdentifier& id) {
  std::string ns = NamespaceToString(id.ns);
  return ns.empty() ? id.name : ns + "." + id.name;
}

Namespace NamespaceFromString(std::string_view text) {
  Namespace ns;
  if (text.empty()) return ns;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = text.find('.', start);
    if (dot == std::string_view::npos) {
      ns.emplace_back(text.substr(start));
      return ns;
    }
    ns.emplace_back(text.substr(start, dot - start));
    start = dot + 1;
  }
}

Result<TableIdentifier> ParseTableIdentifier(std::string_view text) {
  std::size_t dot = text.rfind('.');
  if (dot == std::string_view::npos) {
    return Status::InvalidArgument("table identifier " + Shown(text) +
                                   " has no namespace: write it as namespace.table (e.g. lake.orders)");
  }
  TableIdentifier id{NamespaceFromString(text.substr(0, dot)), std::string(text.substr(dot + 1))};
  FLOE_RETURN_IF_ERROR(ValidateTableIdentifier(id));
  return id;
}

Status ValidateNamespace(const Namespace& ns) {
  if (ns.empty()) return Status::InvalidArgument("namespace must have at least one level");
  for (const auto& level : ns) {
    FLOE_RETURN_IF_ERROR(CheckText("namespace level", level, kMaxNameBytes));
    if (level.find('.') != std::string::npos) {
      return Status::InvalidArgument("namespace level " + Shown(level) +
                                     " contains '.', which separates levels in the catalog; use a list of levels instead");
    }
  }
  std::string joined = NamespaceToString(ns);
  if (joined.size() > kMaxNameBytes) {
    return Status::InvalidArgument("namespace " + Shown(joined) + " is " + std::to_string(joined.size()) +
                                   " bytes long joined with '.'; the catalog allows at most " +
                                   std::to_string(kMaxNameBytes));
  }
  return Status::OK();
}

Status ValidateTableIdentifier(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(id.ns));
  return CheckText("table name", id.name, kMaxNameBytes);
}

Status ValidateCatalogName(std::string_view name) { return CheckText("catalog name", name, kMaxNameBytes); }

Status ValidateMetadataLocation(std::string_view location) {
  return CheckText("metadata location", location, kMaxLocationBytes);
}

Status ValidatePropertyKey(std::string_view key) {
  FLOE_RETURN_IF_ERROR(CheckText("namespace property key", key, kMaxNameBytes));
  if (key == "exists") {
    return Status::InvalidArgument(
        "namespace property 'exists' is reserved: the catalog uses it to mark that a namespace exists");
  }
  return Status::OK();
}

Status ValidatePropertyValue(std::string_view key, std::string_view value) {
  // Values may be empty; only NUL, size and encoding matter.
  if (value.empty()) return Status::OK();
  return CheckText("value of namespace property '" + std::string(key) + "'", value, kMaxLocationBytes);
}

// --- Views: a pointer store without them ------------------------------------------------------

Result<std::vector<TableIdentifier>> Catalog::ListViews(const Namespace&) { return NoViews(); }
Status Catalog::CreateView(const TableIdentifier&, const std::string&) { return NoViews(); }
Result<TableRecord> Catalog::LoadView(const TableIdentifier&) { return NoViews(); }
Status Catalog::SwapViewMetadataLocation(const TableIdentifier&, const std::string&, const std::string&) {
  return NoViews();
}
Status Catalog::DropView(const TableIdentifier&) { return NoViews(); }
Status Catalog::RenameView(const TableIdentifier&, const TableIdentifier&) { return NoViews(); }

}  // namespace floe::catalog
