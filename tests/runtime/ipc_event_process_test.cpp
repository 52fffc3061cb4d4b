// IPC events between two processes, as CANN's docs/zh/api_ref/07_event_management.md
// describes them (aclrtIpcGetEventHandle, aclrtIpcOpenEventHandle,
// aclrtCreateEventExWithFlag with ACL_EVENT_IPC): process A creates the event
// and exports its handle; process B opens the handle, makes its streams wait
// for A's record and records the event itself, which A observes.
//
// The second process is this test binary again, started with posix_spawn and
// ACLCPU_IPC_EVENT_PEER naming its part: a constructor runs that part before
// main() and exits, so the peer never enters GoogleTest.  Test and peer talk
// through two pipes (one byte per step), which orders their steps without
// sleeping; every read is bounded, so a runtime that hangs fails the test.
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "runtime/runtime_test_support.hpp"

extern char** environ;

namespace aclcpu::test {
namespace {

constexpr const char* kPeerVariable = "ACLCPU_IPC_EVENT_PEER";
constexpr const char* kHandleVariable = "ACLCPU_IPC_EVENT_HANDLE";
constexpr const char* kToTestVariable = "ACLCPU_IPC_EVENT_TO_TEST";
constexpr const char* kFromTestVariable = "ACLCPU_IPC_EVENT_FROM_TEST";

// Steps, one byte each on a pipe.
constexpr char kPeerWaits = 'W';         // B: my stream waits for the event.
constexpr char kGateOpens = 'G';         // A: my record is about to complete.
constexpr char kPeerRecorded = 'r';      // B: I recorded the event on my held stream.
constexpr char kReleasePeer = 'R';       // A: let your record complete.
constexpr char kHandleFollows = 'H';     // B: my exported handle follows.

/// Reads one byte within timeoutMs; '\0' on timeout, end of file or error.
char read_step(int fd, int timeoutMs) {
    pollfd ready{fd, POLLIN, 0};
    if (poll(&ready, 1, timeoutMs) != 1) return '\0';
    char step = '\0';
    return read(fd, &step, 1) == 1 ? step : '\0';
}

bool write_step(int fd, char step) { return write(fd, &step, 1) == 1; }

bool read_exactly(int fd, void* data, size_t size, int timeoutMs) {
    auto* bytes = static_cast<char*>(data);
    for (size_t done = 0; done < size;) {
        pollfd ready{fd, POLLIN, 0};
        if (poll(&ready, 1, timeoutMs) != 1) return false;
        const ssize_t got = read(fd, bytes + done, size - done);
        if (got <= 0) return false;
        done += static_cast<size_t>(got);
    }
    return true;
}

std::string to_hex(const aclrtIpcEventHandle& handle) {
    std::string hex;
    char digits[3];
    for (char byte : handle.reserved) {
        std::snprintf(digits, sizeof digits, "%02x", static_cast<unsigned char>(byte));
        hex += digits;
    }
    return hex;
}

aclrtIpcEventHandle from_hex(const char* hex) {
    aclrtIpcEventHandle handle{};
    for (size_t i = 0; i < sizeof handle.reserved && hex[2 * i] != '\0' && hex[2 * i + 1] != '\0'; ++i) {
        const char digits[3] = {hex[2 * i], hex[2 * i + 1], '\0'};
        handle.reserved[i] = static_cast<char>(std::strtoul(digits, nullptr, 16));
    }
    return handle;
}

/// A host function that holds its stream until a byte arrives on `fd`
/// (bounded by kBoundedWaitMs, so a broken runtime cannot hang the test).
void hold_until_byte(void* fd) { read_step(static_cast<int>(reinterpret_cast<intptr_t>(fd)), kBoundedWaitMs); }

aclError hold_stream_on(aclrtStream stream, int fd) {
    return aclrtLaunchHostFunc(stream, hold_until_byte, reinterpret_cast<void*>(static_cast<intptr_t>(fd)));
}

// ---------------------------------------------------------------------------
// The peer (process B).  Exit codes name the step that went wrong.

enum PeerExit : int {
    kPeerOk = 0,
    kPeerSetupFailed = 10,
    kPeerOpenFailed,
    kPeerWaitFailed,
    kPeerWaitDidNotWait,
    kPeerRecordFailed,
    kPeerEventNotComplete,
    kPeerOpenNotRefused,
    kPeerExportFailed,
    kPeerTalkFailed,
};

struct PeerPipes {
    int toTest = -1;
    int fromTest = -1;
};

/// Set by the host function behind B's wait: whether A had already said its
/// gate opens when B's stream got past the wait.
std::atomic<int> gGateWasOpenBehindWait{-1};

void note_gate_behind_wait(void* fd) {
    pollfd ready{static_cast<int>(reinterpret_cast<intptr_t>(fd)), POLLIN, 0};
    gGateWasOpenBehindWait.store(poll(&ready, 1, 0) == 1 ? 1 : 0);
}

/// B: waits on A's record, then records the event on its own held stream.
int peer_wait_then_record(const PeerPipes& pipes, const aclrtIpcEventHandle& handle) {
    aclrtStream stream = nullptr;
    if (aclrtCreateStream(&stream) != ACL_SUCCESS) return kPeerSetupFailed;
    aclrtEvent opened = nullptr;
    if (aclrtIpcOpenEventHandle(handle, &opened) != ACL_SUCCESS) return kPeerOpenFailed;
    if (aclrtStreamWaitEvent(stream, opened) != ACL_SUCCESS) return kPeerWaitFailed;
    const auto fromTest = reinterpret_cast<void*>(static_cast<intptr_t>(pipes.fromTest));
    if (aclrtLaunchHostFunc(stream, note_gate_behind_wait, fromTest) != ACL_SUCCESS) return kPeerSetupFailed;
    if (!write_step(pipes.toTest, kPeerWaits)) return kPeerTalkFailed;
    if (aclrtSynchronizeStreamWithTimeout(stream, kBoundedWaitMs) != ACL_SUCCESS) return kPeerWaitFailed;
    if (gGateWasOpenBehindWait.load() != 1) return kPeerWaitDidNotWait;
    if (read_step(pipes.fromTest, kBoundedWaitMs) != kGateOpens) return kPeerTalkFailed;

    if (hold_stream_on(stream, pipes.fromTest) != ACL_SUCCESS) return kPeerSetupFailed;
    if (aclrtRecordEvent(opened, stream) != ACL_SUCCESS) return kPeerRecordFailed;
    if (!write_step(pipes.toTest, kPeerRecorded)) return kPeerTalkFailed;
    if (aclrtSynchronizeEventWithTimeout(opened, kBoundedWaitMs) != ACL_SUCCESS) return kPeerRecordFailed;
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    if (aclrtQueryEventStatus(opened, &status) != ACL_SUCCESS || status != ACL_EVENT_RECORDED_STATUS_COMPLETE) {
        return kPeerEventNotComplete;
    }
    if (aclrtDestroyEvent(opened) != ACL_SUCCESS || aclrtDestroyStream(stream) != ACL_SUCCESS) {
        return kPeerSetupFailed;
    }
    return kPeerOk;
}

/// B: the handle must not open, with CANN's parameter error and a message.
int peer_open_is_refused(const aclrtIpcEventHandle& handle) {
    aclrtEvent opened = nullptr;
    const aclError status = aclrtIpcOpenEventHandle(handle, &opened);
    const char* message = aclGetRecentErrMsg();
    if (status != ACL_ERROR_RT_PARAM_INVALID || message == nullptr || message[0] == '\0') return kPeerOpenNotRefused;
    return kPeerOk;
}

/// B as an exporter: creates an IPC event, optionally records it on a
/// stream held until the test writes (or dies), and sends the handle.
/// Returns without destroying the event.
int peer_export(const PeerPipes& pipes, bool recordHeld) {
    aclrtEvent event = nullptr;
    if (aclrtCreateEventExWithFlag(&event, ACL_EVENT_IPC) != ACL_SUCCESS) return kPeerExportFailed;
    if (recordHeld) {
        aclrtStream stream = nullptr;
        if (aclrtCreateStream(&stream) != ACL_SUCCESS || hold_stream_on(stream, pipes.fromTest) != ACL_SUCCESS ||
            aclrtRecordEvent(event, stream) != ACL_SUCCESS) {
            return kPeerExportFailed;
        }
    }
    aclrtIpcEventHandle handle{};
    if (aclrtIpcGetEventHandle(event, &handle) != ACL_SUCCESS) return kPeerExportFailed;
    if (!write_step(pipes.toTest, kHandleFollows) || write(pipes.toTest, &handle, sizeof handle) != sizeof handle) {
        return kPeerTalkFailed;
    }
    // Stays until the test says so (or kills this process).
    read_step(pipes.fromTest, kBoundedWaitMs);
    return kPeerOk;
}

int run_peer(const std::string& part, const PeerPipes& pipes, const aclrtIpcEventHandle& handle) {
    if (part == "wait-then-record") return peer_wait_then_record(pipes, handle);
    if (part == "open-is-refused") return peer_open_is_refused(handle);
    if (part == "export") return peer_export(pipes, false);
    if (part == "export-held-record") return peer_export(pipes, true);
    return kPeerSetupFailed;
}

/// Runs the peer's part when this process was started as one, then exits:
/// through aclFinalize and exit(), so the runtime's exit path runs too.
__attribute__((constructor)) void run_as_peer_when_asked() {
    const char* part = std::getenv(kPeerVariable);
    if (part == nullptr) return;
    PeerPipes pipes;
    pipes.toTest = std::atoi(std::getenv(kToTestVariable));
    pipes.fromTest = std::atoi(std::getenv(kFromTestVariable));
    const char* hex = std::getenv(kHandleVariable);
    const aclrtIpcEventHandle handle = from_hex(hex != nullptr ? hex : "");
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) std::exit(kPeerSetupFailed);
    const int code = run_peer(part, pipes, handle);
    aclrtResetDevice(0);
    aclFinalize();
    std::exit(code);
}

// ---------------------------------------------------------------------------
// The test's side (process A).

/// A peer process and the test's ends of its pipes.
class Peer {
public:
    /// Starts this binary as the peer doing `part`, handing it `handle`.
    Peer(const std::string& part, const aclrtIpcEventHandle& handle) {
        // A peer that failed early has closed its pipes: writing to them must
        // fail the test's step, not kill the test with SIGPIPE.
        std::signal(SIGPIPE, SIG_IGN);
        int toTest[2];
        int fromTest[2];
        if (pipe(toTest) != 0 || pipe(fromTest) != 0) return;
        std::vector<std::string> settings = {std::string(kPeerVariable) + "=" + part,
                                             std::string(kHandleVariable) + "=" + to_hex(handle),
                                             std::string(kToTestVariable) + "=" + std::to_string(toTest[1]),
                                             std::string(kFromTestVariable) + "=" + std::to_string(fromTest[0])};
        std::vector<char*> environment;
        for (std::string& setting : settings) environment.push_back(setting.data());
        for (char** inherited = environ; *inherited != nullptr; ++inherited) environment.push_back(*inherited);
        environment.push_back(nullptr);
        char name[] = "ipc_event_peer";
        char* arguments[] = {name, nullptr};
        started_ = posix_spawn(&pid_, "/proc/self/exe", nullptr, nullptr, arguments, environment.data()) == 0;
        close(toTest[1]);
        close(fromTest[0]);
        fromPeer_ = toTest[0];
        toPeer_ = fromTest[1];
    }
    ~Peer() {
        if (started_ && !reaped_) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
        close(fromPeer_);
        close(toPeer_);
    }
    Peer(const Peer&) = delete;
    Peer& operator=(const Peer&) = delete;

