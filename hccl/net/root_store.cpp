// acl-cpu HCCL: the root's rendezvous store (see root_store.hpp).
//
// The wire format, all lengths in network byte order:
//   request  'S' | key length (u32) | key | value length (u32) | value   set
//            'G' | key length (u32) | key                               get
//   reply to 'G', once the key is set:  value length (u32) | value
// A get of a key not yet set is answered when the key is set, so a wait is
// a get whose value is dropped.
#include "net/root_store.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <thread>

#include <gloo/common/error.h>

namespace aclcpu::hccl::detail {
namespace {

constexpr char kSet = 'S';
constexpr char kGet = 'G';
constexpr char kMemberPrefix[] = "member/";
/// How long the service sleeps in poll() before it looks at its stop flag.
constexpr int kServicePollMs = 50;
/// Keys and values of a rendezvous are small: anything larger is not ours.
constexpr uint32_t kMaxFieldBytes = 1 << 20;

uint32_t read_u32(const char* bytes) {
    uint32_t value = 0;
    std::memcpy(&value, bytes, sizeof value);
    return ntohl(value);
}

void append_u32(std::string& out, uint32_t value) {
    const uint32_t wire = htonl(value);
    out.append(reinterpret_cast<const char*>(&wire), sizeof wire);
}

void append_field(std::string& out, const char* data, size_t bytes) {
    append_u32(out, static_cast<uint32_t>(bytes));
    out.append(data, bytes);
}

/// Writes all of `data` to a blocking socket; false when the peer is gone.
bool write_all(int fd, const char* data, size_t bytes) {
    while (bytes > 0) {
        const ssize_t written = ::send(fd, data, bytes, MSG_NOSIGNAL);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return false;
        data += written;
        bytes -= static_cast<size_t>(written);
    }
    return true;
}

}  // namespace

std::string local_address() {
    if (const char* configured = std::getenv("HCCL_IF_IP"); configured != nullptr && *configured != '\0') {
        return configured;
    }
    std::string found = "127.0.0.1";
    ifaddrs* interfaces = nullptr;
    if (getifaddrs(&interfaces) != 0) return found;
    for (const ifaddrs* entry = interfaces; entry != nullptr; entry = entry->ifa_next) {
        if (entry->ifa_addr == nullptr || entry->ifa_addr->sa_family != AF_INET) continue;
        const auto* address = reinterpret_cast<const sockaddr_in*>(entry->ifa_addr);
        if (ntohl(address->sin_addr.s_addr) >> 24 == 127) continue;
        char text[INET_ADDRSTRLEN] = {};
        if (inet_ntop(AF_INET, &address->sin_addr, text, sizeof text) != nullptr) {
            found = text;
            break;
        }
    }
    freeifaddrs(interfaces);
    return found;
}

std::string member_key(uint32_t rank) { return kMemberPrefix + std::to_string(rank); }

int take_request(const std::string& pending, StoreRequest& request, size_t& used) {
    const size_t header = 1 + sizeof(uint32_t);
    if (pending.size() < header) return 0;
    const char op = pending[0];
    const uint32_t keyBytes = read_u32(pending.data() + 1);
    if ((op != kSet && op != kGet) || keyBytes > kMaxFieldBytes) return -1;
    if (pending.size() < header + keyBytes) return 0;
    size_t end = header + keyBytes;
    if (op == kSet) {
        if (pending.size() < end + sizeof(uint32_t)) return 0;
        const uint32_t valueBytes = read_u32(pending.data() + end);
        if (valueBytes > kMaxFieldBytes) return -1;
        if (pending.size() < end + sizeof(uint32_t) + valueBytes) return 0;
        request.value = pending.substr(end + sizeof(uint32_t), valueBytes);
        end += sizeof(uint32_t) + valueBytes;
    }
    request.op = op;
    request.key = pending.substr(header, keyBytes);
    used = end;
    return 1;
}

/// The serving thread: one poll() loop over the listening socket and every
/// connection; requests are handled whole, in arrival order.
class RootStoreServer::Service {
public:
    Service(int listener, std::function<void(const std::string&)> onRemoteMember)
        : listener_(listener), onRemoteMember_(std::move(onRemoteMember)), thread_([this] { serve(); }) {}
    ~Service() {
        stop_.store(true, std::memory_order_release);
        thread_.join();
        for (const auto& [fd, pending] : connections_) ::close(fd);
        ::close(listener_);
    }
    Service(const Service&) = delete;
    Service& operator=(const Service&) = delete;

private:
    void serve() {
        while (!stop_.load(std::memory_order_acquire)) {
            std::vector<pollfd> fds{{listener_, POLLIN, 0}};
            for (const auto& [fd, pending] : connections_) fds.push_back({fd, POLLIN, 0});
            if (::poll(fds.data(), fds.size(), kServicePollMs) <= 0) continue;
            if ((fds[0].revents & POLLIN) != 0) accept_one();
            for (size_t i = 1; i < fds.size(); ++i) {
                if (fds[i].revents != 0 && !read_from(fds[i].fd)) drop(fds[i].fd);
            }
        }
    }

