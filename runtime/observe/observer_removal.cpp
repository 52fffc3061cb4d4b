// acl-cpu runtime: removing an observer that a C API call installed.
#include "observe/observer_removal.hpp"

#include "core/runtime_state.hpp"

namespace aclcpu::observe {

void remove_when_idle(const instrument::Observer* observer) {
    detail::Runtime& runtime = detail::Runtime::instance();
    for (int32_t id = 0; id < runtime.config().deviceCount; ++id) {
        if (detail::Device* device = runtime.open_device(id)) {
            device->synchronize(detail::ProgressCounter::Clock::time_point::max());
        }
    }
    instrument::uninstall(observer);
}

}  // namespace aclcpu::observe
