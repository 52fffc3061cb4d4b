// acl-cpu runtime API: stream memory operations, aclrtValueWrite and
// aclrtValueWait (acl_rt.h; CANN's 11-09_stream_memory_operation.md).
#include <cstdint>
#include <memory>

#include "acl/acl_rt.h"
#include "aclcpu/instrumentation.hpp"
#include "core/condition_wait.hpp"
#include "core/errors.hpp"
#include "core/runtime_state.hpp"
#include "core/tsan_annotations.hpp"

using aclcpu::detail::Device;
using aclcpu::detail::DevicePool;
using aclcpu::detail::param_error;
using aclcpu::detail::Runtime;
using aclcpu::detail::Stream;
using aclcpu::detail::WaitCondition;
using aclcpu::instrument::ApiScope;

namespace {

/// CANN's checks of a value write or wait, in its order: a null devAddr is
/// refused by the acl layer (aclrtValueWriteImpl, aclrtValueWaitImpl:
/// ACL_ERROR_INVALID_PARAM); the stream, the flag (`flagValid`) and the
/// memory's location are checked by the rts layer (ApiErrorDecorator::
/// MemWriteValue, MemWaitValue: RT_ERROR_INVALID_VALUE, so 107000).  The
/// 8-byte alignment the emulated word needs comes last.
aclError check_value_call(const void* devAddr, bool flagValid, uint32_t flag, aclrtStream handle, const char* api,
                          std::shared_ptr<Stream>& stream) {
    if (devAddr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: devAddr is null", api);
    if (aclError status = Runtime::instance().resolve_work_stream(handle, api, stream); status != ACL_SUCCESS) {
        return status;
    }
    if (!flagValid) return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: flag %u is not supported", api, flag);
    Device* owner = nullptr;
    if (Runtime::instance().locate_device_range(devAddr, sizeof(uint64_t), owner).placement !=
        DevicePool::Placement::kLive) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: devAddr %p is not device memory", api, devAddr);
    }
    if (reinterpret_cast<uintptr_t>(devAddr) % sizeof(uint64_t) != 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: devAddr %p is not 8-byte aligned", api, devAddr);
    }
    return ACL_SUCCESS;
}

/// Reads a device word as the hardware polls it.  The host may be writing it
/// meanwhile with a plain aclrtMemcpy, which no runtime call announces:
/// ThreadSanitizer must not take that intended polling for a race.
__attribute__((no_sanitize("thread"))) uint64_t load_device_word(const uint64_t* word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

/// The aclrtValueWait comparisons, by their flag.
bool value_satisfies(uint64_t current, uint64_t value, uint32_t flag) {
    switch (flag) {
        case ACL_STREAM_WAIT_VALUE_GEQ: return static_cast<int64_t>(current - value) >= 0;
        case ACL_STREAM_WAIT_VALUE_EQ: return current == value;
        case ACL_STREAM_WAIT_VALUE_AND: return (current & value) != 0;
        default: return ~(current | value) != 0;  // ACL_STREAM_WAIT_VALUE_NOR
    }
}

}  // namespace

extern "C" {

aclError aclrtValueWrite(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
    const ApiScope scope("aclrtValueWrite");
    std::shared_ptr<Stream> writer;
    if (aclError status = check_value_call(devAddr, flag == 0, flag, stream, "aclrtValueWrite", writer);
        status != ACL_SUCCESS) {
        return status;
    }
    auto* word = static_cast<uint64_t*>(devAddr);
    return aclcpu::detail::enqueue_signal(*writer, "aclrtValueWrite", "value_write", word, [word, value] {
        aclcpu::detail::annotate_release(word);
        __atomic_store_n(word, value, __ATOMIC_RELEASE);
    });
}

aclError aclrtValueWait(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
    const ApiScope scope("aclrtValueWait");
    std::shared_ptr<Stream> waiter;
    if (aclError status =
            check_value_call(devAddr, flag <= ACL_STREAM_WAIT_VALUE_NOR, flag, stream, "aclrtValueWait", waiter);
        status != ACL_SUCCESS) {
        return status;
    }
    const auto* word = static_cast<const uint64_t*>(devAddr);
    WaitCondition condition;
    condition.try_pass = [word, value, flag] {
        if (!value_satisfies(load_device_word(word), value, flag)) return false;
        aclcpu::detail::annotate_acquire(word);
        return true;
    };
    condition.timeout = aclcpu::detail::op_wait_timeout();
    condition.polls = true;
    condition.task = "aclrtValueWait";
    condition.signalKey = word;
    return aclcpu::detail::enqueue_wait(*waiter, std::move(condition), "value_wait");
}

}  // extern "C"
