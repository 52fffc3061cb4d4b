// acl-cpu HCCL: root info, joining and handles (see communicators.hpp).
#include "core/communicators.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <random>

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

std::string group_name(uint64_t id) {
    char name[COMM_NAME_MAX_LENGTH];
    std::snprintf(name, sizeof name, "aclcpu_%d_%016llx", static_cast<int>(getpid()),
                  static_cast<unsigned long long>(id));
    return name;
}

}  // namespace

void make_root_info(HcclRootInfo& info) {
    std::memset(info.internal, 0, sizeof info.internal);
    const RootLocator locator{static_cast<int32_t>(getpid()), fresh_group_id()};
    std::memcpy(info.internal, kRootTag, sizeof kRootTag);
    std::memcpy(info.internal + sizeof kRootTag, &locator, sizeof locator);
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

HcclResult Communicators::join(uint64_t groupId, const JoinRequest& request, std::chrono::milliseconds connectTimeout,
                               HcclComm& comm, std::string& why) {
    std::unique_lock<std::mutex> lock(mutex_);
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
    if (joining->arrived.size() == joining->ranks) {
        const std::string& named = joining->arrived.begin()->second.name;
        joining->group = std::make_shared<Group>(joining->ranks, named.empty() ? group_name(groupId) : named);
        for (const auto& [rank, joined] : joining->arrived) {
            joining->comms[rank] = add(std::make_shared<Rank>(joining->group, rank, joined.execTimeout));
        }
        joining_.erase(groupId);
        joining->complete.notify_all();
    } else if (!joining->complete.wait_for(lock, connectTimeout, [&] { return joining->group != nullptr; })) {
        joining->arrived.erase(request.rank);
        if (joining->arrived.empty()) joining_.erase(groupId);
        why = "rank " + std::to_string(request.rank) + " waited " + std::to_string(connectTimeout.count()) +
              " ms for " + std::to_string(joining->ranks - joining->arrived.size() - 1) +
              " other rank(s) to join (HCCL_CONNECT_TIMEOUT)";
        return HCCL_E_TIMEOUT;
    }
    comm = joining->comms.at(request.rank);
    return HCCL_SUCCESS;
}

void Communicators::create_all(const std::vector<JoinRequest>& requests, std::vector<HcclComm>& comms) {
    const uint64_t id = fresh_group_id();
    auto group = std::make_shared<Group>(static_cast<uint32_t>(requests.size()), group_name(id));
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
    return true;
}

}  // namespace aclcpu::hccl::detail
