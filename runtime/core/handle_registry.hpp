// acl-cpu runtime: HandleRegistry, validation of the void* handles of the C API.
#pragma once

#include "core/internal.hpp"

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

namespace aclcpu::detail {

/// Maps the opaque handles given to the user (the object's address) to the
/// live objects.  A handle that was never issued, or whose object was
/// destroyed, is simply not found: the API answers with an error code instead
/// of dereferencing it.  Lookups take a shared lock and return shared
/// ownership, so an object stays alive for the call that uses it even if
/// another thread destroys it meanwhile.
template <typename T>
class HandleRegistry {
public:
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
    mutable std::shared_mutex mutex_;
    std::unordered_map<const void*, std::shared_ptr<T>> objects_;
};

}  // namespace aclcpu::detail
