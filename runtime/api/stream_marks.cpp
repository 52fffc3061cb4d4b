// acl-cpu runtime API: marks in a stream's order.
#include "api/stream_marks.hpp"

#include <memory>
#include <utility>

#include "aclcpu/device_task.hpp"
#include "aclcpu/instrumentation.hpp"

namespace aclcpu::api {

namespace {

/// An empty item of a stream: where a mark lands in stream order.
class MarkTask final : public DeviceTask {
public:
    aclError run() noexcept override { return ACL_SUCCESS; }
    const char* name() const noexcept override { return "mark"; }
};

}  // namespace

aclError enqueue_mark(aclrtStream stream, const std::string& name, std::string details) {
    if (!instrument::active()) return enqueue(stream, std::make_unique<MarkTask>());
    instrument::WorkInfo work;
    work.name = name.c_str();
    work.category = "task";
    work.details = std::move(details);
    return instrument::enqueue(stream, std::make_unique<MarkTask>(), work);
}

}  // namespace aclcpu::api
