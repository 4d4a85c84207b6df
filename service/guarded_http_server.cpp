#include "service/guarded_http_server.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "service/http_head_check.hpp"

namespace ionflow {

namespace {

using Clock = std::chrono::steady_clock;

// More than httplib's request-line (8192) and header-line (8192) limits together would need
// is never waited for: the worker reads it and httplib answers 414 or 400.
constexpr size_t kMaxHeadBytes = 16 * 1024;

Clock::time_point after(double seconds) {
  return Clock::now() + std::chrono::microseconds(static_cast<int64_t>(seconds * 1e6));
}

int milliseconds_until(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return static_cast<int>(std::max<int64_t>(0, left.count()));
}

// Waits until `fd` has `events` (POLLIN/POLLOUT) or `deadline`; true when ready.
bool wait_for(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    int n = ::poll(&p, 1, milliseconds_until(deadline));
    if (n > 0) return true;
    if (n == 0) return false;
    if (errno != EINTR) return false;
  }
}

// The peer's IP address as text ("" when the socket has none).
std::string peer_address(int fd, int& port) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  port = 0;
  if (::getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return "";
  char text[INET6_ADDRSTRLEN] = {0};
  if (addr.ss_family == AF_INET) {
    auto* a = reinterpret_cast<sockaddr_in*>(&addr);
    ::inet_ntop(AF_INET, &a->sin_addr, text, sizeof(text));
    port = ntohs(a->sin_port);
  } else if (addr.ss_family == AF_INET6) {
    auto* a = reinterpret_cast<sockaddr_in6*>(&addr);
    ::inet_ntop(AF_INET6, &a->sin6_addr, text, sizeof(text));
    port = ntohs(a->sin6_port);
  }
  return text;
}

struct Connection {
  int fd = -1;
  std::string address;
  int port = 0;
  int requests_served = 0;
  Clock::time_point deadline;
  bool idle = false;       // between keep-alive requests: the head timeout starts at the first byte
  bool lingering = false;  // answered and shut for writing: what still comes is read and dropped
  // The request the gate handed over: its head's length as found in the kernel (0 = longer than
  // the gate looks, kMaxHeadBytes) and the body its head announces.
  size_t head_bytes = 0;
  RequestBody body;
};

// A request's view of its connection. The head the gate found complete is taken in one recv
// (httplib asks for it one byte at a time: two syscalls per byte before); after it, reads take
// exactly what httplib asks for, so bytes of a pipelined next request stay in the kernel for
// the gate. Each read or write is tried first and waits (poll) only when the socket is not ready.
class ConnectionStream : public httplib::Stream {
 public:
  ConnectionStream(const Connection& c, const HttpConnectionLimits& limits)
      : c_(c), limits_(limits), request_deadline_(after(limits.body_timeout_seconds)) {
    head_.resize(c.head_bytes);
    size_t got = 0;
    while (got < head_.size()) {  // already in the kernel: the gate peeked it
      const ssize_t n = ::recv(c_.fd, head_.data() + got, head_.size() - got, MSG_DONTWAIT);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    head_.resize(got);
  }

  // True when httplib read the request exactly to its end: the whole head, then as many body
  // bytes as its Content-Length says. Else (a bad request line or header line, a body it does
  // not read or stopped reading) the next bytes are not the start of a request.
  bool read_to_the_end() const {
    return head_at_ == head_.size() && c_.head_bytes > 0 && body_read_ == c_.body.content_length;
  }

  bool is_readable() const override {
    return head_at_ < head_.size() ||
           wait_for(c_.fd, POLLIN,
                    std::min(after(limits_.read_timeout_seconds), request_deadline_));
  }
  bool is_writable() const override {
    return wait_for(c_.fd, POLLOUT, after(limits_.write_timeout_seconds));
  }
  ssize_t read(char* ptr, size_t size) override {
    if (head_at_ < head_.size()) {
      const size_t n = std::min(size, head_.size() - head_at_);
      std::memcpy(ptr, head_.data() + head_at_, n);
      head_at_ += n;
      return static_cast<ssize_t>(n);
    }
    ssize_t n = try_io([&] { return ::recv(c_.fd, ptr, size, MSG_DONTWAIT); },
                       [&] { return is_readable(); });
    if (n > 0) body_read_ += static_cast<size_t>(n);
    return n;
  }
  ssize_t write(const char* ptr, size_t size) override {
    return try_io([&] { return ::send(c_.fd, ptr, size, MSG_NOSIGNAL | MSG_DONTWAIT); },
                  [&] { return is_writable(); });
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = c_.address;
    port = c_.port;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage addr{};
    socklen_t len = sizeof(addr);
    ip.clear();
    port = 0;
    if (::getsockname(c_.fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return;
    char text[INET6_ADDRSTRLEN] = {0};
    if (addr.ss_family == AF_INET) {
      auto* a = reinterpret_cast<sockaddr_in*>(&addr);
      ::inet_ntop(AF_INET, &a->sin_addr, text, sizeof(text));
      port = ntohs(a->sin_port);
    }
    ip = text;
  }
  socket_t socket() const override { return c_.fd; }

 private:
  // `io` once; when the socket is not ready, `wait` (false: timed out, -1) and `io` again.
  template <class Io, class Wait>
  static ssize_t try_io(Io io, Wait wait) {
    for (;;) {
      const ssize_t n = io();
      if (n >= 0) return n;
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) return n;
      if (!wait()) return -1;
    }
  }

  const Connection& c_;
  const HttpConnectionLimits& limits_;
  Clock::time_point request_deadline_;
  std::vector<char> head_;
  size_t head_at_ = 0;
  size_t body_read_ = 0;
};

// Answers 503 without reading the request and closes `fd` (never blocks).
void refuse(int fd, const std::string& message) {
  const std::string response = gate_error_response(503, message, "Retry-After: 5\r\n");
  (void)!::send(fd, response.data(), response.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  ::shutdown(fd, SHUT_WR);
  // Unread request bytes would turn the close into a reset that can discard the answer.
  char sink[4096];
  while (::recv(fd, sink, sizeof(sink), MSG_DONTWAIT) > 0) {
  }
  ::close(fd);
}

}  // namespace

// One per listen_after_bind(): httplib's accept loop calls enqueue() for each accepted socket;
// enqueue runs process_and_close_socket at once, which admits the socket here.
class GuardedHttpServer::Gate : public httplib::TaskQueue {
 public:
  explicit Gate(GuardedHttpServer& server) : server_(server), limits_(server.limits_) {
    epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
    wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = wake_fd_;
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev);
    gate_thread_ = std::thread([this] { watch_loop(); });
    for (int i = 0; i < std::max(1, limits_.workers); ++i)
      workers_.emplace_back([this] { work_loop(); });
    server_.gate_ = this;
  }
  ~Gate() override {
    if (gate_thread_.joinable()) shutdown();
    ::close(epoll_fd_);
    ::close(wake_fd_);
  }

  void enqueue(std::function<void()> fn) override { fn(); }

  void shutdown() override {
    server_.gate_ = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    uint64_t one = 1;
    (void)!::write(wake_fd_, &one, sizeof(one));
    ready_cv_.notify_all();
    gate_thread_.join();
    for (auto& w : workers_) w.join();
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [fd, c] : waiting_) close_locked(*c);
    waiting_.clear();
    for (auto& c : ready_) close_locked(*c);
    ready_.clear();
  }

