// acl-cpu runtime: Device.
#include "core/device.hpp"

namespace aclcpu::detail {

Device::Device(int32_t id, const SocProfile& soc, int workerThreads, uint64_t memoryCapacity, bool memcheck)
    : id_(id), soc_(soc), pool_(memoryCapacity, memcheck), arena_(workerThreads, 0) {
    if (instrument::active()) workerTagger_ = std::make_unique<WorkerTagger>(arena_, id_);
    // A graph attaches to the arena of the thread that constructs it.
    arena_.execute([this] { graph_ = std::make_unique<tbb::flow::graph>(); });
}

Device::~Device() {
    synchronize(ProgressCounter::Clock::time_point::max());
    hostWorker_.stop();
    arena_.execute([this] {
        graph_->wait_for_all();
        lanes_.clear();
        graph_.reset();
    });
    workerTagger_.reset();
}

StreamLane* Device::acquire_lane() {
    std::lock_guard<std::mutex> lock(lanesMutex_);
    if (!idleLanes_.empty()) {
        StreamLane* lane = idleLanes_.back();
        idleLanes_.pop_back();
        return lane;
    }
    if (lanes_.size() >= static_cast<size_t>(kMaxStreamsPerDevice)) return nullptr;
    lanes_.push_back(std::make_unique<StreamLane>(*graph_, pool_));
    return lanes_.back().get();
}

void Device::release_lane(StreamLane* lane) {
    lane->recycle();
    std::lock_guard<std::mutex> lock(lanesMutex_);
    idleLanes_.push_back(lane);
}

bool Device::try_reserve_event() noexcept {
    int count = events_.load(std::memory_order_relaxed);
    do {
        if (count >= kMaxEventsPerDevice) return false;
    } while (!events_.compare_exchange_weak(count, count + 1, std::memory_order_relaxed));
    return true;
}

bool Device::synchronize(ProgressCounter::Clock::time_point deadline) {
    std::vector<std::pair<StreamLane*, uint64_t>> targets;
    {
        std::lock_guard<std::mutex> lock(lanesMutex_);
        for (auto& lane : lanes_) targets.emplace_back(lane.get(), lane->submitted());
    }
    for (auto& [lane, target] : targets) {
        if (!lane->progress()->counter().wait_until(target, deadline)) return false;
    }
    return true;
}

}  // namespace aclcpu::detail