    bool started() const { return started_; }
    char read(int timeoutMs = kBoundedWaitMs) const { return read_step(fromPeer_, timeoutMs); }
    bool write(char step) const { return write_step(toPeer_, step); }
    /// The handle the peer exported (after its kHandleFollows).
    bool read_handle(aclrtIpcEventHandle& handle) const {
        return read() == kHandleFollows && read_exactly(fromPeer_, &handle, sizeof handle, kBoundedWaitMs);
    }
    void kill_now() const { kill(pid_, SIGKILL); }
    /// The peer's exit code, or -1 if it did not exit normally.
    int wait_for_exit() {
        int status = 0;
        if (!started_ || waitpid(pid_, &status, 0) != pid_) return -1;
        reaped_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

private:
    pid_t pid_ = -1;
    bool started_ = false;
    bool reaped_ = false;
    int fromPeer_ = -1;
    int toPeer_ = -1;
};

/// A pipe whose read end holds a stream (hold_stream_on) until release().
class StreamHold {
public:
    StreamHold() { pipeOk_ = pipe(ends_) == 0; }
    ~StreamHold() {
        release();
        if (pipeOk_) {
            close(ends_[0]);
            close(ends_[1]);
        }
    }
    aclError hold(aclrtStream stream) const { return hold_stream_on(stream, ends_[0]); }
    void release() {
        if (pipeOk_ && !released_) released_ = write_step(ends_[1], '.');
    }

private:
    int ends_[2] = {-1, -1};
    bool pipeOk_ = false;
    bool released_ = false;
};

aclrtEventRecordedStatus recorded_status(aclrtEvent event) {
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    EXPECT_ACL_OK(aclrtQueryEventStatus(event, &status));
    return status;
}

using IpcEventProcessTest = RuntimeTest;

// aclrtIpcGetEventHandle's flow: A creates the event with ACL_EVENT_IPC and
// records it, B opens the handle and aclrtStreamWaitEvent blocks B's stream
// until the event completes.  B then records the opened event, and A sees
// that record: its query, its stream's wait and its synchronisation follow B.
TEST_F(IpcEventProcessTest, StreamOfAnotherProcessWaitsForTheRecordAndRecordsBack) {
    Stream stream;
    StreamHold hold;
    aclrtEvent event = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&event, ACL_EVENT_IPC));
    ASSERT_ACL_OK(hold.hold(stream.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(event, stream.get()));
    aclrtIpcEventHandle handle{};
    ASSERT_ACL_OK(aclrtIpcGetEventHandle(event, &handle));

    Peer peer("wait-then-record", handle);
    ASSERT_TRUE(peer.started());
    ASSERT_EQ(kPeerWaits, peer.read());
    EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_NOT_READY, recorded_status(event));
    // Gives a wait that does not wait the time to run past it, so that the
    // peer sees the gate still closed (not a timing assertion: a correct
    // runtime passes whatever the delay).
    std::this_thread::sleep_for(std::chrono::milliseconds(kAbsenceWindowMs));
    ASSERT_TRUE(peer.write(kGateOpens)) << "the peer exited with " << peer.wait_for_exit();
    hold.release();

