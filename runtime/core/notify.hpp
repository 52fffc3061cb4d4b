// acl-cpu runtime: Notify and CountNotify, the flags and counters streams
// signal each other through (aclrtNotify, aclrtCntNotify).
#pragma once

#include "core/internal.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "core/handle_registry.hpp"

namespace aclcpu::detail {

/// The signal of an aclrtNotify: one bit a record sets and a wait consumes.
/// Every handle imported from its export key shares it.
class NotifySignal {
public:
    NotifySignal(int32_t device, uint32_t id) : device_(device), id_(id) {}

    int32_t device() const noexcept { return device_; }
    uint32_t id() const noexcept { return id_; }
    void record();
    void reset();
    /// Consumes the record if there is one (the wait-and-reset step).
    bool try_consume();

    /// Export: the processes allowed to import (empty: none set yet).
    void allow_importers(std::vector<int32_t> pids);
    bool may_import(int32_t pid) const;

private:
    const int32_t device_;
    const uint32_t id_;
    mutable std::mutex mutex_;
    bool recorded_ = false;
    std::vector<int32_t> importers_;
};

/// What an aclrtNotify handle points at.
struct Notify {
    std::shared_ptr<NotifySignal> signal;
};

/// The counter of an aclrtCntNotify.
class CountNotify {
public:
    CountNotify(int32_t device, uint32_t id) : device_(device), id_(id) {}

    int32_t device() const noexcept { return device_; }
    uint32_t id() const noexcept { return id_; }
    /// Applies an aclrtCntNotifyRecordMode (checked by the caller).
    void record(int32_t mode, uint32_t value);
    void reset();
    /// True (clearing the count if asked) once the count satisfies an
    /// aclrtCntNotifyWaitMode (checked by the caller) against value.
    bool try_pass(int32_t mode, uint32_t value, bool clear);

private:
    const int32_t device_;
    const uint32_t id_;
    std::mutex mutex_;
    uint32_t count_ = 0;
};

/// The live notifies and count notifies of the process, and the export keys
/// of shared notifies.  An emulated "process" boundary is the process itself:
/// a key names the exporting pid, and only keys of this process import.
class NotifyTable {
public:
    /// Per device of an Atlas A2.
    static constexpr int kMaxNotifiesPerDevice = 8192;

    static NotifyTable& instance();

    aclError create_notify(int32_t device, aclrtNotify* handle);
    aclError create_count_notify(int32_t device, aclrtCntNotify* handle);
    aclError destroy_notify(aclrtNotify handle, const char* api);
    aclError destroy_count_notify(aclrtCntNotify handle, const char* api);
    aclError resolve_notify(aclrtNotify handle, const char* api, std::shared_ptr<NotifySignal>& signal) const;
    aclError resolve_count_notify(aclrtCntNotify handle, const char* api, std::shared_ptr<CountNotify>& notify) const;

    /// The key importers use: written into key (len bytes, at least kKeyLength + 1).
    static constexpr size_t kKeyLength = 64;
    std::string export_key(const std::shared_ptr<NotifySignal>& signal, bool validatePid);
    aclError import_key(const char* key, aclrtNotify* handle);
    bool is_exported(const NotifySignal& signal) const;

private:
    NotifyTable() = default;
    /// Takes a slot of device's notify budget and an id, or reports 207009.
    aclError reserve(int32_t device, uint32_t& id);
    void release(int32_t device);

    HandleRegistry<Notify> notifies_{"notify"};
    HandleRegistry<CountNotify> countNotifies_{"count notify"};
    mutable std::mutex mutex_;
    std::map<int32_t, int> perDevice_;
    uint32_t nextId_ = 0;
    struct Export {
        std::weak_ptr<NotifySignal> signal;
        bool validatePid;
    };
    std::map<std::string, Export> exports_;
};

}  // namespace aclcpu::detail
