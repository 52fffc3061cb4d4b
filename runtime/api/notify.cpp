// acl-cpu runtime API: notifies and count notifies (acl_rt.h; CANN's
// 08_notify_management.md and 09_cntNotify_management.md).
//
// A record is a task of the recording stream; a wait is a place of the
// waiting stream that the condition watcher delivers once the notify is
// recorded (core/condition_wait.hpp), so no worker blocks while waiting.
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "aclcpu/dtype.hpp"
#include "aclcpu/instrumentation.hpp"
#include "core/condition_wait.hpp"
#include "core/errors.hpp"
#include "core/notify.hpp"
#include "core/runtime_state.hpp"

using aclcpu::code_of;
using aclcpu::detail::CountNotify;
using aclcpu::detail::Device;
using aclcpu::detail::enqueue_signal;
using aclcpu::detail::enqueue_wait;
using aclcpu::detail::NotifySignal;
using aclcpu::detail::NotifyTable;
using aclcpu::detail::param_error;
using aclcpu::detail::Runtime;
using aclcpu::detail::Stream;
using aclcpu::detail::WaitCondition;
using aclcpu::detail::wait_timeout;
using aclcpu::instrument::ApiScope;

namespace {

aclError resolve_notify_and_stream(const char* api, aclrtNotify notify, aclrtStream stream,
                                   std::shared_ptr<NotifySignal>& signal, std::shared_ptr<Stream>& target) {
    if (aclError status = NotifyTable::instance().resolve_notify(notify, api, signal); status != ACL_SUCCESS) {
        return status;
    }
    return Runtime::instance().resolve_work_stream(stream, api, target);
}

aclError resolve_count_notify_and_stream(const char* api, aclrtCntNotify cntNotify, aclrtStream stream,
                                         std::shared_ptr<CountNotify>& notify, std::shared_ptr<Stream>& target) {
    if (aclError status = NotifyTable::instance().resolve_count_notify(cntNotify, api, notify);
        status != ACL_SUCCESS) {
        return status;
    }
    return Runtime::instance().resolve_work_stream(stream, api, target);
}

bool known_record_mode(int64_t mode) {
    return mode == ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE || mode == ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE ||
           mode == ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE || mode == ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE;
}

bool known_wait_mode(int64_t mode) {
    return mode >= ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE && mode <= ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE;
}

aclError check_pids(const int32_t* pids, size_t num, const char* api) {
    if (pids == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: pid is null", api);
    if (num == 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: num is 0", api);
    return ACL_SUCCESS;
}

/// Whitelists pids for importing an exported notify.
aclError allow_importers(aclrtNotify notify, std::vector<int32_t> pids, const char* api) {
    std::shared_ptr<NotifySignal> signal;
    if (aclError status = NotifyTable::instance().resolve_notify(notify, api, signal); status != ACL_SUCCESS) {
        return status;
    }
    if (!NotifyTable::instance().is_exported(*signal)) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: notify %p has no export key (aclrtNotifyGetExportKey)",
                           api, notify);
    }
    signal->allow_importers(std::move(pids));
    return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtCreateNotify(aclrtNotify* notify, uint64_t flag) {
    if (notify == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCreateNotify: notify is null");
    if ((flag & ~uint64_t{ACL_NOTIFY_DEVICE_USE_ONLY}) != 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCreateNotify: unknown flag 0x%llx",
                           static_cast<unsigned long long>(flag));
    }
    Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device("aclrtCreateNotify", device); status != ACL_SUCCESS) {
        return status;
    }
    return NotifyTable::instance().create_notify(device->id(), notify);
}

aclError aclrtDestroyNotify(aclrtNotify notify) {
    return NotifyTable::instance().destroy_notify(notify, "aclrtDestroyNotify");
}

aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream) {
    const ApiScope scope("aclrtRecordNotify");
    std::shared_ptr<NotifySignal> signal;
    std::shared_ptr<Stream> recorder;
    if (aclError status = resolve_notify_and_stream("aclrtRecordNotify", notify, stream, signal, recorder);
        status != ACL_SUCCESS) {
        return status;
    }
    return enqueue_signal(*recorder, "aclrtRecordNotify", "notify_record", signal.get(),
                          [signal] { signal->record(); });
}

aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout) {
    const ApiScope scope("aclrtWaitAndResetNotify");
    std::shared_ptr<NotifySignal> signal;
    std::shared_ptr<Stream> waiter;
    if (aclError status = resolve_notify_and_stream("aclrtWaitAndResetNotify", notify, stream, signal, waiter);
        status != ACL_SUCCESS) {
        return status;
    }
    WaitCondition condition;
    condition.try_pass = [signal] { return signal->try_consume(); };
    condition.timeout = wait_timeout(timeout);
    condition.task = "aclrtWaitAndResetNotify";
    condition.signalKey = signal.get();
    return enqueue_wait(*waiter, std::move(condition), "notify_wait");
}

aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t* notifyId) {
    if (notifyId == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtGetNotifyId: notifyId is null");
    std::shared_ptr<NotifySignal> signal;
    if (aclError status = NotifyTable::instance().resolve_notify(notify, "aclrtGetNotifyId", signal);
        status != ACL_SUCCESS) {
        return status;
    }
    *notifyId = signal->id();
    return ACL_SUCCESS;
}

aclError aclrtNotifyBatchReset(aclrtNotify* notifies, size_t num) {
    if (notifies == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtNotifyBatchReset: notifies is null");
    if (num == 0) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtNotifyBatchReset: num is 0");
    // All or nothing: every handle is checked before any notify is reset.
    std::vector<std::shared_ptr<NotifySignal>> signals(num);
    for (size_t i = 0; i < num; ++i) {
        if (aclError status = NotifyTable::instance().resolve_notify(notifies[i], "aclrtNotifyBatchReset", signals[i]);
            status != ACL_SUCCESS) {
            return status;
        }
    }
    for (const auto& signal : signals) signal->reset();
    return ACL_SUCCESS;
}

aclError aclrtNotifyGetExportKey(aclrtNotify notify, char* key, size_t len, uint64_t flags) {
    if (key == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtNotifyGetExportKey: key is null");
    if (len < NotifyTable::kKeyLength + 1) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtNotifyGetExportKey: len %zu is below the minimum %zu", len,
                           NotifyTable::kKeyLength + 1);
    }
    if (flags != ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT && flags != ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtNotifyGetExportKey: unknown flags 0x%llx",
                           static_cast<unsigned long long>(flags));
    }
    std::shared_ptr<NotifySignal> signal;
    if (aclError status = NotifyTable::instance().resolve_notify(notify, "aclrtNotifyGetExportKey", signal);
        status != ACL_SUCCESS) {
        return status;
    }
    const std::string exported =
        NotifyTable::instance().export_key(signal, flags == ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT);
    std::memcpy(key, exported.c_str(), exported.size() + 1);
    return ACL_SUCCESS;
}

aclError aclrtNotifyImportByKey(aclrtNotify* notify, const char* key, uint64_t flags) {
    if (notify == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtNotifyImportByKey: notify is null");
    if (key == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtNotifyImportByKey: key is null");
    if (flags != ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT && flags != ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtNotifyImportByKey: unknown flags 0x%llx",
                           static_cast<unsigned long long>(flags));
    }
    return NotifyTable::instance().import_key(key, notify);
}

aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t* pid, size_t num) {
    if (aclError status = check_pids(pid, num, "aclrtNotifySetImportPid"); status != ACL_SUCCESS) return status;
    return allow_importers(notify, std::vector<int32_t>(pid, pid + num), "aclrtNotifySetImportPid");
}