    ASSERT_EQ(kPeerRecorded, peer.read()) << "the peer exited with " << peer.wait_for_exit();
    // B's record is now the event's latest, and B's stream holds it.
    EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_NOT_READY, recorded_status(event));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(stream.get(), event));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kAbsenceWindowMs),
                     ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_TRUE(peer.write(kReleasePeer));
    EXPECT_ACL_OK(aclrtSynchronizeEventWithTimeout(event, kBoundedWaitMs));
    EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, recorded_status(event));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs));
    EXPECT_EQ(kPeerOk, peer.wait_for_exit());
    EXPECT_ACL_OK(aclrtDestroyEvent(event));
}

// aclrtIpcOpenEventHandle takes a handle of aclrtIpcGetEventHandle: once the
// exporter has destroyed the event there is nothing to open, in any process.
TEST_F(IpcEventProcessTest, HandleOfADestroyedEventDoesNotOpen) {
    aclrtEvent event = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&event, ACL_EVENT_IPC));
    aclrtIpcEventHandle handle{};
    ASSERT_ACL_OK(aclrtIpcGetEventHandle(event, &handle));
    {
        Peer opensWhileLive("open-is-refused", handle);
        ASSERT_TRUE(opensWhileLive.started());
        EXPECT_EQ(kPeerOpenNotRefused, opensWhileLive.wait_for_exit());  // The handle opens while the event lives.
    }
    ASSERT_ACL_OK(aclrtDestroyEvent(event));
    Peer opensAfterDestroy("open-is-refused", handle);
    ASSERT_TRUE(opensAfterDestroy.started());
    EXPECT_EQ(kPeerOk, opensAfterDestroy.wait_for_exit());
    aclrtEvent opened = nullptr;
    EXPECT_ACL_FAILS(aclrtIpcOpenEventHandle(handle, &opened), ACL_ERROR_RT_PARAM_INVALID);
}

