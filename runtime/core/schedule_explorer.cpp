// acl-cpu runtime: ScheduleExplorer and SchedulePolicy.
#include "core/schedule_explorer.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <memory>
#include <tuple>
#include <vector>

#include "aclcpu/instrumentation.hpp"

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

/// Sees every submission (installed as an observer under adversarial) and
/// keeps, per stream place, the eagerness of the item until it is held.
/// Items of the default eagerness are not kept.
class SubmissionEagerness final : public instrument::Observer {
public:
    void on_submit(int32_t, instrument::StreamId stream, uint64_t place, const instrument::WorkInfo& work) override {
        const Eagerness eagerness = eagerness_of(work);
        if (eagerness == Eagerness::kOther) return;
        std::lock_guard<std::mutex> lock(mutex_);
        submitted_[{stream, place}] = eagerness;
    }

    /// The eagerness of the item at place of stream, forgotten after.
    Eagerness take(const void* stream, uint64_t place) {
        std::lock_guard<std::mutex> lock(mutex_);
        const auto found = submitted_.find({stream, place});
        if (found == submitted_.end()) return Eagerness::kOther;
        const Eagerness eagerness = found->second;
        submitted_.erase(found);
        return eagerness;
    }

private:
    static Eagerness eagerness_of(const instrument::WorkInfo& work) {
        if (std::strcmp(work.category, "event_record") == 0 || std::strcmp(work.category, "notify_record") == 0) {
            return Eagerness::kRecord;
        }
        const auto* end = work.accesses + work.accessCount;
        const bool writes = std::any_of(work.accesses, end, [](const instrument::MemoryAccess& access) {
            return access.kind == instrument::MemoryAccess::Kind::kWrite;
        });
        return writes ? Eagerness::kWriter : Eagerness::kOther;
    }

    std::mutex mutex_;
    std::map<std::pair<const void*, uint64_t>, Eagerness> submitted_;
};

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

ScheduleExplorer::ScheduleExplorer(const SchedulePolicy& policy)
    : policy_(policy),
      eagerness_(policy.kind == SchedulePolicy::Kind::kAdversarial ? std::make_shared<SubmissionEagerness>() : nullptr),
      random_(policy.seed),
      lastActivity_(Clock::now()),
      idleDriver_([this] { drive_when_idle(); }) {
    if (eagerness_) instrument::install(eagerness_);
}

SchedulePolicy ScheduleExplorer::current_policy() {
    const ScheduleExplorer* explorer = active();
    return explorer != nullptr ? explorer->policy_ : SchedulePolicy{};
}

ScheduleExplorer::~ScheduleExplorer() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    stopWake_.notify_all();
    idleDriver_.join();
    if (eagerness_) instrument::uninstall(eagerness_.get());
    // Every device drained before exploration stops; anything left was never
    // going to run.
    for (auto& [lane, items] : held_) {
        for (Held& held : items) delete held.item.task;
    }
}

void ScheduleExplorer::hold(StreamLane& lane, const LaneItem& item) {
    const Eagerness eagerness = eagerness_ ? eagerness_->take(lane.stream(), item.place) : Eagerness::kOther;
    std::lock_guard<std::mutex> lock(mutex_);
    held_[&lane].push_back(Held{item, nextSequence_++, eagerness});
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

WaitEnd ScheduleExplorer::wait(const ProgressCounter& counter, uint64_t target, Clock::time_point deadline,
                               uint64_t abortsSeen) {
    while (counter.value() < target) {
        if (counter.aborted_since(abortsSeen)) return WaitEnd::kAborted;
        if (Clock::now() >= deadline) return WaitEnd::kTimedOut;
        if (!drive_one(deadline, std::unique_lock<std::mutex>(driverMutex_, std::try_to_lock))) {
            counter.block(target, std::min(deadline, Clock::now() + kPollSlice), abortsSeen);
        }
    }
    return WaitEnd::kReached;
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
    std::vector<Candidate> candidates;
    for (auto& [lane, items] : held_) candidates.push_back({items.front().sequence, items.front().eagerness, lane});
    std::sort(candidates.begin(), candidates.end(),
              [](const Candidate& a, const Candidate& b) { return a.sequence < b.sequence; });
    const bool biased = policy_.kind == SchedulePolicy::Kind::kAdversarial && random_() % 4 != 0;
    if (!biased) return candidates[random_() % candidates.size()].lane;
    // The most eager; among equals, the one released last.
    return std::max_element(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
               return std::tie(a.eagerness, a.sequence) < std::tie(b.eagerness, b.sequence);
           })->lane;
}

void ScheduleExplorer::drive_when_idle() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
        // On its own condition, woken only to stop: a step's end concerns the
        // thread driving it, and waking this one at every item would cost a
        // context switch per item.
        stopWake_.wait_until(lock, held_.empty() ? Clock::now() + kIdleLimit : lastActivity_ + kIdleLimit);
        if (stopping_ || held_.empty() || Clock::now() - lastActivity_ < kIdleLimit) continue;
        lock.unlock();
        while (drive_one(Clock::now() + kStepLimit, std::unique_lock<std::mutex>(driverMutex_, std::try_to_lock))) {
        }
        lock.lock();
    }
}

WaitEnd explored_wait(const ProgressCounter& counter, uint64_t target, ProgressCounter::Clock::time_point deadline,
                      uint64_t abortsSeen) noexcept {
    ScheduleExplorer* explorer = ScheduleExplorer::active();
    if (explorer == nullptr) return counter.block(target, deadline, abortsSeen);
    return explorer->wait(counter, target, deadline, abortsSeen);
}

}  // namespace aclcpu::detail
