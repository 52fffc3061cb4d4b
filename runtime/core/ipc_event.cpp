// acl-cpu runtime: IpcEventState and the IPC event wait.
#include "core/ipc_event.hpp"

#include <fcntl.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <mutex>
#include <random>
#include <type_traits>

#include "core/condition_wait.hpp"
#include "core/errors.hpp"
#include "core/lane.hpp"
#include "core/objects.hpp"
#include "observe/runtime_hooks.hpp"

namespace aclcpu::detail {

/// The shared object's contents.  A fresh object is all zeros (ftruncate);
/// the exporter sets exporterPid and exported, then publishes `layout`, which
/// an opener checks before reading anything else.  Every field is a
/// lock-free atomic, hence address-free: each process maps the object at its
/// own address.
struct IpcEventState::Shared {
    struct Slot {
        std::atomic<uint64_t> completed;  ///< The highest generation completed in this slot.
        std::atomic<uint64_t> issued;     ///< The latest generation issued in this slot...
        std::atomic<int32_t> issuer;      ///< ...and the process that issued it.
    };
    std::atomic<uint64_t> layout;
    std::atomic<uint32_t> exported;     ///< 1 until the exporter destroys the event.
    std::atomic<uint32_t> completions;  ///< Futex word: advanced by every completion.
    std::atomic<int32_t> exporterPid;
    std::atomic<uint64_t> latest;  ///< The latest generation issued, by any process.
    Slot slots[kSlots];
};

namespace {

using Shared = IpcEventState::Shared;

static_assert(std::atomic<uint64_t>::is_always_lock_free && std::atomic<uint32_t>::is_always_lock_free &&
                  std::atomic<int32_t>::is_always_lock_free,
              "IPC event state is shared between processes through lock-free atomics");
static_assert(std::is_standard_layout_v<Shared>, "every process reads the same layout");

/// Identifies the layout (and its version) of an initialised shared object.
constexpr uint64_t kLayoutMagic = 0x31'56'45'43'50'49'43'41ULL;  // "ACIPCEV1"
/// What an aclrtIpcEventHandle starts with.
constexpr char kHandleTag[16] = "aclcpu-ipc-evt2";
/// How often a host waiter checks that a pending record's process still lives.
constexpr auto kLivenessInterval = std::chrono::milliseconds(20);

/// The bytes of an aclrtIpcEventHandle (the rest is zero).
struct HandleBytes {
    char tag[16];
    IpcEventState::Key key;
};
static_assert(sizeof(HandleBytes) <= sizeof(aclrtIpcEventHandle), "an IPC event key fits CANN's handle");

std::string object_name(const IpcEventState::Key& key) {
    char name[64];
    std::snprintf(name, sizeof name, "/aclcpu-ipc-event-%d-%u-%016llx", key.pid, key.serial,
                  static_cast<unsigned long long>(key.nonce));
    return name;
}

bool process_alive(int32_t pid) noexcept { return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM); }

/// The shared objects this process exported and has not unlinked yet: the
/// exit handler unlinks them, so that a process that exits without
/// destroying its IPC events leaves no object behind.  A forked child
/// inherits the list but unlinks only what it exported itself.  Never
/// destroyed: events may be destroyed during static destruction.
class ExportedObjects {
public:
    static ExportedObjects& instance() {
        static ExportedObjects* const objects = new ExportedObjects();
        return *objects;
    }
    void add(const std::string& name) {
        std::lock_guard<std::mutex> lock(mutex_);
        owners_[name] = getpid();
    }
    void remove(const std::string& name) {
        std::lock_guard<std::mutex> lock(mutex_);
        owners_.erase(name);
    }

private:
    ExportedObjects() { std::atexit([] { instance().unlink_own(); }); }
    void unlink_own() {
        std::lock_guard<std::mutex> lock(mutex_);
        const pid_t self = getpid();
        for (const auto& [name, owner] : owners_) {
            if (owner == self) shm_unlink(name.c_str());
        }
        owners_.clear();
    }

