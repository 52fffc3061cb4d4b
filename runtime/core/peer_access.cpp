// acl-cpu runtime: PeerAccess.
#include "core/peer_access.hpp"

namespace aclcpu::detail {

PeerAccess& PeerAccess::instance() {
    static PeerAccess access;
    return access;
}

bool PeerAccess::enable(int32_t device, int32_t peer) {
    std::lock_guard<std::mutex> lock(mutex_);
    return enabled_.emplace(device, peer).second;
}

bool PeerAccess::disable(int32_t device, int32_t peer) {
    std::lock_guard<std::mutex> lock(mutex_);
    return enabled_.erase({device, peer}) == 1;
}

bool PeerAccess::enabled(int32_t device, int32_t peer) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return enabled_.count({device, peer}) == 1;
}

}  // namespace aclcpu::detail
