// acl-cpu HCCL: the root's rendezvous store -- how ranks of other processes
// find each other through HcclRootInfo.
//
// CPU mapping: CANN's root info carries the root's address, where the root
// process listens for the ranks of its communicator.  Here a process that
// called HcclGetRootInfo serves a small key-value store on a TCP port (one
// for all its root infos, each group's keys under the group's prefix);
// each rank of another process connects to it, and Gloo's
// rendezvous (gloo::rendezvous::Context::connectFullMesh) runs over it: the
// ranks exchange their own Gloo addresses through the store, then connect
// to each other directly.  Only the rendezvous goes through the store; data
// moves over Gloo's pairs.
#pragma once

#include "core/internal.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <gloo/rendezvous/store.h>

namespace aclcpu::hccl::detail {

/// Where a root store listens: an IPv4 or IPv6 address in text and a port.
struct Endpoint {
    char host[64] = {};
    uint16_t port = 0;
};

/// The address this process offers to peers: HCCL_IF_IP when set (CANN's
/// variable for the NIC HCCL uses), else the first non-loopback IPv4
/// address of the host's interfaces, else 127.0.0.1.
std::string local_address();

/// The key (under its group's prefix) a joining rank sets first: its process
/// id, so that the root can tell ranks of other processes from its own.
std::string member_key(uint32_t rank);

/// One request of the store's wire format (root_store.cpp): a set ('S',
/// key and value) or a get ('G', key).
struct StoreRequest {
    char op = 0;
    std::string key;
    std::string value;
};

/// Takes the request at the start of `pending` (bytes a connection sent):
/// 1 when one is complete (filled into request; it spans `used` bytes), 0
/// when more bytes are needed, -1 when the bytes are not a request (the
/// store then drops the connection).  Keys and values above 1 MiB are not.
int take_request(const std::string& pending, StoreRequest& request, size_t& used);

/// A running store.  The destructor stops it (closing every connection).
/// Thread-safe.
class RootStoreServer {
public:
    /// Listens on every interface on an ephemeral port (HCCL_IF_BASE_PORT
    /// when set: that port) and serves from a thread of its own.
    /// `onRemoteMember(prefix)` is called (on that thread) when a rank of
    /// another process registers under `prefix`.  nullptr with `error` set
    /// when the port cannot be had.
    static std::unique_ptr<RootStoreServer> start(std::function<void(const std::string&)> onRemoteMember,
                                                  std::string& error);
    ~RootStoreServer();
    RootStoreServer(const RootStoreServer&) = delete;
    RootStoreServer& operator=(const RootStoreServer&) = delete;

    /// The address ranks reach it by (local_address() and the port).
    const Endpoint& endpoint() const noexcept { return endpoint_; }

private:
    class Service;
    explicit RootStoreServer(std::unique_ptr<Service> service);

    std::unique_ptr<Service> service_;
    Endpoint endpoint_;
};

/// One rank's connection to a root store: Gloo's Store over it.  Calls
/// throw gloo::IoException when the store cannot be reached or a wait
/// outlasts its timeout.  Not thread-safe (one rank's rendezvous).
class RootStoreClient final : public gloo::rendezvous::Store {
public:
    /// Connects to `endpoint`, retrying until `deadline` (the root may not
    /// be listening yet); waits last at most `timeout` each.
    RootStoreClient(const Endpoint& endpoint, std::chrono::steady_clock::time_point deadline,
                    std::chrono::milliseconds timeout);
    ~RootStoreClient() override;
    RootStoreClient(const RootStoreClient&) = delete;
    RootStoreClient& operator=(const RootStoreClient&) = delete;

    void set(const std::string& key, const std::vector<char>& data) override;
    std::vector<char> get(const std::string& key) override;
    void wait(const std::vector<std::string>& keys) override;
    void wait(const std::vector<std::string>& keys, const std::chrono::milliseconds& timeout) override;

private:
    std::vector<char> get_within(const std::string& key, std::chrono::milliseconds timeout);
    void send_all(const void* data, size_t bytes);
    void receive_all(void* data, size_t bytes, std::chrono::steady_clock::time_point deadline);

    int socket_ = -1;
    std::chrono::milliseconds timeout_;
};

}  // namespace aclcpu::hccl::detail
