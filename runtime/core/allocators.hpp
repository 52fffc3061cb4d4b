// acl-cpu runtime: user allocators registered for a stream
// (acl_rt_allocator.h).  acl-cpu keeps what the user registers and hands it
// back; a component that allocates for work on that stream asks for it with
// aclrtAllocatorGetByStream, as CANN's own components do.
#pragma once

#include <map>
#include <memory>
#include <mutex>

#include "acl/acl_rt_allocator.h"
#include "core/handle_registry.hpp"
#include "core/internal.hpp"

namespace aclcpu::detail {

class Stream;

/// The allocator object and callbacks an aclrtAllocatorDesc carries.
struct AllocatorCallbacks {
    aclrtAllocator object = nullptr;
    aclrtAllocatorAllocFunc alloc = nullptr;
    aclrtAllocatorFreeFunc free = nullptr;
    aclrtAllocatorAllocAdviseFunc allocAdvise = nullptr;  ///< The only optional one.
    aclrtAllocatorGetAddrFromBlockFunc addressOfBlock = nullptr;

    /// The name of the first required member still unset, or nullptr when
    /// the allocator can be registered.
    const char* missing() const noexcept;
};

/// An aclrtAllocatorDesc: callbacks the user sets one by one.
class AllocatorDescriptor {
public:
    AllocatorCallbacks callbacks() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return callbacks_;
    }
    template <typename Change>
    void update(Change change) {
        std::lock_guard<std::mutex> lock(mutex_);
        change(callbacks_);
    }

private:
    mutable std::mutex mutex_;
    AllocatorCallbacks callbacks_;
};

/// The live descriptors, by handle (process-wide, as CANN's are: they
/// need no aclInit).
HandleRegistry<AllocatorDescriptor>& allocator_descriptors();

/// What aclrtAllocatorRegister recorded for a stream: the descriptor's handle
/// and a copy of its callbacks at that moment.
struct AllocatorRegistration {
    aclrtAllocatorDesc descriptor = nullptr;
    AllocatorCallbacks callbacks;
};

/// The registrations, one per stream, the last one winning.
class StreamAllocators {
public:
    static StreamAllocators& instance();

    void set(const std::shared_ptr<Stream>& stream, const AllocatorRegistration& registration);
    /// The stream's registration; false if it has none (a registration made
    /// for an earlier stream at the same address included).
    bool find(const std::shared_ptr<Stream>& stream, AllocatorRegistration& registration);
    /// Forgets the registration of the stream with this handle, if any.
    void remove(const void* streamHandle);

private:
    struct Entry {
        std::weak_ptr<Stream> stream;
        AllocatorRegistration registration;
    };
    std::mutex mutex_;
    std::map<const void*, Entry> entries_;
};

}  // namespace aclcpu::detail