aclError aclrtNotifySetImportPidInterServer(aclrtNotify notify, aclrtServerPid* serverPids, size_t num) {
    constexpr const char* kApi = "aclrtNotifySetImportPidInterServer";
    if (serverPids == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: serverPids is null", kApi);
    if (num == 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: num is 0", kApi);
    // One emulated server: every entry's pids are importers, whatever its sdid.
    std::vector<int32_t> pids;
    for (size_t i = 0; i < num; ++i) {
        if (aclError status = check_pids(serverPids[i].pid, serverPids[i].num, kApi); status != ACL_SUCCESS) {
            return status;
        }
        pids.insert(pids.end(), serverPids[i].pid, serverPids[i].pid + serverPids[i].num);
    }
    return allow_importers(notify, std::move(pids), kApi);
}

aclError aclrtCntNotifyCreate(aclrtCntNotify* cntNotify, uint64_t flag) {
    if (cntNotify == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCntNotifyCreate: cntNotify is null");
    if (flag != 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCntNotifyCreate: flag 0x%llx is reserved and must be 0",
                           static_cast<unsigned long long>(flag));
    }
    Device* device = nullptr;
    if (aclError status = aclcpu::detail::current_device("aclrtCntNotifyCreate", device); status != ACL_SUCCESS) {
        return status;
    }
    return NotifyTable::instance().create_count_notify(device->id(), cntNotify);
}

aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify) {
    return NotifyTable::instance().destroy_count_notify(cntNotify, "aclrtCntNotifyDestroy");
}

aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream, aclrtCntNotifyRecordInfo* info) {
    const ApiScope scope("aclrtCntNotifyRecord");
    if (info == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCntNotifyRecord: info is null");
    const int64_t mode = code_of(info->mode);
    if (!known_record_mode(mode)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCntNotifyRecord: unknown mode %lld",
                           static_cast<long long>(mode));
    }
    std::shared_ptr<CountNotify> notify;
    std::shared_ptr<Stream> recorder;
    if (aclError status = resolve_count_notify_and_stream("aclrtCntNotifyRecord", cntNotify, stream, notify, recorder);
        status != ACL_SUCCESS) {
        return status;
    }
    const uint32_t value = info->value;
    return enqueue_signal(*recorder, "aclrtCntNotifyRecord", "notify_record", notify.get(),
                          [notify, mode, value] { notify->record(static_cast<int32_t>(mode), value); });
}

aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify, aclrtStream stream, aclrtCntNotifyWaitInfo* info) {
    const ApiScope scope("aclrtCntNotifyWaitWithTimeout");
    if (info == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCntNotifyWaitWithTimeout: info is null");
    const int64_t mode = code_of(info->mode);
    if (!known_wait_mode(mode)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCntNotifyWaitWithTimeout: unknown mode %lld",
                           static_cast<long long>(mode));
    }
    if (info->isClear > 1) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCntNotifyWaitWithTimeout: isClear %u is neither 0 nor 1",
                           info->isClear);
    }
    std::shared_ptr<CountNotify> notify;
    std::shared_ptr<Stream> waiter;
    if (aclError status =
            resolve_count_notify_and_stream("aclrtCntNotifyWaitWithTimeout", cntNotify, stream, notify, waiter);
        status != ACL_SUCCESS) {
        return status;
    }
    const uint32_t value = info->value;
    const bool clear = info->isClear == 1;
    WaitCondition condition;
    condition.try_pass = [notify, mode, value, clear] {
        return notify->try_pass(static_cast<int32_t>(mode), value, clear);
    };
    condition.timeout = wait_timeout(info->timeout);
    condition.task = "aclrtCntNotifyWaitWithTimeout";
    condition.signalKey = notify.get();
    return enqueue_wait(*waiter, std::move(condition), "notify_wait");
}

aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream) {
    const ApiScope scope("aclrtCntNotifyReset");
    std::shared_ptr<CountNotify> notify;
    std::shared_ptr<Stream> target;
    if (aclError status = resolve_count_notify_and_stream("aclrtCntNotifyReset", cntNotify, stream, notify, target);
        status != ACL_SUCCESS) {
        return status;
    }
    return enqueue_signal(*target, "aclrtCntNotifyReset", "notify_reset", nullptr, [notify] { notify->reset(); });
}

aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t* notifyId) {
    if (notifyId == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtCntNotifyGetId: notifyId is null");
    std::shared_ptr<CountNotify> notify;
    if (aclError status = NotifyTable::instance().resolve_count_notify(cntNotify, "aclrtCntNotifyGetId", notify);
        status != ACL_SUCCESS) {
        return status;
    }
    *notifyId = notify->id();
    return ACL_SUCCESS;
}

}  // extern "C"
