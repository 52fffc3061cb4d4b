// Fuzzes the root's rendezvous store of libhccl (hccl/net/root_store.hpp),
// the one part of HCCL that reads bytes from the network before any peer is
// known: a process that issued root info listens on a TCP port anybody can
// reach.
//
// Invariants:
//   - take_request, fed the input in pieces as a socket delivers them,
//     never reads past what it was given, takes a request only once it is
//     complete, and what it takes re-encodes to exactly the bytes it
//     consumed; malformed bytes are refused, never half-taken;
//   - the live store, sent the same bytes on a connection that then closes,
//     keeps serving: a well-formed set and get on another connection (one
//     for the whole run) round-trip.
// Nothing may crash or hang (a get the garbage left waiting dies with its
// connection).
#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include <fuzzer/FuzzedDataProvider.h>

#include "fuzz_support.hpp"
#include "net/root_store.hpp"

namespace {

using aclcpu::hccl::detail::Endpoint;
using aclcpu::hccl::detail::RootStoreClient;
using aclcpu::hccl::detail::RootStoreServer;
using aclcpu::hccl::detail::StoreRequest;
using aclcpu::hccl::detail::take_request;
using aclcpu::fuzz::fail;

void append_field(std::string& out, const std::string& field) {
    const uint32_t length = htonl(static_cast<uint32_t>(field.size()));
    out.append(reinterpret_cast<const char*>(&length), sizeof length);
    out += field;
}

std::string encode(const StoreRequest& request) {
    std::string bytes(1, request.op);
    append_field(bytes, request.key);
    if (request.op == 'S') append_field(bytes, request.value);
    return bytes;
}

/// Feeds `input` to take_request in pieces of the sizes the provider picks.
void check_parser(FuzzedDataProvider& pieces, const std::string& input) {
    std::string pending;
    size_t offset = 0;
    while (offset < input.size()) {
        const size_t piece = pieces.ConsumeIntegralInRange<size_t>(1, input.size() - offset);
        pending.append(input, offset, piece);
        offset += piece;
        for (;;) {
            StoreRequest request;
            size_t used = 0;
            const int outcome = take_request(pending, request, used);
            if (outcome < 0) return;  // The store drops such a connection.
            if (outcome == 0) break;
            if (used == 0 || used > pending.size()) fail("take_request consumed outside the bytes it was given");
            if (encode(request) != pending.substr(0, used)) fail("a taken request does not re-encode to its bytes");
            pending.erase(0, used);
        }
    }
}

/// The live store, started once.
RootStoreServer& store() {
    static std::unique_ptr<RootStoreServer> server = [] {
        setenv("HCCL_IF_IP", "127.0.0.1", 1);
        std::string error;
        std::unique_ptr<RootStoreServer> started = RootStoreServer::start([](const std::string&) {}, error);
        if (!started) fail("%s", error.c_str());
        return started;
    }();
    return *server;
}

/// connect(), finished when a signal interrupts it: libFuzzer's -timeout
/// alarm does, and the handshake goes on in the kernel (CI's fuzzing step
/// failed with EINTR when a loaded machine made connect() sleep).
bool connect_through_signals(int fd, const sockaddr_in& address) {
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) return true;
    if (errno != EINTR) return false;
    pollfd connecting{fd, POLLOUT, 0};
    int ready;
    do ready = ::poll(&connecting, 1, 5000);
    while (ready < 0 && errno == EINTR);
    int error = ready > 0 ? 0 : ETIMEDOUT;
    socklen_t length = sizeof error;
    if (ready > 0) ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length);
    errno = error;
    return error == 0;
}

/// Sends bytes on a connection of their own, then resets it: a reset leaves
/// no TIME_WAIT behind, so a long run does not use up the ephemeral ports.
void send_garbage(const Endpoint& endpoint, const std::string& bytes) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    const linger reset{1, 0};
    if (fd >= 0) ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(endpoint.port);
    inet_pton(AF_INET, endpoint.host, &address.sin_addr);
    if (fd < 0 || !connect_through_signals(fd, address)) fail("cannot connect: %s", std::strerror(errno));
    for (size_t sent = 0; sent < bytes.size();) {
        const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) break;  // The store dropped the connection: allowed.
        sent += static_cast<size_t>(n);
    }
    ::close(fd);
}

void check_store_survives(const std::string& bytes) {
    const Endpoint& endpoint = store().endpoint();
    send_garbage(endpoint, bytes);
    const auto timeout = std::chrono::milliseconds(5000);
    static RootStoreClient client(endpoint, std::chrono::steady_clock::now() + timeout, timeout);
    static unsigned probes = 0;
    const std::string key = "probe/" + std::to_string(++probes);
    const std::vector<char> value{'o', 'k'};
    client.set(key, value);
    if (client.get(key) != value) fail("the store lost a well-formed set after garbage");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    FuzzedDataProvider provider(data, size);
    const std::string input = provider.ConsumeRandomLengthString(4096);
    check_parser(provider, input);
    check_store_survives(input);
    return 0;
}
