// acl-cpu runtime: ScheduleExplorer and SchedulePolicy.
#include "core/schedule_explorer.hpp"

#include <algorithm>
#include <charconv>
#include <memory>
#include <vector>

namespace aclcpu::detail {

namespace {

constexpr char kRandomPrefix[] = "random:";
constexpr char kAdversarialPrefix[] = "adversarial:";

/// Parses a whole decimal uint64_t (no sign, no blanks).
bool parse_seed(const std::string& text, uint64_t& seed) {
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, seed);
    return error == std::errc() && stop == end && !text.empty();
}

bool starts_with(const std::string& text, const char* prefix) {
    return text.compare(0, std::char_traits<char>::length(prefix), prefix) == 0;
}

/// The explorer's own storage: active() hands out a raw pointer.
std::unique_ptr<ScheduleExplorer>& explorer_storage() {
    static std::unique_ptr<ScheduleExplorer> explorer;
    return explorer;
}

}  // namespace

std::string SchedulePolicy::describe() const {
    switch (kind) {
        case Kind::kRandom: return kRandomPrefix + std::to_string(seed);
        case Kind::kAdversarial: return kAdversarialPrefix + std::to_string(seed);
        case Kind::kFifo: break;
    }
    return "fifo";
}

bool parse_schedule_policy(const std::string& text, SchedulePolicy& policy) {
    SchedulePolicy parsed;
    if (text == "fifo") {
        policy = parsed;
        return true;
    }
    if (starts_with(text, kRandomPrefix)) {
        parsed.kind = SchedulePolicy::Kind::kRandom;
        if (!parse_seed(text.substr(sizeof(kRandomPrefix) - 1), parsed.seed)) return false;
    } else if (starts_with(text, kAdversarialPrefix)) {
        parsed.kind = SchedulePolicy::Kind::kAdversarial;
        if (!parse_seed(text.substr(sizeof(kAdversarialPrefix) - 1), parsed.seed)) return false;
    } else {
        return false;
    }
    policy = parsed;
    return true;
}

std::atomic<ScheduleExplorer*> ScheduleExplorer::active_{nullptr};

void ScheduleExplorer::start(const SchedulePolicy& policy) {
    stop();
    if (policy.kind == SchedulePolicy::Kind::kFifo) return;
    explorer_storage() = std::make_unique<ScheduleExplorer>(policy);
    active_.store(explorer_storage().get(), std::memory_order_release);
    explored_waits.store(true, std::memory_order_release);
}

void ScheduleExplorer::stop() {
    explored_waits.store(false, std::memory_order_release);
    active_.store(nullptr, std::memory_order_release);
    explorer_storage().reset();
}

SchedulePolicy ScheduleExplorer::current_policy() {
    const ScheduleExplorer* explorer = active();
    return explorer != nullptr ? explorer->policy_ : SchedulePolicy{};
}

ScheduleExplorer::ScheduleExplorer(const SchedulePolicy& policy)
    : policy_(policy), random_(policy.seed), lastActivity_(Clock::now()), idleDriver_([this] { drive_when_idle(); }) {}

ScheduleExplorer::~ScheduleExplorer() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    idleDriver_.join();
    // Every device drained before exploration stops; anything left was never
    // going to run.
    for (auto& [lane, items] : held_) {
        for (Held& held : items) delete held.item.task;
    }
}

void ScheduleExplorer::hold(StreamLane& lane, const LaneItem& item) {
    std::lock_guard<std::mutex> lock(mutex_);
    held_[&lane].push_back(Held{item, nextSequence_++});
    lastActivity_ = Clock::now();
}

void ScheduleExplorer::finished(const StreamLane& lane, uint64_t place) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (&lane != stepLane_ || place != stepPlace_) return;
        stepDone_ = true;
    }
    changed_.notify_all();
}

bool ScheduleExplorer::wait_until(const ProgressCounter& counter, uint64_t target, Clock::time_point deadline) {
    while (counter.value() < target) {
        if (Clock::now() >= deadline) return false;
        if (!drive_one(deadline, std::unique_lock<std::mutex>(driverMutex_, std::try_to_lock))) {
            counter.block_until(target, std::min(deadline, Clock::now() + kPollSlice));
        }
    }
    return true;
}

// A query waits for a thread driving to finish its step, so that it always
// drives one item itself: a polling loop then makes progress at every call.
void ScheduleExplorer::step() { drive_one(Clock::now() + kStepLimit, std::unique_lock<std::mutex>(driverMutex_)); }

void ScheduleExplorer::quiesce() { const std::lock_guard<std::mutex> forwardsDone(driverMutex_); }

bool ScheduleExplorer::drive_one(Clock::time_point deadline, std::unique_lock<std::mutex> driving) {
    if (!driving.owns_lock()) return false;
    std::unique_lock<std::mutex> lock(mutex_);
    StreamLane* lane = pick_locked();
    if (lane == nullptr) return false;
    std::deque<Held>& items = held_[lane];
    const LaneItem next = items.front().item;
    items.pop_front();
    if (items.empty()) held_.erase(lane);
    stepLane_ = lane;
    stepPlace_ = next.place;
    stepDone_ = false;
    lastActivity_ = Clock::now();
    lock.unlock();
    lane->forward(next);
    lock.lock();
    changed_.wait_until(lock, std::min(deadline, Clock::now() + kStepLimit), [this] { return stepDone_; });
    lastActivity_ = Clock::now();
    return true;
}

StreamLane* ScheduleExplorer::pick_locked() {
    if (held_.empty()) return nullptr;
    // Candidates in release order, so that a pick depends on the seed and
    // the program only, not on where lanes happen to live in memory.
    std::vector<std::pair<uint64_t, StreamLane*>> candidates;
    for (auto& [lane, items] : held_) candidates.emplace_back(items.front().sequence, lane);
    std::sort(candidates.begin(), candidates.end());
    const bool latest = policy_.kind == SchedulePolicy::Kind::kAdversarial && random_() % 4 != 0;
    if (latest) return candidates.back().second;
    return candidates[random_() % candidates.size()].second;
}

void ScheduleExplorer::drive_when_idle() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
        changed_.wait_for(lock, kIdleLimit);
        if (stopping_ || held_.empty() || Clock::now() - lastActivity_ < kIdleLimit) continue;
        lock.unlock();
        while (drive_one(Clock::now() + kStepLimit, std::unique_lock<std::mutex>(driverMutex_, std::try_to_lock))) {
        }
        lock.lock();
    }
}

bool explored_wait_until(const ProgressCounter& counter, uint64_t target,
                         ProgressCounter::Clock::time_point deadline) noexcept {
    ScheduleExplorer* explorer = ScheduleExplorer::active();
    if (explorer == nullptr) return counter.block_until(target, deadline);
    return explorer->wait_until(counter, target, deadline);
}

}  // namespace aclcpu::detail