// An exporter that exits (normally, or killed) takes its events with it:
// their handles no longer open, with an error and a message, never a hang.
TEST_F(IpcEventProcessTest, HandleOfAnExporterThatHasGoneDoesNotOpen) {
    const aclrtIpcEventHandle none{};
    for (const bool killed : {false, true}) {
        SCOPED_TRACE(killed ? "exporter killed" : "exporter exited");
        Peer exporter("export", none);
        ASSERT_TRUE(exporter.started());
        aclrtIpcEventHandle handle{};
        ASSERT_TRUE(exporter.read_handle(handle));
        aclrtEvent opened = nullptr;
        ASSERT_ACL_OK(aclrtIpcOpenEventHandle(handle, &opened));  // Live exporter: opens.
        ASSERT_ACL_OK(aclrtDestroyEvent(opened));
        if (killed) {
            exporter.kill_now();
            EXPECT_EQ(-1, exporter.wait_for_exit());
        } else {
            ASSERT_TRUE(exporter.write(kReleasePeer));
            EXPECT_EQ(kPeerOk, exporter.wait_for_exit());
        }
        EXPECT_ACL_FAILS(aclrtIpcOpenEventHandle(handle, &opened), ACL_ERROR_RT_PARAM_INVALID);
    }
}

// A record whose process dies before it completes can never complete: a
// stream waiting for it fails, and so does a host synchronising with it,
// instead of waiting forever.
TEST_F(IpcEventProcessTest, RecordOfAProcessThatDiedFailsItsWaiters) {
    const aclrtIpcEventHandle none{};
    Peer exporter("export-held-record", none);
    ASSERT_TRUE(exporter.started());
    aclrtIpcEventHandle handle{};
    ASSERT_TRUE(exporter.read_handle(handle));
    aclrtEvent opened = nullptr;
    ASSERT_ACL_OK(aclrtIpcOpenEventHandle(handle, &opened));
    Stream stream;
    ASSERT_ACL_OK(aclrtStreamWaitEvent(stream.get(), opened));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kAbsenceWindowMs),
                     ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    exporter.kill_now();
    EXPECT_EQ(-1, exporter.wait_for_exit());
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(stream.get(), kBoundedWaitMs), ACL_ERROR_RT_IPC_ERROR);
    EXPECT_ACL_FAILS(aclrtSynchronizeEventWithTimeout(opened, kBoundedWaitMs), ACL_ERROR_RT_IPC_ERROR);
    EXPECT_ACL_OK(aclrtDestroyEvent(opened));
}

