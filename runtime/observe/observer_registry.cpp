// acl-cpu runtime: the observer registry behind aclcpu/instrumentation.hpp.
#include <algorithm>
#include <atomic>
#include <mutex>

#include "aclcpu/instrumentation.hpp"
#include "observe/runtime_hooks.hpp"

namespace aclcpu::instrument {
namespace {

/// The installed list: owned here, published to the hooks as a raw pointer
/// so that reading it is one atomic load and no reference count is touched.
struct Registry {
    std::mutex mutex;
    std::shared_ptr<const detail::ObserverList> list;
};

Registry& registry() {
    static auto* instance = new Registry;  // Never destroyed: hooks may run during exit.
    return *instance;
}

/// Replaces the installed list; call with the registry's mutex held.
void publish(Registry& owner, detail::ObserverList observers) {
    owner.list = observers.empty() ? nullptr : std::make_shared<const detail::ObserverList>(std::move(observers));
    detail::gPublishedObservers.store(owner.list.get(), std::memory_order_release);
}

struct WorkerTag {
    int32_t device = -1;
    int slot = -1;
};

thread_local WorkerTag tWorker;

}  // namespace

bool calling_worker(int32_t& device, int& slot) noexcept {
    if (tWorker.device < 0) return false;
    device = tWorker.device;
    slot = tWorker.slot;
    return true;
}

void install(std::shared_ptr<Observer> observer) {
    if (!observer) return;
    Registry& owner = registry();
    std::lock_guard<std::mutex> lock(owner.mutex);
    detail::ObserverList observers = owner.list ? *owner.list : detail::ObserverList{};
    observers.push_back(std::move(observer));
    publish(owner, std::move(observers));
}

void uninstall(const Observer* observer) {
    Registry& owner = registry();
    std::lock_guard<std::mutex> lock(owner.mutex);
    if (!owner.list) return;
    detail::ObserverList observers = *owner.list;
    observers.erase(std::remove_if(observers.begin(), observers.end(),
                                   [observer](const auto& installed) { return installed.get() == observer; }),
                    observers.end());
    publish(owner, std::move(observers));
}

namespace detail {

std::atomic<const ObserverList*> gPublishedObservers{nullptr};

std::shared_ptr<const ObserverList> observers() noexcept {
    Registry& owner = registry();
    std::lock_guard<std::mutex> lock(owner.mutex);
    return owner.list;
}

const ObserverList* current_observers() noexcept { return gPublishedObservers.load(std::memory_order_acquire); }

}  // namespace detail
}  // namespace aclcpu::instrument

namespace aclcpu::detail {

void tag_calling_worker(int32_t device, int slot) noexcept { instrument::tWorker = {device, slot}; }

}  // namespace aclcpu::detail
