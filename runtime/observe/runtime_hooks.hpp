// acl-cpu runtime: what the runtime needs to feed observers
// (aclcpu/instrumentation.hpp) beyond the hooks themselves.
#pragma once

#include "core/internal.hpp"

#include <cstdint>

#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_scheduler_observer.h>

#include "aclcpu/instrumentation.hpp"

namespace aclcpu::detail {

/// Makes instrument::calling_worker() answer `device` and `slot` on the
/// calling thread (device -1: not a device worker).
void tag_calling_worker(int32_t device, int slot) noexcept;

/// Tags each thread that enters a device's arena with the device and its
/// slot there, so that observers can place a block on "AI Core worker
/// <slot>" of the right device.  Exists only while instrumented: it costs a
/// call each time a thread joins or leaves the arena.
class WorkerTagger final : public tbb::task_scheduler_observer {
public:
    WorkerTagger(tbb::task_arena& arena, int32_t device) : tbb::task_scheduler_observer(arena), device_(device) {
        observe(true);
    }
    ~WorkerTagger() override { observe(false); }

    void on_scheduler_entry(bool) override {
        tag_calling_worker(device_, tbb::this_task_arena::current_thread_index());
    }
    void on_scheduler_exit(bool) override { tag_calling_worker(-1, -1); }

private:
    const int32_t device_;
};

/// Tells observers that the calling host thread has seen the first `count`
/// items of `stream` complete.
inline void observe_stream_waited(instrument::StreamId stream, uint64_t count) {
    if (count == 0 || !instrument::active()) return;
    instrument::notify([&](instrument::Observer& o) { o.on_host_waited_stream(stream, count - 1); });
}

/// Tells observers that the calling host thread has seen all work of `device` complete.
inline void observe_device_waited(int32_t device) {
    if (!instrument::active()) return;
    instrument::notify([device](instrument::Observer& o) { o.on_host_waited_device(device); });
}

/// A WorkInfo with nothing but a name and a category.
inline instrument::WorkInfo plain_work(const char* name, const char* category) {
    instrument::WorkInfo work;
    work.name = name;
    work.category = category;
    return work;
}

/// Tells observers that the calling host thread itself accessed `bytes`
/// at `begin` in API call `api` (call only when instrument::active()).
inline void observe_host_access(const void* begin, uint64_t bytes, instrument::MemoryAccess::Kind kind,
                                const char* role, const char* api) {
    const instrument::MemoryAccess access{begin, bytes, kind, role};
    instrument::notify([&](instrument::Observer& o) { o.on_host_access(access, api); });
}

}  // namespace aclcpu::detail
