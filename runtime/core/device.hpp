// acl-cpu runtime: Device, one emulated NPU.
#pragma once

#include "core/internal.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/task_arena.h>

#include "aclcpu/soc_profile.hpp"
#include "core/host_worker.hpp"
#include "core/lane.hpp"
#include "core/memory_pool.hpp"
#include "observe/runtime_hooks.hpp"
#include "core/progress_counter.hpp"

namespace aclcpu::detail {

/// Per-device limits of an Atlas A2.
inline constexpr int kMaxStreamsPerDevice = 1984;  ///< Counting the default streams.
inline constexpr int kMaxEventsPerDevice = 65536;

/// One emulated NPU: its AI cores are the workers of a task_arena of the
/// configured size, its streams are lanes of one flow graph attached to that
/// arena, its HBM is a DevicePool.  Host threads never enter the arena: they
/// submit with try_put and wait on lane progress counters.
class Device {
public:
    Device(int32_t id, const SocProfile& soc, int workerThreads, uint64_t memoryCapacity, bool memcheck);
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    int32_t id() const noexcept { return id_; }
    const SocProfile& soc() const noexcept { return soc_; }
    DevicePool& pool() noexcept { return pool_; }
    const DevicePool& pool() const noexcept { return pool_; }
    HostWorker& host_worker() noexcept { return hostWorker_; }

    /// A lane of `priority` for a new stream, or nullptr past the stream limit.
    StreamLane* acquire_lane(uint32_t priority = kHighestStreamPriority);
    /// Returns the lane of a destroyed (drained) stream to the pool.
    void release_lane(StreamLane* lane);
    /// How many more streams the device can serve now.
    int available_streams();

    bool try_reserve_event() noexcept;
    void release_event() noexcept { events_.fetch_sub(1, std::memory_order_relaxed); }
    int available_events() const noexcept { return kMaxEventsPerDevice - events_.load(std::memory_order_relaxed); }

    /// Runs fn inside the device's task arena on the calling thread (which
    /// joins the arena for the call): flow graphs built there attach to it.
    template <typename Fn>
    void in_arena(Fn&& fn) {
        arena_.execute(std::forward<Fn>(fn));
    }

    /// Waits until every lane has run all the work submitted before the call.
    bool synchronize(ProgressCounter::Clock::time_point deadline);
    /// synchronize() for aclrtSynchronizeDevice, which also ends once one of
    /// the streams it waits for is aborted (CANN's Context::Synchronize
    /// waits stream by stream, each wait ending in the stream's abort state).
    WaitEnd synchronize_abortable(ProgressCounter::Clock::time_point deadline);

private:
    WaitEnd wait_for_lanes(ProgressCounter::Clock::time_point deadline, bool abortable);

    const int32_t id_;
    const SocProfile soc_;
    DevicePool pool_;
    tbb::task_arena arena_;
    std::unique_ptr<WorkerTagger> workerTagger_;  ///< Only when instrumented at creation.
    std::unique_ptr<tbb::flow::graph> graph_;
    std::mutex lanesMutex_;
    std::vector<std::unique_ptr<StreamLane>> lanes_;
    /// Idle lanes by priority: a lane's priority is fixed when it is built.
    std::array<std::vector<StreamLane*>, kLowestStreamPriority + 1> idleLanes_;
    int lanesInUse_ = 0;
    std::atomic<int> events_{0};
    HostWorker hostWorker_;
};

}  // namespace aclcpu::detail
