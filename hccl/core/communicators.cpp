// acl-cpu HCCL: root info, joining and handles (see communicators.hpp).
#include "core/communicators.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <random>

#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/transport/tcp/device.h>

#include "net/network_rank.hpp"

namespace aclcpu::hccl::detail {
namespace {

constexpr char kRootTag[] = "acl-cpu hccl root v1";

/// CANN's defaults: HCCL_EXEC_TIMEOUT 1836 s, HCCL_CONNECT_TIMEOUT 120 s.
constexpr std::chrono::seconds kDefaultExecTimeout{1836};
constexpr std::chrono::seconds kDefaultConnectTimeout{120};

std::chrono::milliseconds seconds_from_environment(const char* name, std::chrono::seconds fallback) {
    const char* text = std::getenv(name);
    if (text == nullptr || *text == '\0') return fallback;
    char* end = nullptr;
    const long seconds = std::strtol(text, &end, 10);
    if (*end != '\0' || seconds <= 0) return fallback;
    return std::chrono::seconds(seconds);
}

uint64_t fresh_group_id() {
    static std::atomic<uint64_t> counter{std::random_device{}()};
    return counter.fetch_add(0x9e3779b97f4a7c15ULL, std::memory_order_relaxed);
}

/// The default name of a group: the same in every process of it.
std::string group_name(int32_t rootPid, uint64_t id) {
    char name[COMM_NAME_MAX_LENGTH];
    std::snprintf(name, sizeof name, "aclcpu_%d_%016llx", static_cast<int>(rootPid),
                  static_cast<unsigned long long>(id));
    return name;
}

std::string joined_key(uint32_t rank) { return "joined/" + std::to_string(rank); }

/// The prefix of a group's keys in its root's store.
std::string store_prefix(uint64_t group) {
    char prefix[17];
    std::snprintf(prefix, sizeof prefix, "%016llx", static_cast<unsigned long long>(group));
    return prefix;
}

std::vector<char> bytes_of(const std::string& text) { return std::vector<char>(text.begin(), text.end()); }

/// Gloo writes to its sockets with writev(), which raises SIGPIPE when a
/// peer's process has died: that must fail the call, not kill this process.
/// A handler the program installed itself is left alone.
void survive_dead_peers() {
    struct sigaction current {};
    if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
        signal(SIGPIPE, SIG_IGN);
    }
}

}  // namespace

HcclResult Communicators::issue_root_info(HcclRootInfo& info, std::string& why) {
    RootLocator locator{static_cast<int32_t>(getpid()), fresh_group_id(), {}};
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (!store_) {
            store_ = RootStoreServer::start([this](const std::string& prefix) { remote_member(prefix); }, why);
            if (!store_) return HCCL_E_TCP_CONNECT;
        }
        locator.store = store_->endpoint();
        issued_.insert(locator.group);
    }
    std::memset(info.internal, 0, sizeof info.internal);
    std::memcpy(info.internal, kRootTag, sizeof kRootTag);
    std::memcpy(info.internal + sizeof kRootTag, &locator, sizeof locator);
    return HCCL_SUCCESS;
}

bool read_root_info(const HcclRootInfo& info, RootLocator& locator) {
    if (std::memcmp(info.internal, kRootTag, sizeof kRootTag) != 0) return false;
    std::memcpy(&locator, info.internal + sizeof kRootTag, sizeof locator);
    return true;
}

std::chrono::milliseconds exec_timeout(int32_t configured) {
    if (configured > 0) return std::chrono::seconds(configured);
    return seconds_from_environment("HCCL_EXEC_TIMEOUT", kDefaultExecTimeout);
}

std::chrono::milliseconds connect_timeout() {
    return seconds_from_environment("HCCL_CONNECT_TIMEOUT", kDefaultConnectTimeout);
}

Communicators& Communicators::instance() {
    static Communicators communicators;
    return communicators;
}

HcclComm Communicators::add(std::shared_ptr<Rank> rank) {
    const HcclComm handle = rank.get();
    live_.emplace(handle, std::move(rank));
    return handle;
}

bool Communicators::issued_here(uint64_t group) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return issued_.count(group) != 0;
}

void Communicators::remote_member(const std::string& prefix) {
    const uint64_t groupId = std::strtoull(prefix.c_str(), nullptr, 16);
    const std::lock_guard<std::mutex> lock(mutex_);
    remote_.insert(groupId);
    if (const auto waiting = joining_.find(groupId); waiting != joining_.end()) waiting->second->complete.notify_all();
}