  void admit(int fd) {
    // Without it the body, written after the head, waits for the client's delayed ACK of the
    // head (up to 40 ms) on a keep-alive connection: 22 requests/s on loopback instead of ~1,000.
    const int on = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    auto c = std::make_unique<Connection>();
    c->fd = fd;
    c->address = peer_address(fd, c->port);
    c->deadline = after(limits_.head_timeout_seconds);
    std::string refusal;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      int& from_address = per_address_[c->address];
      if (stopping_) {
        refusal = "the service is stopping";
      } else if (from_address >= limits_.max_connections_per_address) {
        refusal = fmt::format("too many connections from {} (limit {} per client address)",
                              c->address, limits_.max_connections_per_address);
      } else if (open_ >= limits_.max_connections) {
        refusal = fmt::format("too many open connections (limit {})", limits_.max_connections);
      }
      if (refusal.empty()) {
        ++from_address;
        ++open_;
        watch_locked(std::move(c));
        return;
      }
      if (from_address == 0) per_address_.erase(c->address);
      ++refused_;
    }
    // Logged at most once a second: a flood would otherwise flood the log too.
    if (should_log_refusal()) spdlog::warn("HTTP: refused a connection: {}", refusal);
    refuse(fd, refusal);
  }

 private:
  bool should_log_refusal() {
    auto now = Clock::now();
    std::lock_guard<std::mutex> lock(mutex_);
    if (now - last_refusal_log_ < std::chrono::seconds(1)) return false;
    last_refusal_log_ = now;
    return true;
  }

