// acl-cpu runtime: Notify, CountNotify and NotifyTable.
#include "core/notify.hpp"

#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "core/errors.hpp"

namespace aclcpu::detail {

void NotifySignal::record() {
    std::lock_guard<std::mutex> lock(mutex_);
    recorded_ = true;
}

void NotifySignal::reset() {
    std::lock_guard<std::mutex> lock(mutex_);
    recorded_ = false;
}

bool NotifySignal::try_consume() {
    std::lock_guard<std::mutex> lock(mutex_);
    const bool was = recorded_;
    recorded_ = false;
    return was;
}

void NotifySignal::allow_importers(std::vector<int32_t> pids) {
    std::lock_guard<std::mutex> lock(mutex_);
    importers_ = std::move(pids);
}

bool NotifySignal::may_import(int32_t pid) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::find(importers_.begin(), importers_.end(), pid) != importers_.end();
}

void CountNotify::record(int32_t mode, uint32_t value) {
    std::lock_guard<std::mutex> lock(mutex_);
    switch (mode) {
        case ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE: count_ = value; break;
        case ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE: count_ += value; break;
        case ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE: count_ |= value; break;
        default: count_ &= value; break;  // ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE
    }
}

void CountNotify::reset() {
    std::lock_guard<std::mutex> lock(mutex_);
    count_ = 0;
}

bool CountNotify::try_pass(int32_t mode, uint32_t value, bool clear) {
    std::lock_guard<std::mutex> lock(mutex_);
    bool passed = false;
    switch (mode) {
        case ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE: passed = count_ < value; break;
        case ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE: passed = count_ == value; break;
        case ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE: passed = count_ > value; break;
        case ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE: passed = count_ >= value; break;
        default: passed = (count_ & value) == value; break;  // ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE
    }
    if (passed && clear) count_ = 0;
    return passed;
}

NotifyTable& NotifyTable::instance() {
    // Never destroyed: a signal still held at exit (by a wait the watcher
    // never settled) releases its slot here whatever the order of static
    // destruction.
    static NotifyTable& table = *new NotifyTable;
    return table;
}

aclError NotifyTable::reserve(int32_t device, uint32_t& id) {
    std::lock_guard<std::mutex> lock(mutex_);
    int& live = perDevice_[device];
    if (live >= kMaxNotifiesPerDevice) {
        return runtime_error(ACL_ERROR_RT_NO_NOTIFY_RESOURCE, "device %d already has %d notifies", device,
                             kMaxNotifiesPerDevice);
    }
    ++live;
    id = nextId_++;
    return ACL_SUCCESS;
}

void NotifyTable::release(int32_t device) {
    std::lock_guard<std::mutex> lock(mutex_);
    --perDevice_[device];
}

aclError NotifyTable::create_notify(int32_t device, aclrtNotify* handle) {
    uint32_t id = 0;
    if (aclError status = reserve(device, id); status != ACL_SUCCESS) return status;
    // The budget slot is held until the signal's last owner lets go: imported
    // handles and pending waits included.
    std::shared_ptr<NotifySignal> signal(new NotifySignal(device, id), [this](NotifySignal* released) {
        release(released->device());
        delete released;
    });
    *handle = notifies_.add(std::make_shared<Notify>(Notify{std::move(signal)}));
    return ACL_SUCCESS;
}

aclError NotifyTable::create_count_notify(int32_t device, aclrtCntNotify* handle) {
    uint32_t id = 0;
    if (aclError status = reserve(device, id); status != ACL_SUCCESS) return status;
    *handle = countNotifies_.add(std::make_shared<CountNotify>(device, id));
    return ACL_SUCCESS;
}

aclError NotifyTable::destroy_notify(aclrtNotify handle, const char* api) {
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: notify is null", api);
    return notifies_.retire(handle, api);
}

aclError NotifyTable::destroy_count_notify(aclrtCntNotify handle, const char* api) {
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: cntNotify is null", api);
    std::shared_ptr<CountNotify> removed;
    if (aclError status = countNotifies_.retire(handle, api, &removed); status != ACL_SUCCESS) return status;
    release(removed->device());
    return ACL_SUCCESS;
}

aclError NotifyTable::resolve_notify(aclrtNotify handle, const char* api,
                                     std::shared_ptr<NotifySignal>& signal) const {
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: notify is null", api);
    std::shared_ptr<Notify> notify;
    if (aclError status = notifies_.resolve(handle, api, notify); status != ACL_SUCCESS) return status;
    signal = notify->signal;
    return ACL_SUCCESS;
}

aclError NotifyTable::resolve_count_notify(aclrtCntNotify handle, const char* api,
                                           std::shared_ptr<CountNotify>& notify) const {
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: cntNotify is null", api);
    return countNotifies_.resolve(handle, api, notify);
}

std::string NotifyTable::export_key(const std::shared_ptr<NotifySignal>& signal, bool validatePid) {
    char key[kKeyLength + 1];
    std::snprintf(key, sizeof key, "aclcpu-notify-%d-%" PRIu32, static_cast<int>(getpid()), signal->id());
    std::lock_guard<std::mutex> lock(mutex_);
    exports_[key] = Export{signal, validatePid};
    return key;
}

aclError NotifyTable::import_key(const char* key, aclrtNotify* handle) {
    int pid = 0;
    unsigned id = 0;
    if (std::sscanf(key, "aclcpu-notify-%d-%u", &pid, &id) != 2 || pid != static_cast<int>(getpid())) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "aclrtNotifyImportByKey: \"%.64s\" is not the key of a notify exported by this process "
                           "(acl-cpu shares notifies between the emulated devices of one process only)",
                           key);
    }
    std::shared_ptr<NotifySignal> signal;
    bool validatePid = true;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = exports_.find(key);
        if (it != exports_.end()) {
            signal = it->second.signal.lock();
            validatePid = it->second.validatePid;
        }
    }
    if (!signal) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "aclrtNotifyImportByKey: the notify of key \"%s\" has been destroyed", key);
    }
    if (validatePid && !signal->may_import(static_cast<int32_t>(getpid()))) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID,
                           "aclrtNotifyImportByKey: pid %d is not among the importers set by aclrtNotifySetImportPid",
                           static_cast<int>(getpid()));
    }
    *handle = notifies_.add(std::make_shared<Notify>(Notify{std::move(signal)}));
    return ACL_SUCCESS;
}

bool NotifyTable::is_exported(const NotifySignal& signal) const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& entry : exports_) {
        if (entry.second.signal.lock().get() == &signal) return true;
    }
    return false;
}

}  // namespace aclcpu::detail
