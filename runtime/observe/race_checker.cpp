// acl-cpu runtime: the stream race checker (ACLCPU_CHECK=race).
//
// Model.  Happens-before is tracked with vector clocks over agents: every
// stream is an agent, and the host is one more.  The host is a single agent
// for all host threads: host threads order themselves with their own locks
// and joins, which the checker cannot see, so giving each thread its own
// clock would report those orderings as races.  The price is that a race
// between two host threads through device memory goes unreported (that is a
// host-side race, ThreadSanitizer's domain).
//
// Ticks.  A stream's tick for the item at place p is p + 1 (0: nothing), so
// "agent A knows item p of stream S is complete" is clock(A)[S] >= p + 1.
// The host's own tick advances after every submission.
//  - submit: the host's past happens before the item: clock(S) joins
//    clock(host), then clock(S)[S] rises to p + 1.
//  - event record at p on S: the event keeps clock(S) with clock(S)[S] = p + 1;
//    an event wait joins that copy into the waiter; a reset empties it.
//  - host waits: for a stream up to p, the host joins clock(S) with the
//    stream's own entry capped at p + 1; for an event, the event's copy; for a
//    device, every stream of the device in full.
// A stream has one clock rather than one per place: when several host threads
// submit to one stream at once, an event may capture joins of items after its
// record.  That can only hide a race, never invent one.
//
// Accesses.  Each access of a submitted item is checked against the history of
// the bytes it touches, then recorded: a write against the last write and the
// reads since it, a read against the last write.  Two accesses conflict when
// they come from different agents, one is a write, and the current agent's
// clock does not cover the earlier one.  Host accesses are checked but never
// recorded: every later submission joins the host's clock, so nothing that
// comes after a host access can race with it.  For the same reason a recorded
// access can be forgotten as soon as the host's clock covers it: every future
// access is checked with a clock at least as recent as the host's.
//
// History.  An interval map over addresses holds, per maximal run of bytes with
// the same history, the last write and the latest read of each agent since it
// (at most kMaxReadersPerRun agents; a further reader evicts the earliest
// recorded one, so a later write racing only with the evicted read goes
// unreported).  Neighbouring runs with equal histories are merged, freed
// blocks are dropped, and every host wait drops what the host now covers.
// Addresses of different devices never overlap, so one map serves them all.
#include "aclcpu/testing.hpp"
#include "observe/race_checker.hpp"
#include "observe/graph_races.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace aclcpu::detail {
namespace {

using instrument::EventId;
using instrument::MemoryAccess;
using instrument::StreamId;
using instrument::WorkInfo;

using Tick = uint64_t;
using Agent = uint32_t;
constexpr Agent kHost = 0;

/// Readers remembered per run of bytes (one per agent, latest read each).
constexpr size_t kMaxReadersPerRun = 8;
/// Reports printed before the checker goes quiet (a racing loop would
/// otherwise flood stderr).
constexpr int kMaxReports = 64;

/// What one agent knows about every agent's progress.
class VectorClock {
public:
    Tick at(Agent agent) const noexcept { return agent < ticks_.size() ? ticks_[agent] : 0; }

    void raise(Agent agent, Tick tick) {
        if (agent >= ticks_.size()) ticks_.resize(agent + 1, 0);
        ticks_[agent] = std::max(ticks_[agent], tick);
    }

    void join(const VectorClock& other) {
        if (other.ticks_.size() > ticks_.size()) ticks_.resize(other.ticks_.size(), 0);
        for (size_t agent = 0; agent < other.ticks_.size(); ++agent) {
            ticks_[agent] = std::max(ticks_[agent], other.ticks_[agent]);
        }
    }

