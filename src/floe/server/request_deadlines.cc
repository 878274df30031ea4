#include "floe/server/request_deadlines_internal.h"

#include <dirent.h>
#include <netinet/in.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace floe::server {
namespace {

// The connection the calling thread serves (0: none, or not tracked).
thread_local std::uint64_t t_connection = 0;

int LocalPort(int fd) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return -1;
  if (addr.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
  if (addr.ss_family == AF_INET6) return ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port);
  return -1;
}

bool Connected(int fd) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  return ::getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0;
}

// "socket:[12345]" -> 12345, else 0.
std::uint64_t SocketInode(const std::string& link) {
  if (link.rfind("socket:[", 0) != 0) return 0;
  return std::strtoull(link.c_str() + 8, nullptr, 10);
}

}  // namespace

class RequestDeadlines::Queue : public httplib::TaskQueue {
 public:
  Queue(RequestDeadlines& owner, int port, int threads) : owner_(owner), port_(port), pool_(static_cast<std::size_t>(threads)) {}

  void enqueue(std::function<void()> fn) override {
    const std::uint64_t id = owner_.Register(port_);
    pool_.enqueue([this, id, fn = std::move(fn)] {
      owner_.Start(id);
      fn();
      owner_.Finish(id);
    });
  }
  void shutdown() override { pool_.shutdown(); }

 private:
  RequestDeadlines& owner_;
  const int port_;
  httplib::ThreadPool pool_;
};

RequestDeadlines::RequestDeadlines(std::chrono::milliseconds request_timeout)
    : timeout_(request_timeout), watchdog_([this] { Watch(); }) {}

RequestDeadlines::~RequestDeadlines() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  watchdog_.join();
  for (auto& [id, c] : connections_) ::close(c.socket);
}

httplib::TaskQueue* RequestDeadlines::NewTaskQueue(int port, int threads) { return new Queue(*this, port, threads); }

std::uint64_t RequestDeadlines::Register(int port) {
  DIR* dir = ::opendir("/proc/self/fd");
  if (dir == nullptr) return 0;
  std::uint64_t found = 0;
  int duplicate = -1;
  std::unique_lock lock(mu_);
  while (dirent* entry = ::readdir(dir)) {
    char link[64];
    const std::string path = std::string("/proc/self/fd/") + entry->d_name;
    const ssize_t n = ::readlink(path.c_str(), link, sizeof(link) - 1);
    if (n <= 0) continue;
    const std::uint64_t inode = SocketInode(std::string(link, static_cast<std::size_t>(n)));
    if (inode == 0 || inodes_.count(inode)) continue;
    const int fd = std::atoi(entry->d_name);
    if (fd == ::dirfd(dir) || LocalPort(fd) != port || !Connected(fd)) continue;
    // Duplicated, then checked to be the same socket (the number might have been reused
    // since readlink by another thread's close and open).
    const int own = ::dup(fd);
    struct stat st {};
    if (own < 0) continue;
    if (::fstat(own, &st) != 0 || static_cast<std::uint64_t>(st.st_ino) != inode) {
      ::close(own);
      continue;
    }
    found = inode;
    duplicate = own;
    break;
  }
  ::closedir(dir);
  if (duplicate < 0) {
    spdlog::warn("http: could not find an accepted connection's socket; it runs without a request deadline");
    return 0;
  }
  const std::uint64_t id = next_id_++;
  connections_[id] = {duplicate, std::chrono::steady_clock::time_point::max(), false};
  inodes_[found] = id;
  return id;
}

void RequestDeadlines::Start(std::uint64_t id) {
  t_connection = id;
  std::lock_guard lock(mu_);
  if (auto it = connections_.find(id); it != connections_.end()) {
    it->second.deadline = std::chrono::steady_clock::now() + timeout_;
  }
}

void RequestDeadlines::Finish(std::uint64_t id) {
  t_connection = 0;
  std::lock_guard lock(mu_);
  auto it = connections_.find(id);
  if (it == connections_.end()) return;
  ::close(it->second.socket);
  connections_.erase(it);
  std::erase_if(inodes_, [id](const auto& entry) { return entry.second == id; });
}

void RequestDeadlines::Handling() {
  std::lock_guard lock(mu_);
  if (auto it = connections_.find(t_connection); it != connections_.end()) it->second.handling = true;
}

void RequestDeadlines::Handled() {
  std::lock_guard lock(mu_);
  if (auto it = connections_.find(t_connection); it != connections_.end()) {
    it->second.handling = false;
    it->second.deadline = std::chrono::steady_clock::now() + timeout_;
  }
}

std::size_t RequestDeadlines::timed_out() const {
  std::lock_guard lock(mu_);
  return timed_out_;
}

void RequestDeadlines::Watch() {
  // Checked a few times per timeout: a slow client is cut within ~1.25 × request_timeout.
  const auto tick = std::max(std::chrono::milliseconds(20), timeout_ / 4);
  std::unique_lock lock(mu_);
  while (!stopping_) {
    wake_.wait_for(lock, tick);
    const auto now = std::chrono::steady_clock::now();
    for (auto& [id, c] : connections_) {
      if (c.handling || now < c.deadline) continue;
      ::shutdown(c.socket, SHUT_RDWR);
      c.deadline = std::chrono::steady_clock::time_point::max();  // once
      ++timed_out_;
      spdlog::warn("http: closed a connection that sent no complete request within {} ms", timeout_.count());
    }
  }
}

}  // namespace floe::server
