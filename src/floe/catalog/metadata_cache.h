#pragma once
// The last few table metadata files IcebergCatalog read or wrote, parsed, by location.
// A metadata file never changes once written (its name carries a UUID), so a location read
// again — each ingestion commit loads the table it then commits to, and the next commit loads
// the file the previous one wrote — needs no read and no parse. That parse is what grows with
// the table's snapshots: ~0.6 MB of JSON at max_snapshots 500 and 32 Kafka partitions
// (docs/maintenance.md, "How large the metadata grows"). Thread-safe; least recently used out.
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "floe/iceberg/table_metadata.h"

namespace floe::catalog {

class MetadataCache {
 public:
  explicit MetadataCache(std::size_t capacity = 8) : capacity_(capacity) {}

  std::optional<iceberg::TableMetadata> Find(const std::string& location) {
    std::lock_guard lock(mu_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first != location) continue;
      entries_.splice(entries_.begin(), entries_, it);
      return *entries_.front().second;
    }
    return std::nullopt;
  }

  void Put(const std::string& location, const iceberg::TableMetadata& metadata) {
    auto parsed = std::make_shared<const iceberg::TableMetadata>(metadata);
    std::lock_guard lock(mu_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first == location) {
        entries_.erase(it);
        break;
      }
    }
    entries_.emplace_front(location, std::move(parsed));
    while (entries_.size() > capacity_) entries_.pop_back();
  }

 private:
  const std::size_t capacity_;
  std::mutex mu_;
  std::list<std::pair<std::string, std::shared_ptr<const iceberg::TableMetadata>>> entries_;  // newest first
};

}  // namespace floe::catalog
