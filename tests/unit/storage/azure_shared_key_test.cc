// Azure Shared Key: the string-to-sign of Microsoft's documented example ("Authorize with Shared
// Key", the Get Container Metadata request), and its signature with the emulator's well-known
// key as computed independently (Python's hmac/base64). Azurite checks real requests in
// tests/integration/test_pipeline_azure.py.
#include <gtest/gtest.h>

#include "floe/storage/azure_shared_key.h"
#include "floe/storage/azure_store_internal.h"

namespace floe::storage {
namespace {

SharedKeyRequest DocumentedExample() {
  SharedKeyRequest r;
  r.method = "GET";
  r.account = "myaccount";
  r.path = "/myaccount/mycontainer";  // the emulator-style path of the example
  r.headers = {{"x-ms-date", "Sun, 11 Oct 2009 21:49:13 GMT"}, {"x-ms-version", "2009-09-19"}};
  r.query = {{"restype", "container"}, {"comp", "metadata"}, {"timeout", "20"}};
  return r;
}

TEST(AzureSharedKey, StringToSignOfTheDocumentedExample) {
  EXPECT_EQ(SharedKeyStringToSign(DocumentedExample()),
            "GET\n\n\n\n\n\n\n\n\n\n\n\nx-ms-date:Sun, 11 Oct 2009 21:49:13 GMT\nx-ms-version:2009-09-19\n"
            "/myaccount/myaccount/mycontainer\ncomp:metadata\nrestype:container\ntimeout:20");
}

TEST(AzureSharedKey, StandardHeadersInTheirPlacesAndZeroLengthEmpty) {
  SharedKeyRequest r;
  r.method = "PUT";
  r.account = "acct";
  r.path = "/c/b";
  r.headers = {{"content-length", "0"}, {"content-type", "text/plain"}, {"if-none-match", "*"},
               {"x-ms-version", "2021-12-02"}, {"x-ms-blob-type", "BlockBlob"}, {"range", "bytes=0-1"}};
  EXPECT_EQ(SharedKeyStringToSign(r),
            "PUT\n\n\n\n\ntext/plain\n\n\n\n*\n\nbytes=0-1\nx-ms-blob-type:BlockBlob\nx-ms-version:2021-12-02\n/acct/c/b");
  r.headers["content-length"] = "12";
  EXPECT_NE(SharedKeyStringToSign(r).find("PUT\n\n\n12\n"), std::string::npos);
}

TEST(AzureSharedKey, SignatureWithTheEmulatorKey) {
  auto auth = SharedKeyAuthorization(
      DocumentedExample(), "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==");
  ASSERT_TRUE(auth.ok()) << auth.status().ToString();
  EXPECT_EQ(*auth, "SharedKey myaccount:Su5rvibNeMxB7A4I87rOtEgCDtdICsL8v5H+yJs0W+M=");
}

TEST(AzureSharedKey, AKeyThatIsNotBase64IsRefusedWithoutQuotingIt) {
  auto auth = SharedKeyAuthorization(DocumentedExample(), "not base64!");
  ASSERT_FALSE(auth.ok());
  EXPECT_EQ(auth.status().message().find("not base64!"), std::string::npos);
}

TEST(AzureUri, AbfsAndAzForms) {
  auto a = ParseAzureUri("abfss://floe@acct.dfs.core.windows.net/wh/kafka/orders/");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->account, "acct");
  EXPECT_EQ(a->path, "floe/wh/kafka/orders");
  auto z = ParseAzureUri("az://floe/wh/x.parquet");
  ASSERT_TRUE(z.ok());
  EXPECT_EQ(z->account, "");
  EXPECT_EQ(z->path, "floe/wh/x.parquet");
  EXPECT_FALSE(ParseAzureUri("abfs://acct.dfs.core.windows.net/wh").ok());  // no container@
}

}  // namespace
}  // namespace floe::storage
