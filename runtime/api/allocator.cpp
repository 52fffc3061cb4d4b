// acl-cpu runtime: user allocators (acl_rt_allocator.h): descriptors built
// callback by callback, then registered for a stream
// (11-08_custom_memory_allocator.md, 25-03_Operation_APIs.md).
#include <memory>

#include "acl/acl_rt_allocator.h"
#include "core/allocators.hpp"
#include "core/errors.hpp"
#include "core/runtime_state.hpp"

using aclcpu::detail::allocator_descriptors;
using aclcpu::detail::AllocatorCallbacks;
using aclcpu::detail::AllocatorDescriptor;
using aclcpu::detail::AllocatorRegistration;
using aclcpu::detail::param_error;
using aclcpu::detail::StreamAllocators;

namespace {

/// The live descriptor behind handle, or nullptr (reported).
std::shared_ptr<AllocatorDescriptor> find_descriptor(aclrtAllocatorDesc handle, const char* api) {
    std::shared_ptr<AllocatorDescriptor> descriptor =
        handle == nullptr ? nullptr : allocator_descriptors().find(handle);
    if (!descriptor) {
        param_error(ACL_ERROR_INVALID_PARAM, "%s: allocatorDesc %p is not a live aclrtAllocatorCreateDesc result", api,
                    handle);
    }
    return descriptor;
}

/// Sets one member of a descriptor; `value` must not be null.
template <typename Value>
aclError set_member(aclrtAllocatorDesc handle, Value value, Value AllocatorCallbacks::*member, const char* api) {
    if (value == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: the value to set is null", api);
    const std::shared_ptr<AllocatorDescriptor> descriptor = find_descriptor(handle, api);
    if (!descriptor) return ACL_ERROR_INVALID_PARAM;
    descriptor->update([&](AllocatorCallbacks& callbacks) { callbacks.*member = value; });
    return ACL_SUCCESS;
}

/// A registration needs a stream the user names: NULL (the default stream) is refused.
aclError resolve_named_stream(aclrtStream handle, const char* api, std::shared_ptr<aclcpu::detail::Stream>& stream) {
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: stream must not be NULL", api);
    return aclcpu::detail::Runtime::instance().resolve_stream(handle, api, stream);
}

}  // namespace

extern "C" {

aclrtAllocatorDesc aclrtAllocatorCreateDesc() {
    return allocator_descriptors().add(std::make_shared<AllocatorDescriptor>());
}

aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc) {
    if (allocatorDesc != nullptr && allocator_descriptors().remove(allocatorDesc)) return ACL_SUCCESS;
    return param_error(ACL_ERROR_INVALID_PARAM,
                       "aclrtAllocatorDestroyDesc: allocatorDesc %p is not a live aclrtAllocatorCreateDesc result",
                       allocatorDesc);
}

aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator) {
    return set_member(allocatorDesc, allocator, &AllocatorCallbacks::object, "aclrtAllocatorSetObjToDesc");
}

aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocFunc func) {
    return set_member(allocatorDesc, func, &AllocatorCallbacks::alloc, "aclrtAllocatorSetAllocFuncToDesc");
}

aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorFreeFunc func) {
    return set_member(allocatorDesc, func, &AllocatorCallbacks::free, "aclrtAllocatorSetFreeFuncToDesc");
}

aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocAdviseFunc func) {
    return set_member(allocatorDesc, func, &AllocatorCallbacks::allocAdvise, "aclrtAllocatorSetAllocAdviseFuncToDesc");
}

aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                     aclrtAllocatorGetAddrFromBlockFunc func) {
    return set_member(allocatorDesc, func, &AllocatorCallbacks::addressOfBlock,
                      "aclrtAllocatorSetGetAddrFromBlockFuncToDesc");
}

/// Records a copy of the descriptor's callbacks: changing or destroying the
/// descriptor afterwards leaves the registration as it was.
aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc) {
    constexpr const char* api = "aclrtAllocatorRegister";
    std::shared_ptr<aclcpu::detail::Stream> target;
    if (aclError status = resolve_named_stream(stream, api, target); status != ACL_SUCCESS) return status;
    const std::shared_ptr<AllocatorDescriptor> descriptor = find_descriptor(allocatorDesc, api);
    if (!descriptor) return ACL_ERROR_INVALID_PARAM;
    const AllocatorCallbacks callbacks = descriptor->callbacks();
    if (const char* missing = callbacks.missing(); missing != nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: allocatorDesc %p lacks %s", api, allocatorDesc, missing);
    }
    StreamAllocators::instance().set(target, AllocatorRegistration{allocatorDesc, callbacks});
    return ACL_SUCCESS;
}

aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc* allocatorDesc, aclrtAllocator* allocator,
                                   aclrtAllocatorAllocFunc* allocFunc, aclrtAllocatorFreeFunc* freeFunc,
                                   aclrtAllocatorAllocAdviseFunc* allocAdviseFunc,
                                   aclrtAllocatorGetAddrFromBlockFunc* getAddrFromBlockFunc) {
    constexpr const char* api = "aclrtAllocatorGetByStream";
    if (allocatorDesc == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: allocatorDesc is null", api);
    std::shared_ptr<aclcpu::detail::Stream> target;
    if (aclError status = resolve_named_stream(stream, api, target); status != ACL_SUCCESS) return status;
    AllocatorRegistration registration;
    if (!StreamAllocators::instance().find(target, registration)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: stream %p has no registered allocator", api, stream);
    }
    // Every output but allocatorDesc is optional.
    *allocatorDesc = registration.descriptor;
    const AllocatorCallbacks& callbacks = registration.callbacks;
    if (allocator != nullptr) *allocator = callbacks.object;
    if (allocFunc != nullptr) *allocFunc = callbacks.alloc;
    if (freeFunc != nullptr) *freeFunc = callbacks.free;
    if (allocAdviseFunc != nullptr) *allocAdviseFunc = callbacks.allocAdvise;
    if (getAddrFromBlockFunc != nullptr) *getAddrFromBlockFunc = callbacks.addressOfBlock;
    return ACL_SUCCESS;
}

/// A stream without a registration, or no longer alive, is no error (11-08_custom_memory_allocator.md).
aclError aclrtAllocatorUnregister(aclrtStream stream) {
    if (stream == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtAllocatorUnregister: stream must not be NULL");
    }
    StreamAllocators::instance().remove(stream);
    return ACL_SUCCESS;
}

}  // extern "C"
