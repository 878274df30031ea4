#pragma once
// FileIO: where table files live. Wraps arrow::fs so one URI scheme list (file://, plain
// paths, s3://, gs://, abfs://) serves data files and metadata alike.
#include <arrow/filesystem/filesystem.h>
#include <arrow/io/interfaces.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/core/result.h"

namespace floe::storage {

struct S3Store;     // s3_store_internal.h
struct AzureStore;  // azure_store_internal.h
struct GcsStore;    // gcs_store_internal.h

// A file being written that becomes visible only on Commit(): readers never see a partial
// file. Local files are written under a temporary name and renamed; object stores publish an
// object only when its upload completes, so they are written in place.
class PendingFile {
 public:
  PendingFile(std::shared_ptr<arrow::fs::FileSystem> fs, std::string final_path, std::string write_path,
              std::shared_ptr<arrow::io::OutputStream> stream);
  ~PendingFile();  // aborts if neither Commit nor Abort ran

  const std::shared_ptr<arrow::io::OutputStream>& stream() const { return stream_; }
  const std::string& path() const { return final_path_; }
  // The stream must already be closed (writers close it when they finish the file).
  Status Commit();
  Status Abort();

 private:
  std::shared_ptr<arrow::fs::FileSystem> fs_;
  std::string final_path_;
  std::string write_path_;
  std::shared_ptr<arrow::io::OutputStream> stream_;
  bool done_ = false;
};

// A file found by FileIO::ListFiles.
struct ListedFile {
  std::string relative_path;  // relative to the FileIO's root, '/'-separated
  std::int64_t size = -1;     // -1: unknown
  // Last modification, milliseconds since the epoch; nullopt when the store reports none.
  std::optional<std::int64_t> modified_ms;
};

class FileIO {
 public:
  // `root` is a URI or a local path; paths passed to the methods below are relative to it.
  static Result<FileIO> Open(const std::string& root);

  Result<std::unique_ptr<PendingFile>> Create(const std::string& relative_path);
  Result<std::shared_ptr<arrow::io::RandomAccessFile>> OpenRead(const std::string& relative_path);
  Status Delete(const std::string& relative_path);
  // Every file (not directory) under `relative_dir`, recursively, with size and modification
  // time (arrow::fs::FileSelector: local files, S3, Azure, GCS alike). A directory that does
  // not exist lists as empty. Order unspecified.
  Result<std::vector<ListedFile>> ListFiles(const std::string& relative_dir);
  // Creates the file with `content` only if no file has that name, atomically: kConflict when
  // it exists. Local files: link(2) of a temporary file (fails with EEXIST, never
  // overwrites); S3: a conditional PUT (If-None-Match: *); Azure: a conditional Put Blob
  // (If-None-Match: *); GCS: an upload with ifGenerationMatch=0. kUnsupported where Floe
  // cannot make it (Azure with the default credential chain, GCS with credentials): the
  // caller decides whether check-then-write is acceptable.
  Status PutIfAbsent(const std::string& relative_path, const std::string& content);
  bool local() const { return local_; }
  // The location engines use to find a file (file:///abs/path, s3://bucket/key, abfss://…).
  std::string Uri(const std::string& relative_path) const;
  const std::shared_ptr<arrow::fs::FileSystem>& filesystem() const { return fs_; }

 private:
  FileIO(std::shared_ptr<arrow::fs::FileSystem> fs, std::string root_path, std::string root_uri, bool local,
         std::shared_ptr<const S3Store> s3, std::shared_ptr<const AzureStore> azure,
         std::shared_ptr<const GcsStore> gcs);
  Status LocalPutIfAbsent(const std::string& relative_path, const std::string& content);
  std::string Path(const std::string& relative_path) const;

  std::shared_ptr<arrow::fs::FileSystem> fs_;
  std::string root_path_;
  std::string root_uri_;
  bool local_;
  std::shared_ptr<const S3Store> s3_;        // set for s3:// roots
  std::shared_ptr<const AzureStore> azure_;  // set for abfs://, abfss://, az:// roots
  std::shared_ptr<const GcsStore> gcs_;      // set for gs:// roots
};

// The file system serving a full URI or local path, and the path inside it. s3://, Azure
// (abfs://, abfss://, az://) and gs:// URIs get the configured store (object_stores.h), so every reader of table files (manifests, data
// files) uses the same endpoint and credentials as the writers.
Result<std::shared_ptr<arrow::fs::FileSystem>> FileSystemForUri(const std::string& uri, std::string* path);

// Deletes the file at an absolute URI (or local path) through the store serving it. A file
// that is already gone counts as deleted (a crashed delete may have removed it).
Status DeleteFileAt(const std::string& uri);

// The size in bytes of the file at an absolute URI (or local path). kNotFound when it is not there.
Result<std::int64_t> FileSizeAt(const std::string& uri);

}  // namespace floe::storage
