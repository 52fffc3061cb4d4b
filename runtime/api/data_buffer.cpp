// acl-cpu runtime API: aclDataBuffer, a (pointer, size) pair describing
// memory the caller owns (acl_base_rt.h).
#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "core/errors.hpp"
#include "core/handle_registry.hpp"

// aclGetDataBufferSize is deprecated by CANN, yet still part of its API.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

using aclcpu::detail::param_error;

struct aclDataBuffer {
    void* data;
    size_t size;
};

namespace {

/// Live data buffers: they may be made before aclInit and outlive
/// aclFinalize, so they belong to no aclInit span.
aclcpu::detail::HandleRegistry<aclDataBuffer>& buffers() {
    static auto* registry = new aclcpu::detail::HandleRegistry<aclDataBuffer>();  // Usable from atexit handlers.
    return *registry;
}

/// The live buffer behind handle, or nullptr (reported) when there is none.
std::shared_ptr<aclDataBuffer> find_buffer(const aclDataBuffer* handle, const char* api) {
    if (handle == nullptr) {
        param_error(ACL_ERROR_INVALID_PARAM, "%s: dataBuffer is null", api);
        return nullptr;
    }
    std::shared_ptr<aclDataBuffer> buffer = buffers().find(handle);
    if (!buffer) {
        param_error(ACL_ERROR_INVALID_PARAM,
                    "%s: %p is not a live data buffer (never created, or already destroyed)", api,
                    static_cast<const void*>(handle));
    }
    return buffer;
}

}  // namespace

extern "C" {

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
    // A null data of size 0 is how CANN programs describe an empty output.
    return static_cast<aclDataBuffer*>(buffers().add(std::make_shared<aclDataBuffer>(aclDataBuffer{data, size})));
}

aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
    if (dataBuffer == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclDestroyDataBuffer: dataBuffer is null");
    if (!buffers().remove(dataBuffer)) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "aclDestroyDataBuffer: %p is not a live data buffer (never created, or already destroyed)",
                           static_cast<const void*>(dataBuffer));
    }
    return ACL_SUCCESS;
}

aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size) {
    std::shared_ptr<aclDataBuffer> buffer = find_buffer(dataBuffer, "aclUpdateDataBuffer");
    if (!buffer) return ACL_ERROR_INVALID_PARAM;
    buffer->data = data;
    buffer->size = size;
    return ACL_SUCCESS;
}

void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) {
    std::shared_ptr<aclDataBuffer> buffer = find_buffer(dataBuffer, "aclGetDataBufferAddr");
    return buffer ? buffer->data : nullptr;
}

uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer) {
    std::shared_ptr<aclDataBuffer> buffer = find_buffer(dataBuffer, "aclGetDataBufferSize");
    return buffer ? static_cast<uint32_t>(buffer->size) : 0;  // Truncated as CANN does: use the V2 call.
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
    std::shared_ptr<aclDataBuffer> buffer = find_buffer(dataBuffer, "aclGetDataBufferSizeV2");
    return buffer ? buffer->size : 0;
}

}  // extern "C"