  // REQUIRES: mutex_ held. Edge-triggered: every arrival of bytes wakes the gate once, so a
  // head that is incomplete does not keep it busy.
  void watch_locked(std::unique_ptr<Connection> c) {
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP | EPOLLET;
    ev.data.fd = c->fd;
    const int fd = c->fd;
    if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) != 0) {
      close_locked(*c);
      return;
    }
    waiting_[fd] = std::move(c);
  }

  // REQUIRES: mutex_ held; the connection is in neither waiting_ nor epoll. Sends `response`
  // without waiting (it fits the socket buffer) and closes, unread request bytes drained.
  void answer_and_close_locked(Connection& c, const std::string& response) {
    (void)!::send(c.fd, response.data(), response.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    ::shutdown(c.fd, SHUT_WR);
    char sink[4096];
    while (::recv(c.fd, sink, sizeof(sink), MSG_DONTWAIT) > 0) {
    }
    close_locked(c);
  }

  // REQUIRES: mutex_ held; the connection is in neither waiting_ nor epoll.
  void close_locked(Connection& c) {
    ::shutdown(c.fd, SHUT_RDWR);
    ::close(c.fd);
    auto it = per_address_.find(c.address);
    if (it != per_address_.end() && --it->second <= 0) per_address_.erase(it);
    --open_;
  }

  // The head has arrived when the bytes waiting in the kernel hold "\r\n\r\n".
  enum class Head { kIncomplete, kComplete, kClosed };
  // `head` is set to the complete head (up to its empty line) when one is found.
  static Head peek_head(int fd, std::vector<char>& buffer, std::string_view& head) {
    head = {};
    ssize_t n = ::recv(fd, buffer.data(), buffer.size(), MSG_PEEK | MSG_DONTWAIT);
    if (n == 0) return Head::kClosed;
    if (n < 0)
      return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? Head::kIncomplete
                                                                       : Head::kClosed;
    if (static_cast<size_t>(n) >= buffer.size()) return Head::kComplete;
    std::string_view bytes(buffer.data(), static_cast<size_t>(n));
    if (const size_t end = bytes.find("\r\n\r\n"); end != std::string_view::npos) {
      head = bytes.substr(0, end + 4);
      return Head::kComplete;
    }
    // Part of a head from a client that has shut down its side can never complete: closed now,
    // not at the head timeout (a bad request's trailing "\r\n" and a FIN kept it 10 s).
    pollfd p{fd, POLLRDHUP, 0};
    if (::poll(&p, 1, 0) == 1 && (p.revents & (POLLRDHUP | POLLHUP)) != 0) return Head::kClosed;
    return Head::kIncomplete;
  }

  // REQUIRES: mutex_ held; the connection is in neither waiting_ nor epoll. Ends a connection
  // whose last answer is sent: its sending side is shut (the client reads the answer, then the
  // end) and it waits in epoll, its further bytes dropped, until the client closes or the idle
  // timeout. Closed at once, a socket with unread bytes resets the connection, and a reset
  // drops answer bytes still unsent (a 132 KB /metrics answer was cut).
  void linger_locked(std::unique_ptr<Connection> c) {
    ::shutdown(c->fd, SHUT_WR);
    c->lingering = true;
    c->deadline = after(limits_.idle_timeout_seconds);
    watch_locked(std::move(c));
  }

  // REQUIRES: mutex_ held. Drops what lingering connection `c` received; true when the client
  // has closed it (or it failed).
  static bool drain_until_closed(Connection& c, std::vector<char>& buffer) {
    for (;;) {
      const ssize_t n = ::recv(c.fd, buffer.data(), buffer.size(), MSG_DONTWAIT);
      if (n > 0) continue;
      return n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
    }
  }

  // REQUIRES: mutex_ held. Looks at waiting connection `fd`'s bytes: a complete head goes to a
  // worker, a close closes it, an incomplete head (re)starts its head deadline if it was idle.
  void look_locked(int fd, std::vector<char>& buffer) {
    auto it = waiting_.find(fd);
    if (it == waiting_.end()) return;
    Connection& c = *it->second;
    if (c.lingering) {
      if (drain_until_closed(c, buffer)) {
        ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
        close_locked(c);
        waiting_.erase(it);
      }
      return;
    }
    std::string_view head_text;
    const Head head = peek_head(fd, buffer, head_text);
    if (head == Head::kIncomplete) {
      if (c.idle) {
        c.idle = false;
        c.deadline = after(limits_.head_timeout_seconds);
      }
      return;
    }
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
    std::unique_ptr<Connection> owned = std::move(it->second);
    waiting_.erase(it);
    const std::string early =
        head == Head::kComplete ? check_request_head(head_text, limits_.max_body_bytes) : "";
    if (head == Head::kClosed) {
      close_locked(*owned);
    } else if (!early.empty()) {
      answer_and_close_locked(*owned, early);
    } else {
      owned->head_bytes = head_text.size();
      owned->body = request_body(head_text);
      ready_.push_back(std::move(owned));
      ready_cv_.notify_one();
    }
  }

  void watch_loop() {
    std::vector<char> buffer(kMaxHeadBytes);
    std::vector<epoll_event> events(256);
    auto next_sweep = Clock::now();
    for (;;) {
      int n = ::epoll_wait(epoll_fd_, events.data(), static_cast<int>(events.size()), 100);
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
      for (int i = 0; i < n; ++i) {
        const int fd = events[i].data.fd;
        if (fd != wake_fd_) look_locked(fd, buffer);
      }
      const auto now = Clock::now();
      if (now < next_sweep) continue;
      next_sweep = now + std::chrono::milliseconds(100);
      for (auto it = waiting_.begin(); it != waiting_.end();) {
        if (it->second->deadline > now) {
          ++it;
          continue;
        }
        ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, it->first, nullptr);
        close_locked(*it->second);
        it = waiting_.erase(it);
      }
    }
  }

  void work_loop() {
    for (;;) {
      std::unique_ptr<Connection> c;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_cv_.wait(lock, [this] { return stopping_ || !ready_.empty(); });
        if (stopping_) return;
        c = std::move(ready_.front());
        ready_.pop_front();
      }
      // A chunked body's end is known only to httplib's reader, so such a connection ends with
      // its answer (as RFC 9112, 6.1 requires when a Content-Length came with it), and so does
      // one whose head was too long for the gate to find its end.
      const bool close_after = ++c->requests_served >= limits_.keep_alive_max_requests ||
                               c->body.transfer_encoding || c->head_bytes == 0;
      bool connection_closed = false;
      bool ok = false;
      {
        ConnectionStream stream(*c, limits_);
        ok = server_.serve_one_request(stream, close_after, connection_closed);
        // Left unread, the rest of a request was taken for the next one: each line after a
        // bad request line got its own 400, and a GET's body (httplib reads none) or a body
        // after a 401 was answered as a request, which could slip one past a proxy.
        if (!stream.read_to_the_end()) connection_closed = true;
      }
      std::lock_guard<std::mutex> lock(mutex_);
      if (!ok || stopping_) {
        close_locked(*c);
      } else if (close_after || connection_closed) {
        linger_locked(std::move(c));
      } else {
        c->idle = true;
        c->deadline = after(limits_.idle_timeout_seconds);
        watch_locked(std::move(c));
      }
    }
  }

  GuardedHttpServer& server_;
  const HttpConnectionLimits& limits_;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;
  std::mutex mutex_;
  std::condition_variable ready_cv_;
  std::map<int, std::unique_ptr<Connection>> waiting_;  // by fd, registered with epoll
  std::deque<std::unique_ptr<Connection>> ready_;       // head complete, for a worker
  std::unordered_map<std::string, int> per_address_;    // open connections per client IP
  int open_ = 0;
  int64_t refused_ = 0;
  Clock::time_point last_refusal_log_{};
  bool stopping_ = false;
  std::thread gate_thread_;
  std::vector<std::thread> workers_;
};

