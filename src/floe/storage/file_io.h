#pragma once
// FileIO: where table files live. Wraps arrow::fs so one URI scheme list (file://, plain
// paths, s3://, gs://, abfs://) serves data files and metadata alike.
#include <arrow/filesystem/filesystem.h>
#include <arrow/io/interfaces.h>

#include <memory>
#include <string>

#include "floe/core/result.h"

namespace floe::storage {

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

class FileIO {
 public:
  // `root` is a URI or a local path; paths passed to the methods below are relative to it.
  static Result<FileIO> Open(const std::string& root);

  Result<std::unique_ptr<PendingFile>> Create(const std::string& relative_path);
  Result<std::shared_ptr<arrow::io::RandomAccessFile>> OpenRead(const std::string& relative_path);
  Status Delete(const std::string& relative_path);
  // The location engines use to find a file (file:///abs/path or s3://bucket/key).
  std::string Uri(const std::string& relative_path) const;
  const std::shared_ptr<arrow::fs::FileSystem>& filesystem() const { return fs_; }

 private:
  FileIO(std::shared_ptr<arrow::fs::FileSystem> fs, std::string root_path, std::string root_uri, bool local);
  std::string Path(const std::string& relative_path) const;

  std::shared_ptr<arrow::fs::FileSystem> fs_;
  std::string root_path_;
  std::string root_uri_;
  bool local_;
};

}  // namespace floe::storage