HcclResult Communicators::join(const RootLocator& root, const JoinRequest& request,
                               std::chrono::milliseconds connectTimeout, HcclComm& comm, std::string& why) {
    const uint64_t groupId = root.group;
    std::unique_lock<std::mutex> lock(mutex_);
    const auto remote = [&] { return remote_.count(groupId) != 0; };
    // Root info of another process, or a group a rank of one has joined.
    if ((issued_.count(groupId) == 0 && root.store.port != 0) || remote()) {
        lock.unlock();
        return join_over_network(root, request, connectTimeout, comm, why);
    }
    std::shared_ptr<Joining>& slot = joining_[groupId];
    if (!slot) {
        slot = std::make_shared<Joining>();
        slot->ranks = request.ranks;
    }
    const std::shared_ptr<Joining> joining = slot;
    if (joining->ranks != request.ranks) {
        why = "rank " + std::to_string(request.rank) + " was told of " + std::to_string(request.ranks) +
              " ranks, an earlier rank of the same root info of " + std::to_string(joining->ranks);
        return HCCL_E_PARA;
    }
    if (!joining->arrived.emplace(request.rank, request).second) {
        why = "rank " + std::to_string(request.rank) + " has already joined this root info's communicator";
        return HCCL_E_PARA;
    }
    const auto leave = [&] {
        joining->arrived.erase(request.rank);
        if (joining->arrived.empty()) joining_.erase(groupId);
    };
    if (joining->arrived.size() == joining->ranks) {
        const std::string& named = joining->arrived.begin()->second.name;
        joining->group = std::make_shared<Group>(joining->ranks, named.empty() ? group_name(root.pid, groupId) : named);
        for (const auto& [rank, joined] : joining->arrived) {
            joining->comms[rank] = add(std::make_shared<Rank>(joining->group, rank, joined.execTimeout));
        }
        joining_.erase(groupId);
        joining->complete.notify_all();
    } else if (!joining->complete.wait_for(lock, connectTimeout,
                                           [&] { return joining->group != nullptr || remote(); })) {
        leave();
        why = "rank " + std::to_string(request.rank) + " waited " + std::to_string(connectTimeout.count()) +
              " ms for " + std::to_string(joining->ranks - joining->arrived.size() - 1) +
              " other rank(s) to join (HCCL_CONNECT_TIMEOUT)";
        return HCCL_E_TIMEOUT;
    } else if (joining->group == nullptr) {
        leave();
        lock.unlock();
        return join_over_network(root, request, connectTimeout, comm, why);
    }
    comm = joining->comms.at(request.rank);
    return HCCL_SUCCESS;
}

HcclResult Communicators::join_over_network(const RootLocator& root, const JoinRequest& request,
                                            std::chrono::milliseconds connectTimeout, HcclComm& comm,
                                            std::string& why) {
    survive_dead_peers();
    std::shared_ptr<gloo::rendezvous::Context> context;
    try {
        RootStoreClient connection(root.store, Clock::now() + connectTimeout, connectTimeout);
        gloo::rendezvous::PrefixStore store(store_prefix(root.group), connection);
        store.set(member_key(request.rank), bytes_of(std::to_string(getpid())));
        gloo::transport::tcp::attr address;
        address.hostname = local_address();
        std::shared_ptr<gloo::transport::Device> device = gloo::transport::tcp::CreateDevice(address);
        context = std::make_shared<gloo::rendezvous::Context>(static_cast<int>(request.rank),
                                                              static_cast<int>(request.ranks));
        context->setTimeout(connectTimeout);
        context->connectFullMesh(store, device);
        // Past this point a rank needs the store no more; a rank of the root's
        // process returns only once every rank is past it, so that a root
        // process that exits right after does not strand the others.
        store.set(joined_key(request.rank), bytes_of("1"));
        if (issued_here(root.group)) {
            std::vector<std::string> everyone;
            for (uint32_t r = 0; r < request.ranks; ++r) everyone.push_back(joined_key(r));
            store.wait(everyone, connectTimeout);
        }
    } catch (const std::exception& error) {
        why = "rank " + std::to_string(request.rank) + " could not join the ranks of root " + root.store.host + ":" +
              std::to_string(root.store.port) + " within HCCL_CONNECT_TIMEOUT: " + error.what();
        return HCCL_E_TIMEOUT;
    }
    const std::lock_guard<std::mutex> lock(mutex_);
    const std::string name = request.name.empty() ? group_name(root.pid, root.group) : request.name;
    auto network = std::make_shared<NetworkRank>(context, request.execTimeout);
    comm = add(std::make_shared<Rank>(std::make_shared<Group>(request.ranks, name), request.rank, request.execTimeout,
                                      std::move(network)));
    return HCCL_SUCCESS;
}

void Communicators::create_all(const std::vector<JoinRequest>& requests, std::vector<HcclComm>& comms) {
    const uint64_t id = fresh_group_id();
    auto group = std::make_shared<Group>(static_cast<uint32_t>(requests.size()), group_name(getpid(), id));
    const std::lock_guard<std::mutex> lock(mutex_);
    comms.clear();
    for (const JoinRequest& request : requests) {
        comms.push_back(add(std::make_shared<Rank>(group, request.rank, request.execTimeout)));
    }
}

std::shared_ptr<Rank> Communicators::find(HcclComm comm) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto found = live_.find(comm);
    return found == live_.end() ? nullptr : found->second;
}

bool Communicators::destroy(HcclComm comm) {
    std::shared_ptr<Rank> rank;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        const auto found = live_.find(comm);
        if (found == live_.end()) return false;
        rank = std::move(found->second);
        live_.erase(found);
    }
    rank->group().destroy_rank(rank->rank());
    if (NetworkRank* network = rank->network()) network->shutdown();
    return true;
}

}  // namespace aclcpu::hccl::detail
