// acl-cpu HCCL: the process's communicators -- the root info, the joining
// of ranks into groups, and the handles programs hold.
#pragma once

#include "core/internal.hpp"

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>

#include "core/group.hpp"
#include "net/root_store.hpp"

namespace aclcpu::hccl::detail {

/// What HcclRootInfo carries: a tag, the root's process, the group's
/// identity, and where the root's rendezvous store listens (port 0: none,
/// the ranks are all in the root's process).
struct RootLocator {
    int32_t pid = 0;
    uint64_t group = 0;
    Endpoint store;
};

/// The locator info carries; false when info is not root info of acl-cpu.
bool read_root_info(const HcclRootInfo& info, RootLocator& locator);

/// How one rank joins.
struct JoinRequest {
    uint32_t ranks = 0;
    uint32_t rank = 0;
    std::string name;  ///< Empty: derived from the group's identity.
    std::chrono::milliseconds execTimeout{0};
};

/// The live communicators of the process.  Thread-safe.
class Communicators {
public:
    static Communicators& instance();

    /// HcclGetRootInfo: a fresh group whose root is this process, written
    /// into info with the address of the process's rendezvous store (started
    /// by the first call).  HCCL_E_TCP_CONNECT (with `why`) when it cannot
    /// listen.
    HcclResult issue_root_info(HcclRootInfo& info, std::string& why);

    /// Joins rank request.rank to the group `root` locates, waiting until
    /// every rank has joined: HCCL_E_TIMEOUT after connectTimeout, HCCL_E_PARA
    /// (with `why`) when the rank joined already or the rank counts differ.
    /// The group is in-process when this process issued the root info and
    /// every rank joins here before any rank of another process registers
    /// at its store; else every rank joins over the network (Gloo).
    HcclResult join(const RootLocator& root, const JoinRequest& request, std::chrono::milliseconds connectTimeout,
                    HcclComm& comm, std::string& why);
    /// A group of `requests.size()` ranks made at once (HcclCommInitAll).
    void create_all(const std::vector<JoinRequest>& requests, std::vector<HcclComm>& comms);

    /// The rank behind a handle; nullptr for an unknown or destroyed one.
    std::shared_ptr<Rank> find(HcclComm comm) const;
    /// Forgets comm and ends its rank's membership (Group::destroy_rank);
    /// false for an unknown handle.
    bool destroy(HcclComm comm);

private:
    /// The ranks that have come to join a group not yet complete.
    struct Joining {
        uint32_t ranks = 0;
        std::shared_ptr<Group> group;
        std::map<uint32_t, JoinRequest> arrived;
        std::map<uint32_t, HcclComm> comms;  ///< Filled when the last rank arrives.
        std::condition_variable complete;
    };

    HcclComm add(std::shared_ptr<Rank> rank);
    /// This process issued group's root info.
    bool issued_here(uint64_t group) const;
    /// A rank of another process registered at the store under prefix.
    void remote_member(const std::string& prefix);
    /// Joins over the network: registers at the root's store and connects a
    /// Gloo context to every rank.  The group's keys stay in the store (a
    /// few hundred bytes per group) for the process's life.
    HcclResult join_over_network(const RootLocator& root, const JoinRequest& request,
                                 std::chrono::milliseconds connectTimeout, HcclComm& comm, std::string& why);

    mutable std::mutex mutex_;
    std::unordered_map<HcclComm, std::shared_ptr<Rank>> live_;
    std::map<uint64_t, std::shared_ptr<Joining>> joining_;
    /// The process's rendezvous store, from its first HcclGetRootInfo on.
    std::unique_ptr<RootStoreServer> store_;
    std::set<uint64_t> issued_;  ///< Every group whose root info this process issued.
    std::set<uint64_t> remote_;  ///< Of those, the groups a rank of another process joined: all go over the network.
};

/// The execution timeout of a new communicator: the configuration's when
/// set (seconds), else HCCL_EXEC_TIMEOUT (seconds), else CANN's default.
std::chrono::milliseconds exec_timeout(int32_t configured);
/// How long HcclCommInitRootInfo waits for the other ranks: HCCL_CONNECT_TIMEOUT
/// (seconds) or CANN's default.
std::chrono::milliseconds connect_timeout();

}  // namespace aclcpu::hccl::detail
