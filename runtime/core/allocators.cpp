// acl-cpu runtime: user allocators registered for a stream.
#include "core/allocators.hpp"

namespace aclcpu::detail {

const char* AllocatorCallbacks::missing() const noexcept {
    if (object == nullptr) return "the allocator object (aclrtAllocatorSetObjToDesc)";
    if (alloc == nullptr) return "the alloc function (aclrtAllocatorSetAllocFuncToDesc)";
    if (free == nullptr) return "the free function (aclrtAllocatorSetFreeFuncToDesc)";
    if (addressOfBlock == nullptr) {
        return "the get-address-from-block function (aclrtAllocatorSetGetAddrFromBlockFuncToDesc)";
    }
    return nullptr;
}

HandleRegistry<AllocatorDescriptor>& allocator_descriptors() {
    static HandleRegistry<AllocatorDescriptor> descriptors;
    return descriptors;
}

StreamAllocators& StreamAllocators::instance() {
    static StreamAllocators allocators;
    return allocators;
}

void StreamAllocators::set(const std::shared_ptr<Stream>& stream, const AllocatorRegistration& registration) {
    std::lock_guard<std::mutex> lock(mutex_);
    entries_[stream.get()] = Entry{stream, registration};
}

bool StreamAllocators::find(const std::shared_ptr<Stream>& stream, AllocatorRegistration& registration) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(stream.get());
    if (it == entries_.end()) return false;
    if (it->second.stream.lock() != stream) {  // made for a destroyed stream at the same address
        entries_.erase(it);
        return false;
    }
    registration = it->second.registration;
    return true;
}

void StreamAllocators::remove(const void* streamHandle) {
    std::lock_guard<std::mutex> lock(mutex_);
    entries_.erase(streamHandle);
}

}  // namespace aclcpu::detail