    std::mutex mutex_;
    std::map<std::string, pid_t> owners_;
};

uint64_t random_nonce() {
    std::random_device source;
    return (static_cast<uint64_t>(source()) << 32) ^ source();
}

uint32_t next_serial() noexcept {
    static std::atomic<uint32_t> serial{0};
    return serial.fetch_add(1, std::memory_order_relaxed);
}

/// Maps an open shared object if it has the layout's size; nullptr otherwise.
Shared* map_object(int fd) {
    struct stat status {};
    if (fstat(fd, &status) != 0 || static_cast<size_t>(status.st_size) != sizeof(Shared)) return nullptr;
    void* mapping = mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    return mapping == MAP_FAILED ? nullptr : static_cast<Shared*>(mapping);
}

/// futex(2) on a word of a shared mapping: not FUTEX_PRIVATE_FLAG, so that
/// waiters and wakers of different processes meet.
void futex_wait(const std::atomic<uint32_t>& word, uint32_t seen, std::chrono::nanoseconds timeout) {
    timespec limit{};
    limit.tv_sec = static_cast<time_t>(timeout.count() / 1000000000);
    limit.tv_nsec = static_cast<long>(timeout.count() % 1000000000);
    syscall(SYS_futex, &word, FUTEX_WAIT, seen, &limit, nullptr, 0);
}

void futex_wake_all(std::atomic<uint32_t>& word) {
    syscall(SYS_futex, &word, FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

aclError gone_error(const char* api, const IpcEventState::Key& key) {
    return param_error(ACL_ERROR_RT_PARAM_INVALID,
                       "%s: the event of this handle has been destroyed, or the process that exported it (pid %d) "
                       "has exited",
                       api, key.pid);
}

/// Opens and maps the object of key; nullptr (reported) when it does not
/// exist, is not an initialised IPC event object, or its event is gone.  The
/// object of an exporter that died without cleaning up is unlinked here.
Shared* map_exported(const IpcEventState::Key& key, const char* api) {
    const std::string name = object_name(key);
    const int fd = shm_open(name.c_str(), O_RDWR, 0);
    if (fd < 0) {
        gone_error(api, key);
        return nullptr;
    }
    Shared* shared = map_object(fd);
    close(fd);
    if (shared == nullptr || shared->layout.load(std::memory_order_acquire) != kLayoutMagic) {
        if (shared != nullptr) munmap(shared, sizeof(Shared));
        param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: %s is not the shared state of an acl-cpu IPC event", api,
                    name.c_str());
        return nullptr;
    }
    const bool exporterAlive = process_alive(shared->exporterPid.load(std::memory_order_relaxed));
    if (!exporterAlive) shm_unlink(name.c_str());
    if (!exporterAlive || shared->exported.load(std::memory_order_acquire) == 0) {
        munmap(shared, sizeof(Shared));
        gone_error(api, key);
        return nullptr;
    }
    return shared;
}

}  // namespace

aclError IpcEventState::create(const char* api, std::shared_ptr<IpcEventState>& state) {
    const Key key{static_cast<int32_t>(getpid()), next_serial(), random_nonce()};
    const std::string name = object_name(key);
    const int fd = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
        return runtime_error(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "%s: cannot create the shared state of an IPC event: %s",
                             api, std::strerror(errno));
    }
    Shared* shared = ftruncate(fd, sizeof(Shared)) == 0 ? map_object(fd) : nullptr;
    const int mapError = errno;
    close(fd);
    if (shared == nullptr) {
        shm_unlink(name.c_str());
        return runtime_error(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "%s: cannot map the shared state of an IPC event: %s",
                             api, std::strerror(mapError));
    }
    shared->exporterPid.store(key.pid, std::memory_order_relaxed);
    shared->exported.store(1, std::memory_order_relaxed);
    shared->layout.store(kLayoutMagic, std::memory_order_release);
    ExportedObjects::instance().add(name);
    state.reset(new IpcEventState(key, shared, true));
    return ACL_SUCCESS;
}

aclError IpcEventState::open(const aclrtIpcEventHandle& handle, const char* api,
                             std::shared_ptr<IpcEventState>& state) {
    HandleBytes bytes{};
    std::memcpy(&bytes, handle.reserved, sizeof bytes);
    if (std::memcmp(bytes.tag, kHandleTag, sizeof bytes.tag) != 0) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: the handle was not made by aclrtIpcGetEventHandle", api);
    }
    Shared* shared = map_exported(bytes.key, api);
    if (shared == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    state.reset(new IpcEventState(bytes.key, shared, false));
    return ACL_SUCCESS;
}

IpcEventState::~IpcEventState() {
    withdraw();
    // An exporter killed before its exit handler ran left its object behind;
    // an opener that outlives it removes it.
    if (!exporter_ && !process_alive(shared_->exporterPid.load(std::memory_order_relaxed))) {
        shm_unlink(object_name(key_).c_str());
    }
    munmap(shared_, sizeof(Shared));
}

aclrtIpcEventHandle IpcEventState::handle() const {
    HandleBytes bytes{};
    std::memcpy(bytes.tag, kHandleTag, sizeof bytes.tag);
    bytes.key = key_;
    aclrtIpcEventHandle handle{};
    std::memcpy(handle.reserved, &bytes, sizeof bytes);
    return handle;
}