    void accept_one() {
        const int fd = ::accept(listener_, nullptr, nullptr);
        if (fd < 0) return;
        const int on = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
        connections_.emplace(fd, std::string());
    }

    void drop(int fd) {
        ::close(fd);
        connections_.erase(fd);
        for (auto waiting = waiting_.begin(); waiting != waiting_.end();) {
            waiting = waiting->second == fd ? waiting_.erase(waiting) : std::next(waiting);
        }
    }

    /// Reads what fd has and handles every complete request; false when the
    /// connection ended or spoke out of turn.
    bool read_from(int fd) {
        char chunk[4096];
        const ssize_t got = ::recv(fd, chunk, sizeof chunk, 0);
        if (got <= 0) return false;
        std::string& pending = connections_.at(fd);
        pending.append(chunk, static_cast<size_t>(got));
        for (;;) {
            size_t used = 0;
            StoreRequest request;
            const int outcome = take_request(pending, request, used);
            if (outcome < 0) return false;
            if (outcome == 0) return true;
            pending.erase(0, used);
            if (request.op == kSet) {
                store(request.key, std::move(request.value));
            } else {
                answer_or_wait(fd, request.key);
            }
        }
    }

    void answer_or_wait(int fd, const std::string& key) {
        const auto found = values_.find(key);
        if (found == values_.end()) {
            waiting_.emplace(key, fd);
            return;
        }
        std::string reply;
        append_field(reply, found->second.data(), found->second.size());
        write_all(fd, reply.data(), reply.size());
    }

    void store(const std::string& key, std::string value) {
        const size_t member = key.find(std::string("/") + kMemberPrefix);
        if (member != std::string::npos && std::strtol(value.c_str(), nullptr, 10) != getpid()) {
            onRemoteMember_(key.substr(0, member));
        }
        values_[key] = std::move(value);
        const auto [first, last] = waiting_.equal_range(key);
        std::vector<int> answered;
        for (auto waiting = first; waiting != last; ++waiting) answered.push_back(waiting->second);
        waiting_.erase(first, last);
        for (int fd : answered) answer_or_wait(fd, key);
    }

    const int listener_;
    const std::function<void(const std::string&)> onRemoteMember_;
    std::atomic<bool> stop_{false};
    std::map<int, std::string> connections_;  ///< Socket -> bytes of an incomplete request.
    std::map<std::string, std::string> values_;  ///< The thread's, as everything here.
    std::multimap<std::string, int> waiting_;  ///< Gets not answered yet.
    std::thread thread_;  ///< Last: starts once everything above exists.
};

RootStoreServer::RootStoreServer(std::unique_ptr<Service> service) : service_(std::move(service)) {}

RootStoreServer::~RootStoreServer() = default;

std::unique_ptr<RootStoreServer> RootStoreServer::start(std::function<void(const std::string&)> onRemoteMember,
                                                        std::string& error) {
    const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener < 0) {
        error = std::string("socket: ") + std::strerror(errno);
        return nullptr;
    }
    const int on = 1;
    ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_ANY);
    const char* basePort = std::getenv("HCCL_IF_BASE_PORT");
    address.sin_port = htons(basePort != nullptr ? static_cast<uint16_t>(std::atoi(basePort)) : 0);
    socklen_t length = sizeof address;
    if (::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(listener, 64) != 0 ||
        ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        error = std::string("cannot listen for the ranks: ") + std::strerror(errno);
        ::close(listener);
        return nullptr;
    }
    std::unique_ptr<RootStoreServer> server(
        new RootStoreServer(std::make_unique<Service>(listener, std::move(onRemoteMember))));
    const std::string host = local_address();
    std::snprintf(server->endpoint_.host, sizeof server->endpoint_.host, "%s", host.c_str());
    server->endpoint_.port = ntohs(address.sin_port);
    return server;
}

