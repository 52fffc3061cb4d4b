// acl-cpu HCCL: the communicator entry points (hccl/hccl_comm.h).
#include "hccl/hccl_comm.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "aclcpu/dtype.hpp"
#include "api/arguments.hpp"
#include "core/communicators.hpp"

namespace aclcpu::hccl::detail {
namespace {

std::atomic<int32_t> gDeterministic{0};

/// A rank joins from the thread that set its device (CANN's order).
HcclResult require_device(const char* api) {
    int32_t device = 0;
    if (aclrtGetDevice(&device) == ACL_SUCCESS) return HCCL_SUCCESS;
    return refuse(HCCL_E_RUNTIME, api, "the calling thread has no device: call aclrtSetDevice first");
}

/// A configuration's settings, checked: HcclCommConfigInit must have filled it.
HcclResult read_config(const HcclCommConfig* config, const char* api, JoinRequest& request) {
    request.execTimeout = exec_timeout(HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET);
    if (config == nullptr) return HCCL_SUCCESS;
    uint32_t magic = 0;
    std::memcpy(&magic, config->reserved + sizeof(size_t), sizeof magic);
    if (magic != HCCL_COMM_CONFIG_MAGIC_WORD) {
        return refuse(HCCL_E_PARA, api, "config was not initialised by HcclCommConfigInit");
    }
    const size_t nameLength = strnlen(config->hcclCommName, COMM_NAME_MAX_LENGTH);
    if (nameLength == COMM_NAME_MAX_LENGTH) {
        return refuse(HCCL_E_PARA, api, "config's hcclCommName is not terminated within %u bytes",
                      COMM_NAME_MAX_LENGTH);
    }
    request.name.assign(config->hcclCommName, nameLength);
    request.execTimeout = exec_timeout(config->hcclExecTimeOut);
    return HCCL_SUCCESS;
}

HcclResult join_group(const RootLocator& root, JoinRequest& request, const char* api, HcclComm* comm) {
    if (HcclResult status = require_device(api); status != HCCL_SUCCESS) return status;
    std::string why;
    HcclComm joined = nullptr;
    const HcclResult status = Communicators::instance().join(root, request, connect_timeout(), joined, why);
    if (status != HCCL_SUCCESS) return refuse(status, api, "%s", why.c_str());
    *comm = joined;
    return HCCL_SUCCESS;
}

HcclResult init_root_info(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank, const HcclCommConfig* config,
                          HcclComm* comm, const char* api) {
    HcclResult status = require(rootInfo, api, "rootInfo");
    if (status == HCCL_SUCCESS) status = require(comm, api, "comm");
    if (status != HCCL_SUCCESS) return status;
    if (nRanks == 0) return refuse(HCCL_E_PARA, api, "nRanks is 0");
    if (rank >= nRanks) return refuse(HCCL_E_PARA, api, "rank %u is not below nRanks %u", rank, nRanks);
    RootLocator locator;
    if (!read_root_info(*rootInfo, locator)) {
        return refuse(HCCL_E_PARA, api, "rootInfo was not written by HcclGetRootInfo");
    }
    JoinRequest request;
    request.ranks = nRanks;
    request.rank = rank;
    if (status = read_config(config, api, request); status != HCCL_SUCCESS) return status;
    return join_group(locator, request, api, comm);
}

/// The ranks of a rank table (CANN's JSON: server_list[].device[] with
/// rank_id and device_id), as (rank, device) pairs.
HcclResult read_rank_table(const char* path, const char* api, std::map<uint32_t, int32_t>& devices) {
    std::ifstream file(path);
    if (!file) return refuse(HCCL_E_OPEN_FILE_FAILURE, api, "cannot open the rank table file %s", path);
    const nlohmann::json table = nlohmann::json::parse(file, nullptr, false);
    if (table.is_discarded() || !table.contains("server_list") || !table["server_list"].is_array()) {
        return refuse(HCCL_E_PARA, api, "%s is not a rank table (JSON with a server_list array)", path);
    }
    for (const nlohmann::json& server : table["server_list"]) {
        if (!server.contains("device") || !server["device"].is_array()) continue;
        for (const nlohmann::json& device : server["device"]) {
            const auto field = [&](const char* name) -> long {
                if (!device.contains(name)) return -1;
                const nlohmann::json& value = device[name];
                if (value.is_number_integer()) return value.get<long>();
                return value.is_string() ? std::strtol(value.get<std::string>().c_str(), nullptr, 10) : -1;
            };
            const long rank = field("rank_id"), id = field("device_id");
            if (rank < 0 || id < 0) return refuse(HCCL_E_PARA, api, "%s: a device lacks rank_id or device_id", path);
            devices[static_cast<uint32_t>(rank)] = static_cast<int32_t>(id);
        }
    }
    if (devices.empty()) return refuse(HCCL_E_PARA, api, "%s lists no device", path);
    return HCCL_SUCCESS;
}

HcclResult init_cluster_info(const char* clusterInfo, uint32_t rank, const HcclCommConfig* config, HcclComm* comm,
                             const char* api) {
    HcclResult status = require(clusterInfo, api, "clusterInfo");
    if (status == HCCL_SUCCESS) status = require(comm, api, "comm");
    std::map<uint32_t, int32_t> devices;
    if (status == HCCL_SUCCESS) status = read_rank_table(clusterInfo, api, devices);
    if (status != HCCL_SUCCESS) return status;
    if (devices.rbegin()->first + 1 != devices.size()) {
        return refuse(HCCL_E_PARA, api, "%s: the rank ids are not 0..%zu", clusterInfo, devices.size() - 1);
    }
    if (devices.count(rank) == 0) return refuse(HCCL_E_PARA, api, "rank %u is not in %s", rank, clusterInfo);
    JoinRequest request;
    request.ranks = static_cast<uint32_t>(devices.size());
    request.rank = rank;
    if (status = read_config(config, api, request); status != HCCL_SUCCESS) return status;
    // Every rank of one process that reads the same table joins one group.
    char resolved[PATH_MAX];
    const std::string key = realpath(clusterInfo, resolved) != nullptr ? resolved : clusterInfo;
    return join_group(RootLocator{static_cast<int32_t>(getpid()), std::hash<std::string>()(key), {}}, request, api,
                      comm);
}

/// A query of comm's rank written through out: the communicator, then the
/// output pointer, are checked first.
template <typename Out, typename Read>
HcclResult query(HcclComm comm, const char* api, Out* out, const char* outName, Read read) {
    std::shared_ptr<Rank> rank;
    HcclResult status = resolve(comm, api, rank);
    if (status == HCCL_SUCCESS) status = require(out, api, outName);
    if (status == HCCL_SUCCESS) read(*rank, out);
    return status;
}

}  // namespace
}  // namespace aclcpu::hccl::detail