// aclrtIpcOpenEventHandle: "必须先调用aclrtIpcGetEventHandle接口获取指定Event的句柄":
// bytes that are no such handle are refused with a message.
TEST_F(IpcEventProcessTest, GarbageHandlesAreRefused) {
    aclrtEvent opened = nullptr;
    aclrtIpcEventHandle garbage;
    std::memset(&garbage, 0x41, sizeof garbage);
    EXPECT_ACL_FAILS(aclrtIpcOpenEventHandle(garbage, &opened), ACL_ERROR_RT_PARAM_INVALID);
    const aclrtIpcEventHandle zeros{};
    EXPECT_ACL_FAILS(aclrtIpcOpenEventHandle(zeros, &opened), ACL_ERROR_RT_PARAM_INVALID);

    // A real handle with its tail altered names no event.
    aclrtEvent event = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&event, ACL_EVENT_IPC));
    aclrtIpcEventHandle handle{};
    ASSERT_ACL_OK(aclrtIpcGetEventHandle(event, &handle));
    for (size_t byte = 16; byte < 32; ++byte) {
        aclrtIpcEventHandle altered = handle;
        altered.reserved[byte] = static_cast<char>(altered.reserved[byte] ^ 0x5a);
        EXPECT_ACL_FAILS(aclrtIpcOpenEventHandle(altered, &opened), ACL_ERROR_RT_PARAM_INVALID) << "byte " << byte;
    }
    ASSERT_ACL_OK(aclrtDestroyEvent(event));
}

}  // namespace
}  // namespace aclcpu::test
