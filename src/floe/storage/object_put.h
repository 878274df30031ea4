#pragma once
// The one request per store that arrow::fs cannot make — a create that fails when the object
// exists (S3 and Azure `If-None-Match: *`, GCS `ifGenerationMatch=0`) — sent with libcurl.
// Each store builds its URL, headers and authorization; this sends it and reads the answer.
// The Glue catalog (catalog/glue_client.cc) sends its SigV4-signed JSON API POSTs through it too.
#include <chrono>
#include <string>
#include <vector>

#include "floe/core/result.h"

namespace floe::storage {

struct ObjectPut {
  std::string store;   // "s3", "azure", "gcs", "glue": for retry metrics and the user agent
  std::string method;  // PUT or POST
  std::string url;
  std::vector<std::string> headers;  // "Name: value"
  // S3: libcurl signs the request with SigV4 ("aws:amz:<region>:s3") and these keys.
  std::string aws_sigv4;
  std::string user;
  std::string password;
  std::string user_agent;  // empty: floe-<store>-conditional-put
  std::chrono::milliseconds connect_timeout = std::chrono::seconds(10);
};

struct ObjectPutAnswer {
  long code = 0;
  std::string body;
};

// Sends `put` with `content` as its body. A transport failure is kUnavailable naming `what`
// (never the URL, which may hold a SAS token): the outcome is unknown and the object may exist
// now, so callers retry through the log, where fencing recognises a commit that did land.
Result<ObjectPutAnswer> SendObjectPut(const ObjectPut& put, const std::string& content, const std::string& what);

// `what: HTTP <code> <store code>: <message>` as a Status: 412 (and the codes in
// `conflict_codes`) kConflict, 5xx and 429 kUnavailable (counted as a storage retry: the
// caller's commit loop tries again) except 501 kUnsupported (no conditional writes in this store),
// else kIoError; `hint` is appended to what is not a conflict.
Status ObjectPutStatus(const std::string& store, long code, const std::string& store_code, const std::string& message,
                       const std::string& what, const std::string& hint, bool conflict);

// <name>…</name> from an XML error body ("" when there is none).
std::string XmlElement(const std::string& body, const std::string& name);

// Each '/'-separated segment percent-encoded once, the separators kept: the object path as
// both the URL and the signed resource must spell it.
std::string EncodeObjectPath(const std::string& path);

}  // namespace floe::storage
