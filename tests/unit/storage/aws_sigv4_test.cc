// SigV4 (storage/aws_sigv4.h) against signatures botocore's SigV4Auth computes for the same
// requests (an independent implementation: the one AWS's Python SDK signs with).
#include <gtest/gtest.h>

#include "floe/storage/aws_sigv4.h"

namespace floe::storage {
namespace {

const AwsCredentials kKeys{"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", ""};

std::chrono::system_clock::time_point At20150830T123600Z() {
  return std::chrono::system_clock::from_time_t(1440938160);
}

std::string Get(const HeaderList& headers, const std::string& name) {
  for (const auto& [k, v] : headers) {
    if (k == name) return v;
  }
  return "";
}

TEST(AwsSigV4, EscapedPathIsSignedEncodedTwiceAndTheQuerySorted) {
  HeaderList headers = {{"Accept", "application/json"}};
  const std::string url =
      "https://glue.us-east-1.amazonaws.com/iceberg/v1/catalogs/123/namespaces/a%2Eb/tables?parent=x&pageToken=q";
  SignSigV4("GET", url, "", {"us-east-1", "glue"}, kKeys, At20150830T123600Z(), headers);
  EXPECT_EQ(SigV4CanonicalRequest("GET", url, "", "glue", headers),
            "GET\n/iceberg/v1/catalogs/123/namespaces/a%252Eb/tables\npageToken=q&parent=x\n"
            "accept:application/json\nhost:glue.us-east-1.amazonaws.com\n"
            "x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
            "x-amz-date:20150830T123600Z\n\naccept;host;x-amz-content-sha256;x-amz-date\n"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Get(headers, "Authorization"),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/glue/aws4_request, "
            "SignedHeaders=accept;host;x-amz-content-sha256;x-amz-date, "
            "Signature=33d7730aca761a4e79056de87465588db22a16fadaa8911496b9cf8418fceafc");
  EXPECT_EQ(Get(headers, "x-amz-date"), "20150830T123600Z");
}

TEST(AwsSigV4, BearerMovesToOriginalAuthorizationAndTheSessionTokenIsSigned) {
  HeaderList headers = {{"Accept", "application/json"},
                        {"Content-Type", "application/json"},
                        {"Authorization", "Bearer  tok"}};
  AwsCredentials temporary = kKeys;
  temporary.session_token = "SESSION";
  SignSigV4("POST", "http://127.0.0.1:8181/v1/namespaces", R"({"namespace":["db"]})", {"us-east-1", "glue"}, temporary,
            At20150830T123600Z(), headers);
  EXPECT_EQ(Get(headers, "Original-Authorization"), "Bearer  tok");
  EXPECT_EQ(Get(headers, "x-amz-security-token"), "SESSION");
  EXPECT_EQ(Get(headers, "x-amz-content-sha256"), "662ad159373bc9215254fedd1de8d56e38696eb52f32964c202f02d3d81ecf47");
  EXPECT_EQ(Get(headers, "Authorization"),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/glue/aws4_request, "
            "SignedHeaders=accept;content-type;host;original-authorization;x-amz-content-sha256;x-amz-date;"
            "x-amz-security-token, Signature=9ee5c14b86f83aedf2a605d08317737b5eff25e18a90aa7146cb3d0615629717");
  // Signing again (a retry) replaces the signature instead of stacking a second one.
  SignSigV4("POST", "http://127.0.0.1:8181/v1/namespaces", R"({"namespace":["db"]})", {"us-east-1", "glue"}, temporary,
            At20150830T123600Z(), headers);
  int authorizations = 0;
  for (const auto& [k, v] : headers) authorizations += k == "Authorization" ? 1 : 0;
  EXPECT_EQ(authorizations, 1);
}

TEST(AwsSigV4, DefaultPortsAreNotPartOfTheHostAndS3PathsAreSignedAsSent) {
  HeaderList none;
  EXPECT_NE(SigV4CanonicalRequest("GET", "https://h.example:443/a%20b", "", "s3", none).find("\n/a%20b\n\nhost:h.example\n"),
            std::string::npos);
  EXPECT_NE(SigV4CanonicalRequest("GET", "http://h.example:8080", "", "execute-api", none).find("\n/\n\nhost:h.example:8080\n"),
            std::string::npos);
}

}  // namespace
}  // namespace floe::storage