    /// join() with `agent`'s own entry taken as no later than `cap`.
    void join_capped(const VectorClock& other, Agent agent, Tick cap) {
        const Tick own = at(agent);
        join(other);
        if (agent < ticks_.size()) ticks_[agent] = std::max(own, std::min(other.at(agent), cap));
    }

private:
    std::vector<Tick> ticks_;
};

/// Stable copies of the names hooks pass (operators, APIs, tensor roles),
/// each distinct text stored once: a submission then copies no strings.
class NameTable {
public:
    const char* intern(const char* name) {
        auto known = byAddress_.find(name);
        if (known != byAddress_.end() && std::strcmp(known->second, name) == 0) return known->second;
        const char* stored = byText_.insert(name).first->c_str();
        byAddress_[name] = stored;
        return stored;
    }

private:
    std::unordered_set<std::string> byText_;
    std::unordered_map<const char*, const char*> byAddress_;
};

/// The work item (or host call) an access belongs to, as a report names it.
struct Origin {
    const char* work;  ///< Operator or copy: "aclnnAdd", "aclrtMemcpyAsync".
    const char* api;   ///< The host API call that enqueued or performed it.
    StreamId stream;   ///< nullptr: the host.
    int32_t device;
    uint64_t place;
};

/// One recorded byte range of a work item.
struct Access {
    Agent agent;
    Tick tick;
    MemoryAccess::Kind kind;
    uintptr_t begin;
    uintptr_t end;
    const char* role;
    const Origin* origin;  ///< Kept alive with the access (see AccessRef).

    bool writes() const noexcept { return kind == MemoryAccess::Kind::kWrite; }
    bool is_workspace() const noexcept { return std::strcmp(role, "workspace") == 0; }
};

/// An origin with its accesses, allocated once per work item.
struct WorkRecord {
    Origin origin;
    std::vector<Access> accesses;
};

/// Shares ownership of the access's WorkRecord.
using AccessRef = std::shared_ptr<const Access>;

/// True when `earlier` happened before anything `agent` does while it knows `clock`.
bool covers(const Access& earlier, Agent agent, const VectorClock& clock) {
    return earlier.agent == agent || clock.at(earlier.agent) >= earlier.tick;
}

/// The history of one maximal run of bytes [key, end).
struct Run {
    uintptr_t end = 0;
    AccessRef write;
    std::vector<AccessRef> reads;  ///< Since `write`, latest per agent.

    bool empty() const noexcept { return !write && reads.empty(); }
    bool same_history(const Run& other) const { return write == other.write && reads == other.reads; }

    void add_read(const AccessRef& read) {
        for (AccessRef& known : reads) {
            if (known->agent == read->agent) {
                known = read;
                return;
            }
        }
        if (reads.size() == kMaxReadersPerRun) reads.erase(reads.begin());
        reads.push_back(read);
    }

    /// Drops what `clock` (the host's) covers.
    void forget_covered(const VectorClock& clock) {
        if (write && covers(*write, kHost, clock)) write.reset();
        reads.erase(std::remove_if(reads.begin(), reads.end(),
                                   [&](const AccessRef& read) { return covers(*read, kHost, clock); }),
                    reads.end());
    }
};

/// Earlier accesses found unordered with a current one, each listed once.
using Conflicts = std::vector<AccessRef>;

void note_conflict(Conflicts& conflicts, const AccessRef& earlier) {
    if (std::find(conflicts.begin(), conflicts.end(), earlier) == conflicts.end()) conflicts.push_back(earlier);
}

/// The first run of `runs` that ends after `at`: the one holding `at`, if any.
template <typename Runs>
auto first_ending_after(Runs& runs, uintptr_t at) -> decltype(runs.begin()) {
    auto it = runs.upper_bound(at);
    if (it != runs.begin() && std::prev(it)->second.end > at) --it;
    return it;
}

/// The history of device memory: runs of bytes keyed by their first byte.
class AccessHistory {
public:
    /// Adds the earlier accesses that `access` (made by an agent knowing
    /// `clock`) conflicts with to `conflicts`; records nothing.
    void check(const Access& access, const VectorClock& clock, Conflicts& conflicts) const {
        for (auto it = first_ending_after(segments_, access.begin);
             it != segments_.end() && it->first < access.end; ++it) {
            check_run(it->second, access, clock, conflicts);
        }
    }