RootStoreClient::RootStoreClient(const Endpoint& endpoint, std::chrono::steady_clock::time_point deadline,
                                 std::chrono::milliseconds timeout)
    : timeout_(timeout) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    const std::string port = std::to_string(endpoint.port);
    for (;;) {
        addrinfo* found = nullptr;
        if (::getaddrinfo(endpoint.host, port.c_str(), &hints, &found) == 0) {
            for (const addrinfo* entry = found; entry != nullptr && socket_ < 0; entry = entry->ai_next) {
                const int fd = ::socket(entry->ai_family, entry->ai_socktype | SOCK_CLOEXEC, entry->ai_protocol);
                if (fd < 0) continue;
                if (::connect(fd, entry->ai_addr, entry->ai_addrlen) == 0) {
                    socket_ = fd;
                } else {
                    ::close(fd);
                }
            }
            ::freeaddrinfo(found);
        }
        if (socket_ >= 0) break;
        if (std::chrono::steady_clock::now() >= deadline) {
            throw ::gloo::IoException(std::string("cannot reach the root at ") + endpoint.host + ":" + port);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const int on = 1;
    ::setsockopt(socket_, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

RootStoreClient::~RootStoreClient() {
    if (socket_ >= 0) ::close(socket_);
}

void RootStoreClient::set(const std::string& key, const std::vector<char>& data) {
    std::string request(1, kSet);
    append_field(request, key.data(), key.size());
    append_field(request, data.data(), data.size());
    send_all(request.data(), request.size());
}

std::vector<char> RootStoreClient::get(const std::string& key) { return get_within(key, timeout_); }

void RootStoreClient::wait(const std::vector<std::string>& keys) { wait(keys, timeout_); }

void RootStoreClient::wait(const std::vector<std::string>& keys, const std::chrono::milliseconds& timeout) {
    for (const std::string& key : keys) get_within(key, timeout);
}

std::vector<char> RootStoreClient::get_within(const std::string& key, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::string request(1, kGet);
    append_field(request, key.data(), key.size());
    send_all(request.data(), request.size());
    char length[sizeof(uint32_t)];
    receive_all(length, sizeof length, deadline);
    std::vector<char> value(read_u32(length));
    receive_all(value.data(), value.size(), deadline);
    return value;
}

void RootStoreClient::send_all(const void* data, size_t bytes) {
    if (!write_all(socket_, static_cast<const char*>(data), bytes)) {
        throw ::gloo::IoException("the root's rendezvous store closed the connection");
    }
}

void RootStoreClient::receive_all(void* data, size_t bytes, std::chrono::steady_clock::time_point deadline) {
    auto* out = static_cast<char*>(data);
    while (bytes > 0) {
        using std::chrono::milliseconds;
        const auto left = std::chrono::duration_cast<milliseconds>(deadline - std::chrono::steady_clock::now());
        pollfd fd{socket_, POLLIN, 0};
        const int ready = left.count() > 0 ? ::poll(&fd, 1, static_cast<int>(left.count())) : 0;
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) throw ::gloo::IoException("Timed out waiting for the other ranks at the root's rendezvous");
        const ssize_t got = ::recv(socket_, out, bytes, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) throw ::gloo::IoException("the root's rendezvous store closed the connection");
        out += got;
        bytes -= static_cast<size_t>(got);
    }
}

}  // namespace aclcpu::hccl::detail