using namespace aclcpu::hccl::detail;

extern "C" {

HcclResult HcclGetRootInfo(HcclRootInfo* rootInfo) {
    if (HcclResult status = require(rootInfo, "HcclGetRootInfo", "rootInfo"); status != HCCL_SUCCESS) return status;
    std::string why;
    const HcclResult status = Communicators::instance().issue_root_info(*rootInfo, why);
    return status == HCCL_SUCCESS ? status : refuse(status, "HcclGetRootInfo", "%s", why.c_str());
}

HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank, HcclComm* comm) {
    return init_root_info(nRanks, rootInfo, rank, nullptr, comm, "HcclCommInitRootInfo");
}

HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                                      const HcclCommConfig* config, HcclComm* comm) {
    const char* api = "HcclCommInitRootInfoConfig";
    if (HcclResult status = require(config, api, "config"); status != HCCL_SUCCESS) return status;
    return init_root_info(nRanks, rootInfo, rank, config, comm, api);
}

HcclResult HcclCommInitClusterInfo(const char* clusterInfo, uint32_t rank, HcclComm* comm) {
    return init_cluster_info(clusterInfo, rank, nullptr, comm, "HcclCommInitClusterInfo");
}

HcclResult HcclCommInitClusterInfoConfig(const char* clusterInfo, uint32_t rank, HcclCommConfig* config,
                                         HcclComm* comm) {
    const char* api = "HcclCommInitClusterInfoConfig";
    if (HcclResult status = require(config, api, "config"); status != HCCL_SUCCESS) return status;
    return init_cluster_info(clusterInfo, rank, config, comm, api);
}

HcclResult HcclCommInitAll(uint32_t ndev, int32_t* devices, HcclComm* comms) {
    const char* api = "HcclCommInitAll";
    HcclResult status = require(devices, api, "devices");
    if (status == HCCL_SUCCESS) status = require(comms, api, "comms");
    if (status != HCCL_SUCCESS) return status;
    if (ndev == 0) return refuse(HCCL_E_PARA, api, "ndev is 0");
    uint32_t available = 0;
    if (aclrtGetDeviceCount(&available) != ACL_SUCCESS) return refuse(HCCL_E_RUNTIME, api, "no device count");
    std::set<int32_t> seen;
    std::vector<JoinRequest> requests;
    for (uint32_t i = 0; i < ndev; ++i) {
        if (devices[i] < 0 || static_cast<uint32_t>(devices[i]) >= available) {
            return refuse(HCCL_E_PARA, api, "devices[%u] = %d is not a device (0..%u)", i, devices[i], available - 1);
        }
        if (!seen.insert(devices[i]).second) return refuse(HCCL_E_PARA, api, "device %d is listed twice", devices[i]);
        JoinRequest request;
        request.ranks = ndev;
        request.rank = i;
        request.execTimeout = exec_timeout(HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET);
        requests.push_back(request);
    }
    std::vector<HcclComm> created;
    Communicators::instance().create_all(requests, created);
    std::copy(created.begin(), created.end(), comms);
    return HCCL_SUCCESS;
}