GuardedHttpServer::GuardedHttpServer(HttpConnectionLimits limits) : limits_(limits) {
  if (limits_.max_connections <= 0) {
    // Half the process's open-file limit: the other half stays for jobs' files.
    rlimit files{};
    ::getrlimit(RLIMIT_NOFILE, &files);
    limits_.max_connections = static_cast<int>(std::min<rlim_t>(files.rlim_cur / 2, 4096));
  }
  // httplib's "Keep-Alive: timeout=T, max=N" answer header states the gate's limits, not its own.
  set_keep_alive_max_count(static_cast<size_t>(std::max(1, limits_.keep_alive_max_requests)));
  set_keep_alive_timeout(static_cast<time_t>(std::ceil(limits_.idle_timeout_seconds)));
  new_task_queue = [this] { return new Gate(*this); };
}

GuardedHttpServer::~GuardedHttpServer() = default;

bool GuardedHttpServer::process_and_close_socket(socket_t sock) {
  if (gate_ == nullptr) {
    ::close(sock);
    return false;
  }
  gate_->admit(sock);
  return true;
}

bool GuardedHttpServer::serve_one_request(httplib::Stream& stream, bool close_connection,
                                          bool& connection_closed) {
  return process_request(stream, close_connection, connection_closed, nullptr);
}

}  // namespace ionflow
