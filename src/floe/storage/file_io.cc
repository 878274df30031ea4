#include "floe/storage/file_io.h"

#include <arrow/filesystem/localfs.h>
#include <arrow/filesystem/path_util.h>
#include <arrow/util/uri.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <random>

#include "floe/core/arrow_interop.h"
#include "floe/storage/azure_store_internal.h"
#include "floe/storage/delegated_access.h"
#include "floe/storage/gcs_store_internal.h"
#include "floe/storage/s3_store_internal.h"

namespace floe::storage {
namespace {

std::string TempSuffix() {
  static std::atomic<std::uint64_t> counter{0};
  static const std::uint64_t seed = std::random_device{}();
  return ".tmp-" + std::to_string(seed) + "-" + std::to_string(counter.fetch_add(1));
}

std::string JoinPath(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a.back() == '/' ? a + b : a + "/" + b;
}

bool IsS3Uri(const std::string& uri) { return uri.rfind("s3://", 0) == 0; }

// s3://bucket/key -> bucket/key, the path form S3FileSystem takes.
std::string S3Path(const std::string& uri) {
  std::string path = uri.substr(5);
  const auto query = path.find('?');
  if (query != std::string::npos) path.resize(query);
  return path;
}

}  // namespace

PendingFile::PendingFile(std::shared_ptr<arrow::fs::FileSystem> fs, std::string final_path, std::string write_path,
                         std::shared_ptr<arrow::io::OutputStream> stream)
    : fs_(std::move(fs)),
      final_path_(std::move(final_path)),
      write_path_(std::move(write_path)),
      stream_(std::move(stream)) {}

PendingFile::~PendingFile() {
  if (!done_) (void)Abort();
}

Status PendingFile::Commit() {
  if (done_) return Status::Internal("PendingFile committed twice: " + final_path_);
  if (!stream_->closed()) return Status::Internal("PendingFile committed with an open stream: " + final_path_);
  done_ = true;
  if (write_path_ != final_path_) FLOE_RETURN_IF_ARROW_ERROR(fs_->Move(write_path_, final_path_));
  return Status::OK();
}

Status PendingFile::Abort() {
  if (done_) return Status::OK();
  done_ = true;
  if (!stream_->closed()) (void)stream_->Abort();
  // Best effort: an orphan left here is removed by maintenance (orphan-file removal).
  (void)fs_->DeleteFile(write_path_);
  return Status::OK();
}

FileIO::FileIO(std::shared_ptr<arrow::fs::FileSystem> fs, std::string root_path, std::string root_uri, bool local,
               std::shared_ptr<const S3Store> s3, std::shared_ptr<const AzureStore> azure,
               std::shared_ptr<const GcsStore> gcs)
    : fs_(std::move(fs)),
      root_path_(std::move(root_path)),
      root_uri_(std::move(root_uri)),
      local_(local),
      s3_(std::move(s3)),
      azure_(std::move(azure)),
      gcs_(std::move(gcs)) {}

Result<std::shared_ptr<arrow::fs::FileSystem>> FileSystemForUri(const std::string& uri, std::string* path) {
  if (IsS3Uri(uri)) {
    FLOE_ASSIGN_OR_RETURN(auto store, S3StoreForUri(uri));
    *path = S3Path(uri);
    return std::shared_ptr<arrow::fs::FileSystem>(store->fs);
  }
  if (IsAzureUri(uri)) {
    FLOE_ASSIGN_OR_RETURN(auto location, ParseAzureUri(uri));
    FLOE_ASSIGN_OR_RETURN(auto store, SharedAzureStore(location.account));
    *path = location.path;
    return std::shared_ptr<arrow::fs::FileSystem>(store->fs);
  }
  if (IsGcsUri(uri)) {
    FLOE_ASSIGN_OR_RETURN(auto store, SharedGcsStore());
    *path = GcsPath(uri);
    return std::shared_ptr<arrow::fs::FileSystem>(store->fs);
  }
  return FromArrow(arrow::fs::FileSystemFromUriOrPath(uri, path));
}

Result<FileIO> FileIO::Open(const std::string& root) {
  std::string path;
  std::shared_ptr<const S3Store> s3;
  std::shared_ptr<const AzureStore> azure;
  if (IsS3Uri(root)) {
    FLOE_ASSIGN_OR_RETURN(s3, S3StoreForUri(root));
  }
  if (IsAzureUri(root)) {
    FLOE_ASSIGN_OR_RETURN(auto location, ParseAzureUri(root));
    FLOE_ASSIGN_OR_RETURN(azure, SharedAzureStore(location.account));
  }
  std::shared_ptr<const GcsStore> gcs;
  if (IsGcsUri(root)) {
    FLOE_ASSIGN_OR_RETURN(gcs, SharedGcsStore());
  }
  std::shared_ptr<arrow::fs::FileSystem> fs;
  if (s3) {
    fs = s3->fs;  // the store chosen above, also for the conditional put (one set of credentials)
    path = S3Path(root);
  } else {
    FLOE_ASSIGN_OR_RETURN(fs, FileSystemForUri(root, &path));
  }
  const bool local = fs->type_name() == "local";
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  std::string uri = root;
  if (local) {
    FLOE_RETURN_IF_ARROW_ERROR(fs->CreateDir(path, /*recursive=*/true));
    uri = "file://" + path;
  }
  while (uri.size() > 1 && uri.back() == '/') uri.pop_back();
  return FileIO(std::move(fs), std::move(path), std::move(uri), local, std::move(s3), std::move(azure), std::move(gcs));
}

std::string FileIO::Path(const std::string& relative_path) const { return JoinPath(root_path_, relative_path); }
std::string FileIO::Uri(const std::string& relative_path) const { return JoinPath(root_uri_, relative_path); }

Result<std::unique_ptr<PendingFile>> FileIO::Create(const std::string& relative_path) {
  const std::string final_path = Path(relative_path);
  const std::string write_path = local_ ? final_path + TempSuffix() : final_path;
  if (local_) {
    const auto parent = arrow::fs::internal::GetAbstractPathParent(final_path).first;
    if (!parent.empty()) FLOE_RETURN_IF_ARROW_ERROR(fs_->CreateDir(parent, /*recursive=*/true));
  }
  FLOE_ASSIGN_OR_RETURN_ARROW(auto stream, fs_->OpenOutputStream(write_path));
  return std::make_unique<PendingFile>(fs_, final_path, write_path, std::move(stream));
}

Result<std::shared_ptr<arrow::io::RandomAccessFile>> FileIO::OpenRead(const std::string& relative_path) {
  return FromArrow(fs_->OpenInputFile(Path(relative_path)));
}

Status FileIO::Delete(const std::string& relative_path) { return FromArrow(fs_->DeleteFile(Path(relative_path))); }

Result<std::vector<ListedFile>> FileIO::ListFiles(const std::string& relative_dir) {
  arrow::fs::FileSelector selector;
  selector.base_dir = Path(relative_dir);
  selector.recursive = true;
  selector.allow_not_found = true;
  FLOE_ASSIGN_OR_RETURN_ARROW(auto infos, fs_->GetFileInfo(selector));
  const std::string prefix = root_path_.empty() || root_path_.back() == '/' ? root_path_ : root_path_ + "/";
  std::vector<ListedFile> out;
  out.reserve(infos.size());
  for (const auto& info : infos) {
    if (info.type() != arrow::fs::FileType::File) continue;
    ListedFile f;
    const std::string& path = info.path();
    f.relative_path = path.rfind(prefix, 0) == 0 ? path.substr(prefix.size()) : path;
    f.size = info.size();
    if (info.mtime() != arrow::fs::kNoTime) {
      f.modified_ms = std::chrono::duration_cast<std::chrono::milliseconds>(info.mtime().time_since_epoch()).count();
    }
    out.push_back(std::move(f));
  }
  return out;
}

Status FileIO::PutIfAbsent(const std::string& relative_path, const std::string& content) {
  if (local_) return LocalPutIfAbsent(relative_path, content);
  if (s3_) return S3PutIfAbsent(*s3_, Path(relative_path), content);
  if (azure_) return AzurePutIfAbsent(*azure_, Path(relative_path), content);
  if (gcs_) return GcsPutIfAbsent(*gcs_, Path(relative_path), content);
  return Status::Unsupported(Uri(relative_path) + ": this store has no conditional create in Floe yet");
}

Status FileIO::LocalPutIfAbsent(const std::string& relative_path, const std::string& content) {
  // A complete file under a unique hidden name first (readers listing the directory, such as
  // Delta engines listing _delta_log/, skip dot files).
  const auto slash = relative_path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : relative_path.substr(0, slash + 1);
  FLOE_ASSIGN_OR_RETURN(auto file, Create(dir + ".floe-put" + TempSuffix()));
  FLOE_RETURN_IF_ARROW_ERROR(file->stream()->Write(content.data(), static_cast<std::int64_t>(content.size())));
  FLOE_RETURN_IF_ARROW_ERROR(file->stream()->Close());
  FLOE_RETURN_IF_ERROR(file->Commit());
  // link(2) creates the name atomically or fails with EEXIST: the put-if-absent POSIX offers
  // (rename(2) would replace a peer's file).
  const std::string final_path = Path(relative_path);
  const int rc = ::link(file->path().c_str(), final_path.c_str());
  const int err = errno;
  (void)fs_->DeleteFile(file->path());
  if (rc == 0) return Status::OK();
  if (err == EEXIST) return Status::Conflict(relative_path + " already exists (a concurrent writer won)");
  return Status::IoError("link " + file->path() + " -> " + final_path + ": " + std::strerror(err));
}

Status DeleteFileAt(const std::string& uri) {
  std::string path;
  FLOE_ASSIGN_OR_RETURN(auto fs, FileSystemForUri(uri, &path));
  const Status deleted = FromArrow(fs->DeleteFile(path));
  if (deleted.ok()) return deleted;
  auto info = fs->GetFileInfo(path);
  if (info.ok() && info->type() == arrow::fs::FileType::NotFound) return Status::OK();
  return deleted.WithContext("deleting " + uri);
}


Result<std::int64_t> FileSizeAt(const std::string& uri) {
  std::string path;
  FLOE_ASSIGN_OR_RETURN(auto fs, FileSystemForUri(uri, &path));
  FLOE_ASSIGN_OR_RETURN_ARROW(auto info, fs->GetFileInfo(path));
  if (info.type() == arrow::fs::FileType::NotFound) return Status::NotFound(uri + " does not exist");
  return info.size();
}

}  // namespace floe::storage
