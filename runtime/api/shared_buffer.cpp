// acl-cpu runtime: shared buffers (aclrtMbuf, acl_rt.h).  CANN reserves
// these calls (api_ref 20_shared_buffer_management_reserved.md) and
// documents their behaviour with their acltdt twins
// (17-03_shared_buffer_management.md): a data area of the requested size
// (at most 4 GiB), a valid length starting at 0, a 96-byte private area,
// reference copies sharing one data area, and chains of at most 128 buffers.
//
// A chain is one unit once built: freeing its head frees every buffer
// appended to it, and a buffer appended to a chain is freed only that way.
#include <cstring>
#include <memory>

#include "acl/acl_rt.h"
#include "core/errors.hpp"
#include "core/mbuf.hpp"

using aclcpu::detail::Mbuf;
using aclcpu::detail::MbufData;
using aclcpu::detail::mbufs;
using aclcpu::detail::param_error;

namespace {

constexpr size_t kMaxDataBytes = size_t{4} << 30;

/// The live buffer behind handle, or nullptr (reported).
std::shared_ptr<Mbuf> find_buf(const void* handle, const char* api) {
    std::shared_ptr<Mbuf> buf = handle == nullptr ? nullptr : mbufs().find(handle);
    if (!buf)
        param_error(ACL_ERROR_INVALID_PARAM, "%s: %p is not a live aclrtAllocBuf or aclrtCopyBufRef buffer", api,
                    handle);
    return buf;
}

aclError check_user_data_range(const void* dataPtr, size_t size, size_t offset, const char* api) {
    if (dataPtr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: dataPtr is null", api);
    if (size == 0 || offset > Mbuf::kUserDataBytes || size > Mbuf::kUserDataBytes - offset) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "%s: [offset %zu, +%zu) is empty or leaves the %zu-byte private area", api, offset, size,
                           Mbuf::kUserDataBytes);
    }
    return ACL_SUCCESS;
}

/// Why buf cannot join head's chain, or nullptr.
const char* chain_refusal(const Mbuf& head, const Mbuf& buf) {
    if (&head == &buf) return "a buffer cannot join its own chain";
    if (head.chainHead != nullptr) return "headBuf belongs to another chain, it is not a head";
    if (buf.chainHead != nullptr || !buf.chain.empty()) return "buf is already part of a chain";
    if (head.chain.size() + 1 >= Mbuf::kMaxChainLength) return "the chain already holds 128 buffers";
    return nullptr;
}

}  // namespace

extern "C" {

aclError aclrtAllocBuf(aclrtMbuf* buf, size_t size) {
    constexpr const char* api = "aclrtAllocBuf";
    if (buf == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: buf is null", api);
    if (size == 0 || size > kMaxDataBytes) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: size %zu is 0 or above 4 GiB", api, size);
    }
    auto data = std::make_shared<MbufData>(size);
    if (data->bytes == nullptr) {
        return aclcpu::detail::runtime_error(ACL_ERROR_BAD_ALLOC, "%s: cannot allocate %zu bytes", api, size);
    }
    *buf = mbufs().add(std::make_shared<Mbuf>(std::move(data)));
    return ACL_SUCCESS;
}

aclError aclrtFreeBuf(aclrtMbuf buf) {
    constexpr const char* api = "aclrtFreeBuf";
    std::lock_guard<std::mutex> lock(Mbuf::state_mutex());
    const std::shared_ptr<Mbuf> target = find_buf(buf, api);
    if (!target) return ACL_ERROR_INVALID_PARAM;
    if (target->chainHead != nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: %p belongs to a chain; freeing its head frees it", api, buf);
    }
    for (const std::shared_ptr<Mbuf>& member : target->chain) mbufs().remove(member.get());
    mbufs().remove(buf);
    return ACL_SUCCESS;
}

aclError aclrtGetBufData(const aclrtMbuf buf, void** dataPtr, size_t* size) {
    constexpr const char* api = "aclrtGetBufData";
    if (dataPtr == nullptr || size == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: dataPtr or size is null", api);
    }
    const std::shared_ptr<Mbuf> target = find_buf(buf, api);
    if (!target) return ACL_ERROR_INVALID_PARAM;
    *dataPtr = target->data().bytes;
    *size = target->data().size;
    return ACL_SUCCESS;
}

aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t* len) {
    constexpr const char* api = "aclrtGetBufDataLen";
    if (len == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: len is null", api);
    const std::shared_ptr<Mbuf> target = find_buf(buf, api);
    if (!target) return ACL_ERROR_INVALID_PARAM;
    std::lock_guard<std::mutex> lock(Mbuf::state_mutex());
    *len = target->dataLen;
    return ACL_SUCCESS;
}

aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len) {
    constexpr const char* api = "aclrtSetBufDataLen";
    const std::shared_ptr<Mbuf> target = find_buf(buf, api);
    if (!target) return ACL_ERROR_INVALID_PARAM;
    if (len > target->data().size) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: len %zu exceeds the data area's %zu bytes", api, len,
                           target->data().size);
    }
    std::lock_guard<std::mutex> lock(Mbuf::state_mutex());
    target->dataLen = len;
    return ACL_SUCCESS;
}

