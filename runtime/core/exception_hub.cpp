// acl-cpu runtime: ExceptionHub and the calling thread's last task.
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>

#include "core/exception_hub.hpp"
#include "core/objects.hpp"

namespace aclcpu::detail {
namespace {

thread_local std::optional<uint32_t> tLastTask;

}  // namespace

ExceptionHub& ExceptionHub::instance() {
    static ExceptionHub* hub = new ExceptionHub();  // Never destroyed: workers may report until exit.
    return *hub;
}

void ExceptionHub::set_legacy(aclrtExceptionInfoCallback callback) {
    std::lock_guard<std::mutex> lock(mutex_);
    legacy_ = callback;
}

void ExceptionHub::add(aclrtExceptionInfoCallback callback) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (std::find(registered_.begin(), registered_.end(), callback) == registered_.end()) {
        registered_.push_back(callback);
    }
}

void ExceptionHub::remove(aclrtExceptionInfoCallback callback) {
    std::lock_guard<std::mutex> lock(mutex_);
    registered_.erase(std::remove(registered_.begin(), registered_.end(), callback), registered_.end());
}

void ExceptionHub::notify(const Stream& stream, uint64_t place, aclError code) const {
    std::vector<aclrtExceptionInfoCallback> callbacks;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (legacy_ != nullptr) callbacks.push_back(legacy_);
        callbacks.insert(callbacks.end(), registered_.begin(), registered_.end());
    }
    const rtExceptionInfo info{static_cast<uint32_t>(place), static_cast<uint32_t>(stream.id()),
                               static_cast<uint32_t>(::syscall(SYS_gettid)),
                               static_cast<uint32_t>(stream.device().id()), static_cast<uint32_t>(code)};
    for (aclrtExceptionInfoCallback callback : callbacks) {
        rtExceptionInfo copy = info;  // Each callback gets its own: it may not keep or change it.
        callback(&copy);
    }
}

void remember_thread_task(uint64_t taskId) noexcept { tLastTask = static_cast<uint32_t>(taskId); }

std::optional<uint32_t> thread_last_task() noexcept { return tLastTask; }

}  // namespace aclcpu::detail
