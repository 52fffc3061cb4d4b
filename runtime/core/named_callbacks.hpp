// acl-cpu runtime: NamedCallbacks, the user callbacks registered under a name
// (aclrtRegStreamStateCallback, aclrtSetDeviceTaskAbortCallback,
// aclrtRegDeviceStateCallback).
#pragma once

#include "core/internal.hpp"

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl_base.h"
#include "core/errors.hpp"

namespace aclcpu::detail {

/// Callbacks registered under unique names, each with the user's argument.
/// A callback runs on the thread whose call triggers it, outside the lock, so
/// it may register or remove callbacks itself.
template <typename Callback>
class NamedCallbacks {
public:
    enum class Outcome { kDone, kNameTaken, kUnknownName };

    /// Registers callback under name, or with a null callback removes the
    /// name's registration.
    Outcome set(const std::string& name, Callback callback, void* args) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (callback == nullptr) return entries_.erase(name) == 1 ? Outcome::kDone : Outcome::kUnknownName;
        if (!entries_.emplace(name, Entry{callback, args}).second) return Outcome::kNameTaken;
        return Outcome::kDone;
    }

    /// Calls every registered callback as callback(leading..., args).
    template <typename... Leading>
    void notify(Leading... leading) const {
        std::vector<Entry> entries;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            for (const auto& entry : entries_) entries.push_back(entry.second);
        }
        for (const Entry& entry : entries) entry.callback(leading..., entry.args);
    }

private:
    struct Entry {
        Callback callback;
        void* args;
    };

    mutable std::mutex mutex_;
    std::map<std::string, Entry> entries_;
};

/// What the registration entry points share: callback registered under
/// regName in registry, or with a null callback the name's registration
/// removed; an empty name, a taken one, or removing an unknown one ->
/// ACL_ERROR_INVALID_PARAM with a message naming api.
template <typename Callback>
aclError register_named(const char* api, NamedCallbacks<Callback>& registry, const char* regName, Callback callback,
                        void* args) {
    if (regName == nullptr || *regName == '\0') return param_error(ACL_ERROR_INVALID_PARAM, "%s: regName is empty", api);
    using Outcome = typename NamedCallbacks<Callback>::Outcome;
    switch (registry.set(regName, callback, args)) {
        case Outcome::kNameTaken:
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: a callback is already registered as \"%s\"", api, regName);
        case Outcome::kUnknownName:
            return param_error(ACL_ERROR_INVALID_PARAM, "%s: no callback is registered as \"%s\"", api, regName);
        case Outcome::kDone:
            break;
    }
    return ACL_SUCCESS;
}

}  // namespace aclcpu::detail
