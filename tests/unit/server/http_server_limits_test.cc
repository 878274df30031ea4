// HttpServer's guards against hostile clients over a real socket: a body over max_body_bytes is
// a 413 with the Iceberg ErrorModel, and a client that trickles its request is disconnected at
// request_timeout while other clients are served (request_deadlines_internal.h).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "floe/server/http_server.h"

namespace floe::server {
namespace {

using std::chrono::milliseconds;
using std::chrono::steady_clock;

class HttpServerLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    HttpServerOptions options;
    options.max_body_bytes = 1024;
    options.request_timeout = milliseconds(400);
    options.threads = 2;
    server_ = std::make_unique<HttpServer>(options);
    server_->Route("POST", "/echo", [](const HttpRequest& req) { return HttpResponse{200, "text/plain", req.body, {}}; });
    server_->Route("GET", "/ok", [](const HttpRequest&) { return HttpResponse{200, "text/plain", "ok", {}}; });
    ASSERT_TRUE(server_->Start().ok());
  }

  // A raw connection that has sent `bytes`.
  int Connect(const std::string& bytes) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(server_->port()));
    ::inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    EXPECT_EQ(::send(fd, bytes.data(), bytes.size(), 0), static_cast<ssize_t>(bytes.size()));
    return fd;
  }

  std::unique_ptr<HttpServer> server_;
};

TEST_F(HttpServerLimits, BodyOverTheLimitIs413WithTheErrorModel) {
  httplib::Client client("127.0.0.1", server_->port());
  auto small = client.Post("/echo", std::string(1000, 'a'), "text/plain");
  ASSERT_TRUE(small);
  EXPECT_EQ(small->status, 200);
  auto big = client.Post("/echo", std::string(1025, 'a'), "text/plain");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413);
  EXPECT_NE(big->body.find(R"("code":413)"), std::string::npos) << big->body;
  EXPECT_NE(big->body.find("larger than the limit of 1024 bytes"), std::string::npos) << big->body;
}

TEST_F(HttpServerLimits, SlowClientsAreCutAndOthersServed) {
  // Both threads of the pool get a client that sends its headers a byte at a time.
  std::vector<int> slow = {Connect("GET /ok HTTP/1.1\r\n"), Connect("GET /ok HTTP/1.1\r\n")};
  const auto start = steady_clock::now();
  std::vector<std::thread> trickles;
  std::vector<milliseconds> closed_after(slow.size());
  for (std::size_t i = 0; i < slow.size(); ++i) {
    trickles.emplace_back([&, i] {
      char byte = 'X';
      while (steady_clock::now() - start < milliseconds(5000)) {
        if (::send(slow[i], &byte, 1, MSG_NOSIGNAL) != 1) break;
        std::this_thread::sleep_for(milliseconds(100));
        char got;
        if (::recv(slow[i], &got, 1, MSG_DONTWAIT) == 0) break;  // closed by the server
      }
      closed_after[i] = std::chrono::duration_cast<milliseconds>(steady_clock::now() - start);
    });
  }
  // A normal client gets its answer once a deadline frees a thread.
  httplib::Client client("127.0.0.1", server_->port());
  client.set_read_timeout(5, 0);
  auto res = client.Get("/ok");
  const auto waited = steady_clock::now() - start;
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_LT(waited, milliseconds(2000));
  for (auto& t : trickles) t.join();
  for (int fd : slow) ::close(fd);
  for (auto after : closed_after) EXPECT_LT(after, milliseconds(2000)) << "a slow client was not cut";
}

TEST_F(HttpServerLimits, KeepAliveClientsKeepTheirConnectionAcrossRequests) {
  // The deadline restarts with each answer: a client sending requests more often than
  // request_timeout is never cut, however long it stays.
  httplib::Client client("127.0.0.1", server_->port());
  client.set_keep_alive(true);
  for (int i = 0; i < 8; ++i) {
    auto res = client.Get("/ok");
    ASSERT_TRUE(res) << i;
    EXPECT_EQ(res->status, 200);
    std::this_thread::sleep_for(milliseconds(150));
  }
}

}  // namespace
}  // namespace floe::server
