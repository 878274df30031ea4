#include "floe/delta/log_store_internal.h"

#include <arrow/buffer.h>
#include <arrow/filesystem/filesystem.h>

#include <charconv>
#include <cstdio>
#include <map>

#include "floe/core/arrow_interop.h"

namespace floe::delta {
namespace {

std::string Padded(std::int64_t version) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%020lld", static_cast<long long>(version));
  return buf;
}

std::optional<std::int64_t> ParseVersion(std::string_view digits) {
  if (digits.size() != 20) return std::nullopt;
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || p != digits.data() + digits.size()) return std::nullopt;
  return v;
}

Status Write(storage::FileIO& io, const std::string& relative, const std::string& content) {
  FLOE_ASSIGN_OR_RETURN(auto file, io.Create(relative));
  FLOE_RETURN_IF_ARROW_ERROR(file->stream()->Write(content.data(), static_cast<std::int64_t>(content.size())));
  FLOE_RETURN_IF_ARROW_ERROR(file->stream()->Close());
  return file->Commit();
}

Result<std::string> FsPath(storage::FileIO& io, const std::string& relative) {
  return FromArrow(io.filesystem()->PathFromUri(io.Uri(relative)));
}

}  // namespace

std::string CommitFileName(std::int64_t version) { return std::string(kLogDir) + "/" + Padded(version) + ".json"; }
std::string CheckpointFileName(std::int64_t version) {
  return std::string(kLogDir) + "/" + Padded(version) + ".checkpoint.parquet";
}

Result<LogListing> ListLog(storage::FileIO& io) {
  LogListing out;
  FLOE_ASSIGN_OR_RETURN(auto dir, FsPath(io, kLogDir));
  FLOE_ASSIGN_OR_RETURN_ARROW(auto info, io.filesystem()->GetFileInfo(dir));
  if (info.type() != arrow::fs::FileType::Directory) return out;
  out.exists = true;
  arrow::fs::FileSelector selector;
  selector.base_dir = dir;
  FLOE_ASSIGN_OR_RETURN_ARROW(auto files, io.filesystem()->GetFileInfo(selector));
  // Multi-part checkpoints: NNN.checkpoint.PPPPPPPPPP.TTTTTTTTTT.parquet, complete when all T parts are there.
  std::map<std::int64_t, std::map<int, std::string>> parts;
  std::map<std::int64_t, int> part_totals;
  std::map<std::int64_t, std::vector<std::string>> singles;
  for (const auto& f : files) {
    if (f.type() != arrow::fs::FileType::File) continue;
    const std::string name = f.base_name();
    if (name.size() < 20) continue;
    const auto version = ParseVersion(std::string_view(name).substr(0, 20));
    if (!version) continue;
    const std::string rest = name.substr(20);
    const std::string relative = std::string(kLogDir) + "/" + name;
    if (rest == ".json") {
      out.commits.push_back(*version);
    } else if (rest == ".checkpoint.parquet") {
      singles[*version] = {relative};
    } else if (rest.rfind(".checkpoint.", 0) == 0 && rest.size() == 12 + 10 + 1 + 10 + 8 &&
               rest.substr(rest.size() - 8) == ".parquet") {
      const int part = std::atoi(rest.substr(12, 10).c_str());
      const int total = std::atoi(rest.substr(23, 10).c_str());
      parts[*version][part] = relative;
      part_totals[*version] = total;
    }
    // Anything else (UUID-named v2 checkpoints, .crc files, compacted logs, temporaries) is skipped:
    // a classic checkpoint or the JSON commits describe the same versions.
  }
  for (const auto& [v, p] : parts) {
    if (static_cast<int>(p.size()) != part_totals[v] || singles.count(v)) continue;
    std::vector<std::string> files_of;
    for (const auto& [_, path] : p) files_of.push_back(path);
    singles[v] = std::move(files_of);
  }
  std::sort(out.commits.begin(), out.commits.end());
  for (auto& [v, f] : singles) out.checkpoints.emplace_back(v, std::move(f));
  return out;
}

Result<std::string> ReadText(storage::FileIO& io, const std::string& relative) {
  FLOE_ASSIGN_OR_RETURN(auto path, FsPath(io, relative));
  FLOE_ASSIGN_OR_RETURN_ARROW(auto info, io.filesystem()->GetFileInfo(path));
  if (info.type() != arrow::fs::FileType::File) return Status::NotFound(relative + " does not exist");
  FLOE_ASSIGN_OR_RETURN(auto file, io.OpenRead(relative));
  FLOE_ASSIGN_OR_RETURN_ARROW(auto size, file->GetSize());
  FLOE_ASSIGN_OR_RETURN_ARROW(auto buffer, file->ReadAt(0, size));
  return buffer->ToString();
}

Status PutIfAbsent(storage::FileIO& io, const std::string& relative, const std::string& content) {
  Status put = io.PutIfAbsent(relative, content);
  if (put.code() != StatusCode::kUnsupported) {
    if (put.code() == StatusCode::kConflict) {
      return Status::Conflict(relative + " already exists (a concurrent commit won): " + put.message());
    }
    return put;
  }
  // A store without a conditional create: check-then-write leaves a window in which two
  // writers can both succeed. `floe run` refuses Delta on such a store unless
  // storage.delta_single_writer is set (docs/storage.md).
  FLOE_ASSIGN_OR_RETURN(auto path, FsPath(io, relative));
  FLOE_ASSIGN_OR_RETURN_ARROW(auto info, io.filesystem()->GetFileInfo(path));
  if (info.type() != arrow::fs::FileType::NotFound) {
    return Status::Conflict(relative + " already exists (a concurrent commit won)");
  }
  return Write(io, relative, content);
}

Status PutReplace(storage::FileIO& io, const std::string& relative, const std::string& content) {
  return Write(io, relative, content);
}

}  // namespace floe::delta
