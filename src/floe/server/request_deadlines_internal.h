#pragma once
// Slow clients ("slowloris"): cpp-httplib serves each connection on one pool thread, and its
// read timeout bounds each recv, not the request, so a client that sends a byte every few
// seconds would hold a thread for ever, and a handful of them the whole pool.
//
// RequestDeadlines gives each connection a deadline for sending one whole request (headers and
// body): from when a pool thread picks the connection up, and again from each answer. A
// watchdog thread shuts down the socket of a connection past its deadline, which ends its
// blocked read, and the thread moves on to the next connection. While a handler runs there is
// no deadline.
//
// httplib hands a connection to its task queue as an opaque task right after accepting it, on
// its listening thread, and keeps the socket to itself (the per-connection hook is private).
// So the queue here finds the socket that was just accepted: the one connected socket on the
// server's port that no task owns yet (sockets are told apart by inode, which, unlike a
// descriptor number, is never reused while the socket lives), and keeps a duplicate of it for
// the watchdog. If none is found the connection runs without a deadline (and it is logged).
#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace floe::server {

class RequestDeadlines {
 public:
  explicit RequestDeadlines(std::chrono::milliseconds request_timeout);
  ~RequestDeadlines();  // stops the watchdog
  RequestDeadlines(const RequestDeadlines&) = delete;
  RequestDeadlines& operator=(const RequestDeadlines&) = delete;

  // httplib's task queue for a server listening on `port`: `threads` workers, each task (one
  // connection) under a deadline. Install as Server::new_task_queue once the port is bound.
  httplib::TaskQueue* NewTaskQueue(int port, int threads);

  // On the thread serving a connection: its request is read and a handler runs (no
  // deadline), then the answer is made and the next request has a fresh deadline.
  void Handling();
  void Handled();

  // Connections shut down for missing their deadline.
  std::size_t timed_out() const;

 private:
  class Queue;
  struct Connection {
    int socket = -1;  // our own duplicate, open until the task ends
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
    bool handling = false;
  };
  // On the listening thread, right after an accept: the new connection's id, 0 if not found.
  std::uint64_t Register(int port);
  void Start(std::uint64_t id);
  void Finish(std::uint64_t id);
  void Watch();

  const std::chrono::milliseconds timeout_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::map<std::uint64_t, Connection> connections_;
  std::map<std::uint64_t, std::uint64_t> inodes_;  // socket inode -> connection id
  std::uint64_t next_id_ = 1;
  std::size_t timed_out_ = 0;
  bool stopping_ = false;
  std::thread watchdog_;
};

}  // namespace floe::server
