// acl-cpu runtime: Device.
#include "core/condition_wait.hpp"
#include "core/device.hpp"
#include "core/schedule_explorer.hpp"
#include "core/stream_gate.hpp"

namespace aclcpu::detail {

Device::Device(int32_t id, const SocProfile& soc, int workerThreads, uint64_t memoryCapacity, bool memcheck)
    : id_(id), soc_(soc), pool_(memoryCapacity, memcheck), arena_(workerThreads, 0) {
    if (instrument::active()) workerTagger_ = std::make_unique<WorkerTagger>(arena_, id_);
    // A graph attaches to the arena of the thread that constructs it.
    arena_.execute([this] { graph_ = std::make_unique<tbb::flow::graph>(); });
}

Device::~Device() {
    synchronize(ProgressCounter::Clock::time_point::max());
    if (ScheduleExplorer* explorer = ScheduleExplorer::active()) explorer->quiesce();
    hostWorker_.stop();
    ConditionWatcher::instance().forget_lanes(lanes_);
    ConditionWatcher::instance().quiesce();
    quiesce_gate_deliveries();
    arena_.execute([this] {
        graph_->wait_for_all();
        lanes_.clear();
        graph_.reset();
    });
    workerTagger_.reset();
}

StreamLane* Device::acquire_lane(uint32_t priority) {
    std::lock_guard<std::mutex> lock(lanesMutex_);
    if (lanesInUse_ >= kMaxStreamsPerDevice) return nullptr;
    ++lanesInUse_;
    std::vector<StreamLane*>& idle = idleLanes_.at(priority);
    if (!idle.empty()) {
        StreamLane* lane = idle.back();
        idle.pop_back();
        return lane;
    }
    const auto id = static_cast<int32_t>(lanes_.size());
    lanes_.push_back(std::make_unique<StreamLane>(*graph_, pool_, id, priority));
    return lanes_.back().get();
}

void Device::release_lane(StreamLane* lane) {
    lane->recycle();
    std::lock_guard<std::mutex> lock(lanesMutex_);
    idleLanes_.at(lane->priority()).push_back(lane);
    --lanesInUse_;
}

int Device::available_streams() {
    std::lock_guard<std::mutex> lock(lanesMutex_);
    return kMaxStreamsPerDevice - lanesInUse_;
}

bool Device::try_reserve_event() noexcept {
    int count = events_.load(std::memory_order_relaxed);
    do {
        if (count >= kMaxEventsPerDevice) return false;
    } while (!events_.compare_exchange_weak(count, count + 1, std::memory_order_relaxed));
    return true;
}

bool Device::synchronize(ProgressCounter::Clock::time_point deadline) {
    return wait_for_lanes(deadline, false) == WaitEnd::kReached;
}

WaitEnd Device::synchronize_abortable(ProgressCounter::Clock::time_point deadline) {
    return wait_for_lanes(deadline, true);
}

WaitEnd Device::wait_for_lanes(ProgressCounter::Clock::time_point deadline, bool abortable) {
    struct Target {
        const ProgressCounter* counter;
        uint64_t count;
        uint64_t abortsSeen;
    };
    std::vector<Target> targets;
    {
        std::lock_guard<std::mutex> lock(lanesMutex_);
        for (auto& lane : lanes_) {
            const ProgressCounter& counter = lane->progress()->counter();
            const uint64_t abortsSeen = abortable ? counter.aborts() : ProgressCounter::kIgnoresAborts;
            targets.push_back({&counter, lane->submitted(), abortsSeen});
        }
    }
    for (const Target& target : targets) {
        const WaitEnd end = target.counter->wait(target.count, deadline, target.abortsSeen);
        if (end != WaitEnd::kReached) return end;
    }
    return WaitEnd::kReached;
}

}  // namespace aclcpu::detail