    /// check(), then records `access` in the history of its bytes.
    void record(const AccessRef& access, const VectorClock& clock, Conflicts& conflicts) {
        const uintptr_t end = access->end;
        auto it = first_ending_after(segments_, access->begin);
        if (it != segments_.end() && it->first < access->begin) it = split(it, access->begin);
        auto first = segments_.end();
        for (uintptr_t cursor = access->begin; cursor < end; cursor = it->second.end, ++it) {
            if (it == segments_.end() || it->first > cursor) {
                const uintptr_t gapEnd = it == segments_.end() ? end : std::min(end, it->first);
                it = segments_.emplace_hint(it, cursor, Run{gapEnd, nullptr, {}});
            } else if (it->second.end > end) {
                split(it, end);
            }
            if (first == segments_.end()) first = it;
            check_run(it->second, *access, clock, conflicts);
            update_run(it->second, access);
        }
        merge_equal_runs(first, end);
    }

    /// Adds every access to [begin, end) that `clock` does not cover to
    /// `conflicts`, then forgets the range.
    void release(uintptr_t begin, uintptr_t end, const VectorClock& clock, Conflicts& conflicts) {
        auto it = first_ending_after(segments_, begin);
        if (it != segments_.end() && it->first < begin) it = split(it, begin);
        while (it != segments_.end() && it->first < end) {
            if (it->second.end > end) split(it, end);
            const Run& run = it->second;
            if (run.write && !covers(*run.write, kHost, clock)) note_conflict(conflicts, run.write);
            for (const AccessRef& read : run.reads) {
                if (!covers(*read, kHost, clock)) note_conflict(conflicts, read);
            }
            it = segments_.erase(it);
        }
    }

    /// Drops every access the host's `clock` covers.
    void forget_covered(const VectorClock& clock) {
        for (auto it = segments_.begin(); it != segments_.end();) {
            it->second.forget_covered(clock);
            it = it->second.empty() ? segments_.erase(it) : std::next(it);
        }
        if (!segments_.empty()) merge_equal_runs(segments_.begin(), UINTPTR_MAX);
    }

private:
    using Runs = std::map<uintptr_t, Run>;

    /// Cuts run `it` at `at` (inside it); returns the part from `at` on.
    Runs::iterator split(Runs::iterator it, uintptr_t at) {
        Run tail = it->second;
        it->second.end = at;
        return segments_.emplace_hint(std::next(it), at, std::move(tail));
    }

    /// Merges each run starting before `end`, from `it` on, into its left
    /// neighbour when their histories are equal.  After record() only the
    /// recorded range needs it: a run outside it never equals one inside,
    /// which all hold the new access.
    void merge_equal_runs(Runs::iterator it, uintptr_t end) {
        for (auto next = std::next(it); next != segments_.end() && next->first < end; next = std::next(it)) {
            if (it->second.end == next->first && it->second.same_history(next->second)) {
                it->second.end = next->second.end;
                segments_.erase(next);
            } else {
                it = next;
            }
        }
    }

    static void check_run(const Run& run, const Access& access, const VectorClock& clock,
                          Conflicts& conflicts) {
        if (run.write && !covers(*run.write, access.agent, clock)) note_conflict(conflicts, run.write);
        if (!access.writes()) return;
        for (const AccessRef& read : run.reads) {
            if (!covers(*read, access.agent, clock)) note_conflict(conflicts, read);
        }
    }

    static void update_run(Run& run, const AccessRef& access) {
        if (access->writes()) {
            run.write = access;
            run.reads.clear();
        } else {
            run.add_read(access);
        }
    }