void IpcEventState::withdraw() {
    if (!exporter_ || shared_->exported.exchange(0, std::memory_order_acq_rel) == 0) return;
    const std::string name = object_name(key_);
    shm_unlink(name.c_str());
    ExportedObjects::instance().remove(name);
}

uint64_t IpcEventState::record(LaneProgress& progress, uint64_t place) {
    const uint64_t generation = shared_->latest.fetch_add(1, std::memory_order_acq_rel) + 1;
    Shared::Slot& slot = shared_->slots[generation % kSlots];
    slot.issuer.store(static_cast<int32_t>(getpid()), std::memory_order_relaxed);
    slot.issued.store(generation, std::memory_order_release);
    // Holds the mapping until the record completes, even if the event is
    // destroyed first.  The watcher is poked for this process's stream waits;
    // other processes' watchers find the completion when they re-test.
    progress.when_reached(place + 1, [state = shared_from_this(), generation] {
        state->complete(generation);
        ConditionWatcher::instance().poke();
    });
    return generation;
}

uint64_t IpcEventState::latest() const noexcept { return shared_->latest.load(std::memory_order_acquire); }

bool IpcEventState::is_complete(uint64_t generation) const noexcept {
    const Shared::Slot& slot = shared_->slots[generation % kSlots];
    return generation == 0 || slot.completed.load(std::memory_order_acquire) >= generation;
}

bool IpcEventState::may_complete(uint64_t generation) const noexcept {
    if (is_complete(generation)) return true;
    const Shared::Slot& slot = shared_->slots[generation % kSlots];
    // The issuer is known only once the slot names this generation; until
    // then (an instant after the issue) the record counts as live.
    if (slot.issued.load(std::memory_order_acquire) != generation) return true;
    const int32_t issuer = slot.issuer.load(std::memory_order_relaxed);
    // A completion published just before the issuer exited is not abandoned.
    return issuer == getpid() || process_alive(issuer) || is_complete(generation);
}

void IpcEventState::complete(uint64_t generation) noexcept {
    std::atomic<uint64_t>& completed = shared_->slots[generation % kSlots].completed;
    uint64_t current = completed.load(std::memory_order_relaxed);
    while (current < generation &&
           !completed.compare_exchange_weak(current, generation, std::memory_order_seq_cst,
                                            std::memory_order_relaxed)) {
    }
    shared_->completions.fetch_add(1, std::memory_order_seq_cst);
    futex_wake_all(shared_->completions);
}

IpcEventState::WaitResult IpcEventState::wait(uint64_t generation, Clock::time_point deadline) const {
    while (true) {
        // Read before testing: a completion after the test changes the word,
        // so the futex wait below returns at once instead of sleeping past it.
        const uint32_t seen = shared_->completions.load(std::memory_order_seq_cst);
        if (is_complete(generation)) return WaitResult::kComplete;
        if (!may_complete(generation)) return WaitResult::kAbandoned;
        const Clock::time_point now = Clock::now();
        if (now >= deadline) return WaitResult::kTimedOut;
        const auto slice = std::min<Clock::duration>(deadline - now, kLivenessInterval);
        futex_wait(shared_->completions, seen, std::chrono::duration_cast<std::chrono::nanoseconds>(slice));
    }
}

void enqueue_ipc_event_wait(Stream& waiter, const std::shared_ptr<Event>& event, std::chrono::milliseconds timeout,
                            const char* task) {
    std::shared_ptr<IpcEventState> state = event->ipc_state();
    const uint64_t generation = state->latest();
    if (generation == 0) return;  // Never recorded: nothing to wait for.
    StreamLane& lane = waiter.lane();
    const uint64_t place = lane.reserve();
    if (instrument::active()) {
        waiter.announce(place, plain_work(task, "event_wait"));
        instrument::notify([&](instrument::Observer& o) { o.on_event_wait(&waiter, place, event.get()); });
    }
    WaitCondition condition;
    // Runs on the watcher thread only, while the place is held: the lane
    // outlives the call.
    condition.try_pass = [state = std::move(state), generation, lane = &lane, place, task] {
        if (state->is_complete(generation)) return true;
        if (state->may_complete(generation)) return false;
        lane->fail(ACL_ERROR_RT_IPC_ERROR, place, task,
                   "the process that recorded the IPC event exited before the record completed");
        return true;
    };
    condition.timeout = timeout;
    condition.polls = true;
    condition.task = task;
    ConditionWatcher::instance().wait_at(lane, place, std::move(condition));
}

}  // namespace aclcpu::detail
