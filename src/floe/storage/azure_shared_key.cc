#include "floe/storage/azure_shared_key.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <vector>

namespace floe::storage {
namespace {

std::string Header(const SharedKeyRequest& r, const std::string& name) {
  const auto it = r.headers.find(name);
  return it == r.headers.end() ? "" : it->second;
}

Result<std::string> Base64Decode(const std::string& text) {
  if (text.empty() || text.size() % 4 != 0) return Status::InvalidArgument("the account key is not base64");
  std::vector<unsigned char> out(text.size() / 4 * 3 + 1);
  const int n = EVP_DecodeBlock(out.data(), reinterpret_cast<const unsigned char*>(text.data()),
                                static_cast<int>(text.size()));
  if (n < 0) return Status::InvalidArgument("the account key is not base64");
  // EVP_DecodeBlock counts '=' padding as zero bytes.
  std::size_t size = static_cast<std::size_t>(n);
  for (auto it = text.rbegin(); it != text.rend() && *it == '='; ++it) --size;
  return std::string(reinterpret_cast<const char*>(out.data()), size);
}

std::string Base64Encode(const unsigned char* data, std::size_t size) {
  std::string out(4 * ((size + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), data, static_cast<int>(size));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

}  // namespace

std::string SharedKeyStringToSign(const SharedKeyRequest& r) {
  std::string length = Header(r, "content-length");
  if (length == "0") length.clear();
  std::string out = r.method + "\n";
  for (const std::string& h : {std::string("content-encoding"), std::string("content-language")}) out += Header(r, h) + "\n";
  out += length + "\n";
  for (const char* h : {"content-md5", "content-type", "date", "if-modified-since", "if-match", "if-none-match",
                        "if-unmodified-since", "range"}) {
    out += Header(r, h) + "\n";
  }
  for (const auto& [name, value] : r.headers) {  // std::map: sorted by name
    if (name.rfind("x-ms-", 0) == 0) out += name + ":" + value + "\n";
  }
  out += "/" + r.account + r.path;
  for (const auto& [name, value] : r.query) out += "\n" + name + ":" + value;
  return out;
}

Result<std::string> SharedKeyAuthorization(const SharedKeyRequest& request, const std::string& base64_account_key) {
  FLOE_ASSIGN_OR_RETURN(const std::string key, Base64Decode(base64_account_key));
  const std::string to_sign = SharedKeyStringToSign(request);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int mac_size = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(to_sign.data()),
           to_sign.size(), mac, &mac_size) == nullptr) {
    return Status::Internal("HMAC-SHA256 failed");
  }
  return "SharedKey " + request.account + ":" + Base64Encode(mac, mac_size);
}

}  // namespace floe::storage