    Runs segments_;
};

/// The outermost API call the calling thread is in (nullptr: none).  Nested
/// calls (an operator enqueuing a memset) keep naming the user's call.
struct ThreadApi {
    const char* outermost = nullptr;
    int depth = 0;
};
thread_local ThreadApi tApi;

const char* current_api(const char* fallback) { return tApi.outermost != nullptr ? tApi.outermost : fallback; }

const char* kind_name(const Access& access) { return access.writes() ? "write" : "read"; }

/// "write by aclnnAdd (output 0) to [0x..., 0x...) on stream 0x... (device 0,
/// place 3), enqueued by aclnnAdd".
std::string describe(const Access& access) {
    const Origin& origin = *access.origin;
    char range[96];
    std::snprintf(range, sizeof(range), "[0x%" PRIxPTR ", 0x%" PRIxPTR ")", access.begin, access.end);
    std::string text = std::string(kind_name(access)) + " by " + origin.work;
    if (*access.role != '\0') text += std::string(" (") + access.role + ")";
    text += std::string(access.writes() ? " to " : " of ") + range;
    if (origin.stream == nullptr) return text + " on the host, in " + origin.api;
    char where[96];
    std::snprintf(where, sizeof(where), " on stream %p (device %d, place %" PRIu64 "), enqueued by ", origin.stream,
                  origin.device, origin.place);
    return text + where + origin.api;
}

std::string overlap_text(const Access& a, const Access& b) {
    const uintptr_t begin = std::max(a.begin, b.begin);
    const uintptr_t end = std::min(a.end, b.end);
    char text[128];
    std::snprintf(text, sizeof(text), "[0x%" PRIxPTR ", 0x%" PRIxPTR ") (%" PRIuPTR " bytes)", begin, end,
                  end - begin);
    return text;
}

/// A stream as the checker knows it.
struct StreamState {
    Agent agent;
    int32_t device;
    VectorClock clock;
};

class RaceChecker final : public instrument::Observer {
public:
    explicit RaceChecker(bool fatal) : fatal_(fatal) { host_.raise(kHost, 1); }

    void on_api_begin(const char* api) override {
        if (tApi.depth++ == 0) tApi.outermost = api;
    }

    void on_api_end(const char* /*api*/) override {
        if (tApi.depth > 0 && --tApi.depth == 0) tApi.outermost = nullptr;
    }

    void on_submit(int32_t device, StreamId stream, uint64_t place, const WorkInfo& work) override {
        std::lock_guard<std::mutex> lock(mutex_);
        StreamState& state = stream_state(stream);
        state.device = device;
        state.clock.join(host_);
        state.clock.raise(state.agent, place + 1);
        host_.raise(kHost, host_.at(kHost) + 1);
        if (work.accessCount == 0) return;
        auto record = std::make_shared<WorkRecord>();
        record->origin = Origin{names_.intern(work.name), names_.intern(current_api(work.name)), stream, device, place};
        record->accesses.reserve(work.accessCount);
        for (size_t i = 0; i < work.accessCount; ++i) {
            const MemoryAccess& access = work.accesses[i];
            if (access.bytes == 0) continue;
            const auto begin = reinterpret_cast<uintptr_t>(access.begin);
            record->accesses.push_back(Access{state.agent, place + 1, access.kind, begin, begin + access.bytes,
                                              names_.intern(access.role), &record->origin});
        }
        for (const Access& access : record->accesses) {
            Conflicts conflicts;
            history_.record(AccessRef(record, &access), state.clock, conflicts);
            report_races(access, conflicts);
        }
    }

    void on_event_record(EventId event, StreamId stream, uint64_t place) override {
        std::lock_guard<std::mutex> lock(mutex_);
        StreamState& state = stream_state(stream);
        VectorClock& captured = events_[event];
        captured = VectorClock();
        captured.join_capped(state.clock, state.agent, place + 1);
    }

    void on_event_wait(StreamId waiter, uint64_t place, EventId event) override {
        std::lock_guard<std::mutex> lock(mutex_);
        StreamState& state = stream_state(waiter);
        if (auto it = events_.find(event); it != events_.end()) state.clock.join(it->second);
        state.clock.raise(state.agent, place + 1);
    }

    void on_event_reset(EventId event) override {
        std::lock_guard<std::mutex> lock(mutex_);
        events_.erase(event);
    }

    void on_host_waited_stream(StreamId stream, uint64_t place) override {
        std::lock_guard<std::mutex> lock(mutex_);
        const StreamState& state = stream_state(stream);
        host_.join_capped(state.clock, state.agent, place + 1);
        history_.forget_covered(host_);
    }

    void on_host_waited_event(EventId event) override {
        std::lock_guard<std::mutex> lock(mutex_);
        if (auto it = events_.find(event); it != events_.end()) host_.join(it->second);
        history_.forget_covered(host_);
    }

