// acl-cpu runtime: HandleRegistry, validation of the void* handles of the C API.
#pragma once

#include "core/internal.hpp"

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

#include "acl/acl_rt.h"
#include "core/errors.hpp"

namespace aclcpu::detail {

/// Maps the opaque handles given to the user (the object's address) to the
/// live objects.  A handle that was never issued, or whose object was
/// destroyed, is simply not found: the API answers with an error code instead
/// of dereferencing it.  Lookups take a shared lock and return shared
/// ownership, so an object stays alive for the call that uses it even if
/// another thread destroys it meanwhile.
///
/// A registry of the objects CANN's runtime validates by their handle
/// (streams, events, notifies, models, labels) is named by its kind:
/// resolve() and retire() then answer a handle that is not live as CANN's
/// handle check does (runtime_handle_guard.cc, ValidateInnerObject: a
/// destroyed handle, or one that is no object of the kind, fails with
/// RT_ERROR_INVALID_HANDLE, which the caller sees as
/// ACL_ERROR_RT_INVALID_HANDLE).
template <typename T>
class HandleRegistry {
public:
    HandleRegistry() = default;
    /// kind names the objects in messages ("stream", "event" ...).
    explicit HandleRegistry(const char* kind) : kind_(kind) {}

    void* add(std::shared_ptr<T> object) {
        void* handle = object.get();
        std::unique_lock lock(mutex_);
        objects_.emplace(handle, std::move(object));
        return handle;
    }

    std::shared_ptr<T> find(const void* handle) const {
        std::shared_lock lock(mutex_);
        auto it = objects_.find(handle);
        return it == objects_.end() ? nullptr : it->second;
    }

    /// find(), reporting a handle that is not live as CANN's handle check
    /// does.  handle must not be null (callers decide what null means).
    aclError resolve(const void* handle, const char* api, std::shared_ptr<T>& object) const {
        object = find(handle);
        return object ? ACL_SUCCESS : report_invalid(handle, api);
    }

    /// remove(), reporting a handle that is not live as resolve() does;
    /// removed (optional) receives the object.
    aclError retire(const void* handle, const char* api, std::shared_ptr<T>* removed = nullptr) {
        std::shared_ptr<T> object = remove(handle);
        if (!object) return report_invalid(handle, api);
        if (removed != nullptr) *removed = std::move(object);
        return ACL_SUCCESS;
    }

    /// Every live object.
    std::vector<std::shared_ptr<T>> snapshot() const {
        std::shared_lock lock(mutex_);
        std::vector<std::shared_ptr<T>> objects;
        objects.reserve(objects_.size());
        for (const auto& entry : objects_) objects.push_back(entry.second);
        return objects;
    }

    /// Removes and returns the object (nullptr if the handle is not live).
    std::shared_ptr<T> remove(const void* handle) {
        std::unique_lock lock(mutex_);
        auto it = objects_.find(handle);
        if (it == objects_.end()) return nullptr;
        std::shared_ptr<T> object = std::move(it->second);
        objects_.erase(it);
        return object;
    }

    /// Removes and returns every object matching predicate.
    template <typename Predicate>
    std::vector<std::shared_ptr<T>> remove_if(Predicate predicate) {
        std::vector<std::shared_ptr<T>> removed;
        std::unique_lock lock(mutex_);
        for (auto it = objects_.begin(); it != objects_.end();) {
            if (predicate(*it->second)) {
                removed.push_back(std::move(it->second));
                it = objects_.erase(it);
            } else {
                ++it;
            }
        }
        return removed;
    }

private:
    aclError report_invalid(const void* handle, const char* api) const {
        return param_error(ACL_ERROR_RT_INVALID_HANDLE, "%s: %p is not a live %s (destroyed, or never created)", api,
                           handle, kind_);
    }

    const char* kind_ = "object";
    mutable std::shared_mutex mutex_;
    std::unordered_map<const void*, std::shared_ptr<T>> objects_;
};

}  // namespace aclcpu::detail