HcclResult HcclCommDestroy(HcclComm comm) {
    const char* api = "HcclCommDestroy";
    if (HcclResult status = require(comm, api, "comm"); status != HCCL_SUCCESS) return status;
    if (!Communicators::instance().destroy(comm)) {
        return refuse(HCCL_E_PARA, api, "comm %p is not a live communicator", comm);
    }
    return HCCL_SUCCESS;
}

HcclResult HcclGetRankSize(HcclComm comm, uint32_t* rankSize) {
    return query(comm, "HcclGetRankSize", rankSize, "rankSize", [](const Rank& rank, uint32_t* out) {
        *out = rank.group().ranks();
    });
}

HcclResult HcclGetRankId(HcclComm comm, uint32_t* rankId) {
    return query(comm, "HcclGetRankId", rankId, "rank", [](const Rank& rank, uint32_t* out) { *out = rank.rank(); });
}

HcclResult HcclGetCommName(HcclComm comm, char* commName) {
    return query(comm, "HcclGetCommName", commName, "commName", [](const Rank& rank, char* out) {
        const std::string& name = rank.group().name();
        const size_t length = std::min<size_t>(name.size(), COMM_NAME_MAX_LENGTH - 1);
        std::memcpy(out, name.data(), length);
        out[length] = '\0';
    });
}

HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult* asyncError) {
    return query(comm, "HcclGetCommAsyncError", asyncError, "asyncError", [](const Rank& rank, HcclResult* out) {
        *out = rank.async_error();
    });
}

const char* HcclGetErrorString(HcclResult code) {
    switch (aclcpu::code_of(code)) {
        case HCCL_SUCCESS: return "success";
        case HCCL_E_PARA: return "parameter error";
        case HCCL_E_PTR: return "empty pointer";
        case HCCL_E_MEMORY: return "memory error";
        case HCCL_E_INTERNAL: return "internal error";
        case HCCL_E_NOT_SUPPORT: return "not supported feature";
        case HCCL_E_NOT_FOUND: return "specific resource not found";
        case HCCL_E_UNAVAIL: return "resource unavailable";
        case HCCL_E_SYSCALL: return "system call error";
        case HCCL_E_TIMEOUT: return "timeout";
        case HCCL_E_OPEN_FILE_FAILURE: return "open file failed";
        case HCCL_E_TCP_CONNECT: return "tcp connect failed";
        case HCCL_E_ROCE_CONNECT: return "roce connect failed";
        case HCCL_E_TCP_TRANSFER: return "tcp transfer failed";
        case HCCL_E_ROCE_TRANSFER: return "roce transfer failed";
        case HCCL_E_RUNTIME: return "runtime call failed";
        case HCCL_E_DRV: return "driver call failed";
        case HCCL_E_PROFILING: return "profiling call failed";
        case HCCL_E_CCE: return "cce call failed";
        case HCCL_E_NETWORK: return "network call failed";
        case HCCL_E_AGAIN: return "try again";
        case HCCL_E_REMOTE: return "remote error";
        case HCCL_E_SUSPENDING: return "communicator suspending";
        case HCCL_E_OPRETRY_FAIL: return "operation retry failed";
        case HCCL_E_OOM: return "out of memory";
        case HCCL_E_IN_STATUS: return "the error is in the status";
        default: return "unknown error";
    }
}

HcclResult HcclSetConfig(HcclConfig config, union HcclConfigValue configValue) {
    const char* api = "HcclSetConfig";
    if (const int64_t code = aclcpu::code_of(config); code != HCCL_DETERMINISTIC) {
        return refuse(HCCL_E_PARA, api, "config %lld is not an HcclConfig", static_cast<long long>(code));
    }
    if (configValue.value < 0 || configValue.value > 2) {
        return refuse(HCCL_E_PARA, api, "HCCL_DETERMINISTIC takes 0, 1 or 2, not %d", configValue.value);
    }
    // Every reduction of acl-cpu combines the ranks in rank order: always
    // deterministic, so the setting is kept for HcclGetConfig only.
    gDeterministic.store(configValue.value, std::memory_order_relaxed);
    return HCCL_SUCCESS;
}

HcclResult HcclGetConfig(HcclConfig config, union HcclConfigValue* configValue) {
    const char* api = "HcclGetConfig";
    if (HcclResult status = require(configValue, api, "configValue"); status != HCCL_SUCCESS) return status;
    if (const int64_t code = aclcpu::code_of(config); code != HCCL_DETERMINISTIC) {
        return refuse(HCCL_E_PARA, api, "config %lld is not an HcclConfig", static_cast<long long>(code));
    }
    configValue->value = gDeterministic.load(std::memory_order_relaxed);
    return HCCL_SUCCESS;
}

uint32_t HcclGetCommConfigCapability(void) {
    // Fields up to the execution timeout are read (the name and the timeout
    // take effect; the others describe hardware a CPU does not have).
    return HCCL_COMM_CONFIG_EXEC_TIMEOUT + 1;
}

}  // extern "C"