    void on_host_waited_device(int32_t device) override {
        std::lock_guard<std::mutex> lock(mutex_);
        for (const auto& entry : streams_) {
            if (entry.second.device == device) host_.join(entry.second.clock);
        }
        history_.forget_covered(host_);
    }

    void on_host_access(const MemoryAccess& access, const char* api) override {
        if (access.bytes == 0) return;
        std::lock_guard<std::mutex> lock(mutex_);
        const Origin origin{api, current_api(api), nullptr, -1, 0};
        const auto begin = reinterpret_cast<uintptr_t>(access.begin);
        const Access host{kHost, host_.at(kHost), access.kind, begin, begin + access.bytes, access.role, &origin};
        Conflicts conflicts;
        history_.check(host, host_, conflicts);
        report_races(host, conflicts);
    }

    void on_free(const void* begin, uint64_t bytes) override {
        std::lock_guard<std::mutex> lock(mutex_);
        const auto first = reinterpret_cast<uintptr_t>(begin);
        Conflicts users;
        history_.release(first, first + bytes, host_, users);
        if (users.empty()) return;
        char header[160];
        std::snprintf(header, sizeof(header),
                      "acl-cpu: free of memory in use: %s(%p) frees [%p, +%" PRIu64
                      ") while work using it is not known to be complete\n",
                      current_api("aclrtFree"), begin, begin, bytes);
        std::string text = header;
        for (const AccessRef& user : users) text += "  still pending: " + describe(*user) + "\n";
        emit(text + "  synchronise with that work (stream, event or device synchronisation) before freeing\n");
    }

    void on_graph_built(int32_t /*device*/, const void* model, const instrument::GraphNodeInfo* nodes,
                        size_t count) override {
        const std::vector<std::string> races = find_graph_races(model, nodes, count);
        std::lock_guard<std::mutex> lock(mutex_);
        for (const std::string& race : races) emit(race);
    }

    void on_finalize() override {
        std::lock_guard<std::mutex> lock(mutex_);
        if (reports_ > 0) std::fprintf(stderr, "acl-cpu: race checker: %d report(s) in this run\n", reports_);
    }

private:
    StreamState& stream_state(StreamId stream) {
        auto it = streams_.find(stream);
        if (it == streams_.end()) {
            it = streams_.emplace(stream, StreamState{nextAgent_++, -1, VectorClock()}).first;
        }
        return it->second;
    }

    void report_races(const Access& current, const Conflicts& conflicts) {
        for (const AccessRef& earlier : conflicts) {
            const bool workspace = earlier->is_workspace() || current.is_workspace();
            std::string text = "acl-cpu: data race on ";
            text += workspace ? "a workspace reused without synchronisation, bytes " : "device memory bytes ";
            text += overlap_text(*earlier, current) + "\n";
            text += "  earlier: " + describe(*earlier) + "\n";
            text += "  later:   " + describe(current) + "\n";
            text += "  no event wait, stream, event or device synchronisation orders the earlier before the later\n";
            emit(text);
        }
    }

    /// Prints one report; aborts after it when fatal.
    void emit(const std::string& report) {
        if (reports_ < kMaxReports || fatal_) {
            std::fputs(report.c_str(), stderr);
        } else if (reports_ == kMaxReports) {
            std::fputs("acl-cpu: race checker: further reports suppressed\n", stderr);
        }
        ++reports_;
        if (fatal_) {
            std::fflush(stderr);
            std::abort();
        }
    }

    const bool fatal_;
    std::mutex mutex_;
    Agent nextAgent_ = kHost + 1;
    VectorClock host_;
    std::unordered_map<StreamId, StreamState> streams_;
    std::unordered_map<EventId, VectorClock> events_;
    AccessHistory history_;
    NameTable names_;
    int reports_ = 0;
};

}  // namespace

std::shared_ptr<instrument::Observer> make_race_checker(bool fatal) { return std::make_shared<RaceChecker>(fatal); }

}  // namespace aclcpu::detail

namespace aclcpu::testing {

std::shared_ptr<instrument::Observer> make_race_checker(bool fatal) { return detail::make_race_checker(fatal); }

}  // namespace aclcpu::testing