aclError aclrtGetBufUserData(const aclrtMbuf buf, void* dataPtr, size_t size, size_t offset) {
    constexpr const char* api = "aclrtGetBufUserData";
    if (aclError status = check_user_data_range(dataPtr, size, offset, api); status != ACL_SUCCESS) return status;
    const std::shared_ptr<Mbuf> target = find_buf(buf, api);
    if (!target) return ACL_ERROR_INVALID_PARAM;
    std::lock_guard<std::mutex> lock(Mbuf::state_mutex());
    std::memcpy(dataPtr, target->userData.data() + offset, size);
    return ACL_SUCCESS;
}

aclError aclrtSetBufUserData(aclrtMbuf buf, const void* dataPtr, size_t size, size_t offset) {
    constexpr const char* api = "aclrtSetBufUserData";
    if (aclError status = check_user_data_range(dataPtr, size, offset, api); status != ACL_SUCCESS) return status;
    const std::shared_ptr<Mbuf> target = find_buf(buf, api);
    if (!target) return ACL_ERROR_INVALID_PARAM;
    std::lock_guard<std::mutex> lock(Mbuf::state_mutex());
    std::memcpy(target->userData.data() + offset, dataPtr, size);
    return ACL_SUCCESS;
}

aclError aclrtCopyBufRef(const aclrtMbuf buf, aclrtMbuf* newBuf) {
    constexpr const char* api = "aclrtCopyBufRef";
    if (newBuf == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: newBuf is null", api);
    const std::shared_ptr<Mbuf> source = find_buf(buf, api);
    if (!source) return ACL_ERROR_INVALID_PARAM;
    std::shared_ptr<Mbuf> copy;
    {
        std::lock_guard<std::mutex> lock(Mbuf::state_mutex());
        copy = source->copy_reference();
    }
    *newBuf = mbufs().add(std::move(copy));
    return ACL_SUCCESS;
}

aclError aclrtAppendBufChain(aclrtMbuf headBuf, aclrtMbuf buf) {
    constexpr const char* api = "aclrtAppendBufChain";
    std::lock_guard<std::mutex> lock(Mbuf::state_mutex());
    const std::shared_ptr<Mbuf> head = find_buf(headBuf, api);
    if (!head) return ACL_ERROR_INVALID_PARAM;
    const std::shared_ptr<Mbuf> member = find_buf(buf, api);
    if (!member) return ACL_ERROR_INVALID_PARAM;
    if (const char* refusal = chain_refusal(*head, *member); refusal != nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: %s", api, refusal);
    }
    head->chain.push_back(member);
    member->chainHead = head.get();
    return ACL_SUCCESS;
}

aclError aclrtGetBufChainNum(aclrtMbuf headBuf, uint32_t* num) {
    constexpr const char* api = "aclrtGetBufChainNum";
    if (num == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: num is null", api);
    std::lock_guard<std::mutex> lock(Mbuf::state_mutex());
    const std::shared_ptr<Mbuf> head = find_buf(headBuf, api);
    if (!head) return ACL_ERROR_INVALID_PARAM;
    *num = static_cast<uint32_t>(head->chain.size() + 1);
    return ACL_SUCCESS;
}

/// Index 0 is the head itself.
aclError aclrtGetBufFromChain(aclrtMbuf headBuf, uint32_t index, aclrtMbuf* buf) {
    constexpr const char* api = "aclrtGetBufFromChain";
    if (buf == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: buf is null", api);
    std::lock_guard<std::mutex> lock(Mbuf::state_mutex());
    const std::shared_ptr<Mbuf> head = find_buf(headBuf, api);
    if (!head) return ACL_ERROR_INVALID_PARAM;
    if (index > head->chain.size()) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: index %u is beyond the chain's %zu buffers", api, index,
                           head->chain.size() + 1);
    }
    *buf = index == 0 ? headBuf : head->chain[index - 1].get();
    return ACL_SUCCESS;
}

}  // extern "C"
