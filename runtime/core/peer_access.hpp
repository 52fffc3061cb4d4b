// acl-cpu runtime: peer access between emulated devices (aclrtDeviceEnablePeerAccess).
#pragma once

#include "core/internal.hpp"

#include <cstdint>
#include <mutex>
#include <set>
#include <utility>

namespace aclcpu::detail {

/// Which device may reach which peer's memory.  All emulated devices live in
/// one host address space, so any two could exchange data; as on CANN, a
/// copy between two devices needs access enabled between them (in either
/// direction: aclrtDeviceEnablePeerAccess, or an IPC import with
/// ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS).  The table keeps CANN's
/// one-directional enable/disable state, also for
/// aclrtDevicePeerAccessStatus.
class PeerAccess {
public:
    static PeerAccess& instance();

    /// False when access from device to peer was already in that state.
    bool enable(int32_t device, int32_t peer);
    bool disable(int32_t device, int32_t peer);
    bool enabled(int32_t device, int32_t peer) const;

private:
    PeerAccess() = default;

    mutable std::mutex mutex_;
    std::set<std::pair<int32_t, int32_t>> enabled_;
};

}  // namespace aclcpu::detail
