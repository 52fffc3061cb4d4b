// acl-cpu runtime: aclcpu::enqueue, how the libraries above the runtime
// submit device work (aclcpu/device_task.hpp, aclcpu/instrumentation.hpp).
#include "aclcpu/device_task.hpp"
#include "aclcpu/instrumentation.hpp"
#include "core/runtime_state.hpp"
#include "observe/runtime_hooks.hpp"

using aclcpu::detail::plain_work;
using aclcpu::detail::Runtime;
using aclcpu::detail::Stream;
using aclcpu::instrument::WorkInfo;

namespace aclcpu {
namespace {

template <typename Describe>
aclError enqueue_described(aclrtStream handle, std::unique_ptr<DeviceTask> task, Describe&& describe) {
    std::shared_ptr<Stream> stream;
    if (aclError status = Runtime::instance().resolve_work_stream(handle, task->name(), stream); status != ACL_SUCCESS) {
        return status;
    }
    return stream->submit(std::move(task), std::forward<Describe>(describe));
}

}  // namespace

aclError enqueue(aclrtStream handle, std::unique_ptr<DeviceTask> task) {
    const char* name = task->name();
    return enqueue_described(handle, std::move(task), [name] { return plain_work(name, "task"); });
}

aclError instrument::enqueue(aclrtStream handle, std::unique_ptr<DeviceTask> task, const WorkInfo& work) {
    return enqueue_described(handle, std::move(task), [&work]() -> const WorkInfo& { return work; });
}

}  // namespace aclcpu

