// The stream race checker (ACLCPU_CHECK=race).  The first part drives the
// observer through its interface with made-up streams, events and addresses
// (the checker never dereferences them); the second runs real API calls with
// the checker installed.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "aclcpu/instrumentation.hpp"
#include "aclcpu/device_task.hpp"
#include "aclcpu/testing.hpp"
#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using instrument::EventId;
using instrument::MemoryAccess;
using instrument::Observer;
using instrument::StreamId;
using instrument::WorkInfo;

constexpr uintptr_t kBase = 0x7f0000000000;
constexpr int32_t kDevice = 0;

const void* address(uintptr_t offset) { return reinterpret_cast<const void*>(kBase + offset); }

MemoryAccess read(uintptr_t offset, uint64_t bytes, const char* role) {
    return MemoryAccess{address(offset), bytes, MemoryAccess::Kind::kRead, role};
}

MemoryAccess write(uintptr_t offset, uint64_t bytes, const char* role) {
    return MemoryAccess{address(offset), bytes, MemoryAccess::Kind::kWrite, role};
}

/// "0x..." as the checker prints an address.
std::string hex(uintptr_t offset) {
    char text[32];
    std::snprintf(text, sizeof(text), "0x%" PRIxPTR, kBase + offset);
    return text;
}

size_t count_of(const std::string& text, const std::string& needle) {
    size_t count = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
    return count;
}

/// Plays a host program against a non-fatal checker, the way the runtime's
/// hooks would: each call is one API call of the host, and every stream
/// numbers its places from 0.
class RaceCheckerUnit : public ::testing::Test {
protected:
    const StreamId streamA = reinterpret_cast<StreamId>(uintptr_t{0xa000});
    const StreamId streamB = reinterpret_cast<StreamId>(uintptr_t{0xb000});
    const EventId event = reinterpret_cast<EventId>(uintptr_t{0xe000});

    /// Enqueues work named `name` by API `api` on stream; returns its place.
    uint64_t submit(StreamId stream, const char* api, const char* name, std::initializer_list<MemoryAccess> accesses,
                    const char* category = "op") {
        const uint64_t place = places_[stream]++;
        WorkInfo work;
        work.name = name;
        work.category = category;
        work.accesses = accesses.begin();
        work.accessCount = accesses.size();
        in_api(api, [&] { checker_->on_submit(kDevice, stream, place, work); });
        return place;
    }

    uint64_t op(StreamId stream, const char* name, std::initializer_list<MemoryAccess> accesses) {
        return submit(stream, name, name, accesses);
    }

    void record(StreamId stream) {
        const uint64_t place = submit(stream, "aclrtRecordEvent", "aclrtRecordEvent", {}, "event_record");
        checker_->on_event_record(event, stream, place);
    }

    void wait(StreamId stream) {
        const uint64_t place = submit(stream, "aclrtStreamWaitEvent", "aclrtStreamWaitEvent", {}, "event_wait");
        checker_->on_event_wait(stream, place, event);
    }

    /// aclrtSynchronizeStream: the host has waited for everything submitted.
    void synchronize(StreamId stream) {
        in_api("aclrtSynchronizeStream", [&] { checker_->on_host_waited_stream(stream, places_[stream] - 1); });
    }

    void host(const char* api, const MemoryAccess& access) {
        in_api(api, [&] { checker_->on_host_access(access, api); });
    }

    void free(uintptr_t offset, uint64_t bytes) {
        in_api("aclrtFree", [&] { checker_->on_free(address(offset), bytes); });
    }

    /// What the checker printed while fn ran.
    template <typename Fn>
    std::string reports(Fn&& fn) {
        ::testing::internal::CaptureStderr();
        fn();
        return ::testing::internal::GetCapturedStderr();
    }

    std::shared_ptr<Observer> checker_ = aclcpu::testing::make_race_checker(false);

private:
    template <typename Fn>
    void in_api(const char* api, Fn&& fn) {
        checker_->on_api_begin(api);
        fn();
        checker_->on_api_end(api);
    }

    std::map<StreamId, uint64_t> places_;
};

TEST_F(RaceCheckerUnit, OperatorsOnTwoStreamsRace) {
    const std::string text = reports([&] {
        op(streamA, "aclnnSoftplusBackward", {read(0, 1024, "input 0"), write(4096, 1024, "output 0")});
        op(streamB, "aclnnLogitGrad", {read(4096 + 512, 1024, "input 1"), write(8192, 1024, "output 0")});
    });
    EXPECT_EQ(0u, text.find("acl-cpu: data race on device memory bytes [" + hex(4096 + 512) + ", " + hex(5120) +
                            ") (512 bytes)\n"))
        << text;
    EXPECT_NE(std::string::npos, text.find("earlier: write by aclnnSoftplusBackward (output 0) to [" + hex(4096) +
                                           ", " + hex(5120) + ") on stream 0xa000 (device 0, place 0), enqueued by "
                                                              "aclnnSoftplusBackward"))
        << text;
    EXPECT_NE(std::string::npos, text.find("later:   read by aclnnLogitGrad (input 1) of [" + hex(4608) + ", " +
                                           hex(5632) + ") on stream 0xb000 (device 0, place 0), enqueued by "
                                                       "aclnnLogitGrad"))
        << text;
    EXPECT_EQ(1u, count_of(text, "acl-cpu: data race"));
}

TEST_F(RaceCheckerUnit, OperatorAgainstAsyncCopyRaces) {
    const std::string text = reports([&] {
        op(streamA, "aclnnSoftplusBackward", {write(0, 256, "output 0")});
        submit(streamB, "aclrtMemcpyAsync", "aclrtMemcpyAsync", {read(0, 256, "src"), write(1024, 256, "dst")},
               "memcpy");
    });
    EXPECT_EQ(0u, text.find("acl-cpu: data race")) << text;
    EXPECT_NE(std::string::npos, text.find("later:   read by aclrtMemcpyAsync (src)")) << text;
    EXPECT_NE(std::string::npos, text.find("earlier: write by aclnnSoftplusBackward (output 0)")) << text;
}

TEST_F(RaceCheckerUnit, WriteAfterAnotherStreamsPendingReadRaces) {
    const std::string text = reports([&] {
        op(streamA, "aclnnLogitGrad", {read(0, 64, "input 0")});
        submit(streamB, "aclrtMemsetAsync", "aclrtMemsetAsync", {write(32, 64, "devPtr")}, "memset");
    });
    EXPECT_EQ(0u, text.find("acl-cpu: data race on device memory bytes [" + hex(32) + ", " + hex(64) + ")")) << text;
    EXPECT_NE(std::string::npos, text.find("earlier: read by aclnnLogitGrad (input 0)")) << text;
    EXPECT_NE(std::string::npos, text.find("later:   write by aclrtMemsetAsync (devPtr)")) << text;
}

TEST_F(RaceCheckerUnit, HostReadOfPendingWriteRaces) {
    const std::string text = reports([&] {
        op(streamA, "aclnnSoftplusBackward", {write(0, 512, "output 0")});
        host("aclrtMemcpy", read(128, 128, "src"));
    });
    EXPECT_EQ(0u, text.find("acl-cpu: data race on device memory bytes [" + hex(128) + ", " + hex(256) + ")")) << text;
    EXPECT_NE(std::string::npos,
              text.find("later:   read by aclrtMemcpy (src) of [" + hex(128) + ", " + hex(256) + ") on the host"))
        << text;
}

TEST_F(RaceCheckerUnit, HostWriteUnderPendingReadRaces) {
    const std::string text = reports([&] {
        op(streamA, "aclnnLogitGrad", {read(0, 512, "input 0")});
        host("aclrtMemset", write(0, 512, "devPtr"));
    });
    EXPECT_EQ(0u, text.find("acl-cpu: data race")) << text;
    EXPECT_NE(std::string::npos, text.find("later:   write by aclrtMemset (devPtr)")) << text;
}

TEST_F(RaceCheckerUnit, FreeWhileWorkIsPendingIsReported) {
    const std::string text = reports([&] {
        op(streamA, "aclnnSoftplusBackward", {read(0, 1024, "input 0")});
        op(streamB, "aclnnLogitGrad", {read(512, 256, "input 1")});
        free(0, 1024);
    });
    EXPECT_EQ(0u, text.find("acl-cpu: free of memory in use: aclrtFree(" + hex(0) + ")")) << text;
    EXPECT_EQ(1u, count_of(text, "acl-cpu:")) << text;
    EXPECT_NE(std::string::npos, text.find("still pending: read by aclnnSoftplusBackward (input 0)")) << text;
    EXPECT_NE(std::string::npos, text.find("still pending: read by aclnnLogitGrad (input 1)")) << text;
}

TEST_F(RaceCheckerUnit, WorkspaceReusedByAnotherStreamIsReported) {
    const std::string text = reports([&] {
        op(streamA, "aclnnSoftplusBackward", {write(0, 4096, "workspace")});
        op(streamB, "aclnnSoftplusBackward", {write(0, 4096, "workspace")});
    });
    EXPECT_EQ(0u, text.find("acl-cpu: data race on a workspace reused without synchronisation, bytes [" + hex(0) +
                            ", " + hex(4096) + ")"))
        << text;
    EXPECT_NE(std::string::npos, text.find("on stream 0xa000")) << text;
    EXPECT_NE(std::string::npos, text.find("on stream 0xb000")) << text;
}

TEST_F(RaceCheckerUnit, ReportNamesTheOutermostApiCall) {
    const std::string text = reports([&] {
        op(streamA, "aclnnSoftplusBackward", {write(0, 64, "output 0")});
        checker_->on_api_begin("aclnnLogitGrad");
        submit(streamB, "aclrtMemsetAsync", "aclrtMemsetAsync", {write(0, 64, "devPtr")}, "memset");
        checker_->on_api_end("aclnnLogitGrad");
    });
    EXPECT_NE(std::string::npos, text.find("write by aclrtMemsetAsync (devPtr) to [" + hex(0) + ", " + hex(64) +
                                           ") on stream 0xb000 (device 0, place 0), enqueued by aclnnLogitGrad"))
        << text;
}

TEST_F(RaceCheckerUnit, EventWaitOrdersTheStreams) {
    const std::string text = reports([&] {
        op(streamA, "aclnnSoftplusBackward", {write(0, 1024, "output 0")});
        record(streamA);
        wait(streamB);
        op(streamB, "aclnnLogitGrad", {read(0, 1024, "input 0"), write(2048, 1024, "output 0")});
        record(streamB);
        wait(streamA);
        op(streamA, "aclnnSoftplusBackward", {write(0, 1024, "output 0")});
    });
    EXPECT_EQ("", text);
}

TEST_F(RaceCheckerUnit, EventCoversOnlyWorkBeforeItsRecord) {
    const std::string text = reports([&] {
        record(streamA);
        op(streamA, "aclnnSoftplusBackward", {write(0, 1024, "output 0")});
        wait(streamB);
        op(streamB, "aclnnLogitGrad", {read(0, 1024, "input 0")});
    });
    EXPECT_EQ(1u, count_of(text, "acl-cpu: data race")) << text;
}

TEST_F(RaceCheckerUnit, ResetEventOrdersNothing) {
    const std::string text = reports([&] {
        op(streamA, "aclnnSoftplusBackward", {write(0, 1024, "output 0")});
        record(streamA);
        checker_->on_event_reset(event);
        wait(streamB);
        op(streamB, "aclnnLogitGrad", {read(0, 1024, "input 0")});
    });
    EXPECT_EQ(1u, count_of(text, "acl-cpu: data race")) << text;
}

TEST_F(RaceCheckerUnit, StreamSynchronisationOrdersEverythingAfterIt) {
    const std::string text = reports([&] {
        op(streamA, "aclnnSoftplusBackward", {read(4096, 1024, "input 0"), write(0, 1024, "output 0")});
        synchronize(streamA);
        host("aclrtMemcpy", read(0, 1024, "src"));
        op(streamB, "aclnnLogitGrad", {write(0, 1024, "output 0")});
        synchronize(streamB);
        free(0, 1024);
        free(4096, 1024);
    });
    EXPECT_EQ("", text);
}

TEST_F(RaceCheckerUnit, StreamSynchronisationUpToAPlaceCoversNothingLater) {
    const std::string text = reports([&] {
        op(streamA, "aclnnSoftplusBackward", {write(0, 64, "output 0")});
        op(streamA, "aclnnSoftplusBackward", {write(64, 64, "output 0")});
        checker_->on_host_waited_stream(streamA, 0);
        host("aclrtMemcpy", read(0, 64, "src"));
        host("aclrtMemcpy", read(64, 64, "src"));
    });
    EXPECT_EQ(1u, count_of(text, "acl-cpu: data race")) << text;
    EXPECT_NE(std::string::npos, text.find("later:   read by aclrtMemcpy (src) of [" + hex(64))) << text;
}

TEST_F(RaceCheckerUnit, SynchronisedStreamPassesOnWhatItWaitedFor) {
    const std::string text = reports([&] {
        op(streamA, "aclnnSoftplusBackward", {write(0, 1024, "output 0")});
        record(streamA);
        wait(streamB);
        synchronize(streamB);
        host("aclrtMemcpy", read(0, 1024, "src"));
        free(0, 1024);
    });
    EXPECT_EQ("", text);
}

TEST_F(RaceCheckerUnit, EventSynchronisationOrdersTheHost) {
    const std::string text = reports([&] {
        op(streamA, "aclnnSoftplusBackward", {write(0, 1024, "output 0")});
        record(streamA);
        op(streamA, "aclnnSoftplusBackward", {write(4096, 1024, "output 0")});
        checker_->on_host_waited_event(event);
        host("aclrtMemcpy", read(0, 1024, "src"));
        host("aclrtMemcpy", read(4096, 1024, "src"));
    });
    EXPECT_EQ(1u, count_of(text, "acl-cpu: data race")) << text;
    EXPECT_NE(std::string::npos, text.find("later:   read by aclrtMemcpy (src) of [" + hex(4096))) << text;
}

TEST_F(RaceCheckerUnit, DeviceSynchronisationOrdersEveryStreamOfTheDevice) {
    const std::string text = reports([&] {
        op(streamA, "aclnnSoftplusBackward", {write(0, 1024, "output 0")});
        op(streamB, "aclnnLogitGrad", {write(4096, 1024, "workspace")});
        checker_->on_host_waited_device(kDevice + 1);
        checker_->on_host_waited_device(kDevice);
        host("aclrtMemcpy", read(0, 1024, "src"));
        op(streamB, "aclnnLogitGrad", {read(0, 1024, "input 0")});
        op(streamA, "aclnnSoftplusBackward", {write(4096, 1024, "workspace")});
    });
    EXPECT_EQ("", text);
}

TEST_F(RaceCheckerUnit, HostAccessBeforeSubmissionHappensBefore) {
    const std::string text = reports([&] {
        host("aclrtMemcpy", write(0, 1024, "dst"));
        op(streamA, "aclnnSoftplusBackward", {read(0, 1024, "input 0")});
        op(streamB, "aclnnLogitGrad", {read(0, 1024, "input 0")});
    });
    EXPECT_EQ("", text);
}

TEST_F(RaceCheckerUnit, SameStreamAndDisjointBytesNeverRace) {
    const std::string text = reports([&] {
        op(streamA, "aclnnSoftplusBackward", {read(0, 1024, "input 0"), write(0, 1024, "output 0")});
        op(streamA, "aclnnSoftplusBackward", {write(0, 1024, "output 0")});
        op(streamB, "aclnnLogitGrad", {write(1024, 1024, "output 0")});
        op(streamB, "aclnnLogitGrad", {read(2048, 1024, "input 0")});
        op(streamA, "aclnnSoftplusBackward", {read(2048, 1024, "input 0")});
    });
    EXPECT_EQ("", text);
}

TEST_F(RaceCheckerUnit, FreedBytesStartAFreshHistory) {
    const std::string text = reports([&] {
        op(streamA, "aclnnSoftplusBackward", {write(0, 1024, "output 0")});
        synchronize(streamA);
        free(0, 1024);
        op(streamB, "aclnnLogitGrad", {write(0, 1024, "output 0")});
    });
    EXPECT_EQ("", text);
}

TEST_F(RaceCheckerUnit, ReadersPerRunAreCapped) {
    std::vector<StreamId> readers;
    for (uintptr_t i = 1; i <= 9; ++i) readers.push_back(reinterpret_cast<StreamId>(0x100 * i));
    const std::string text = reports([&] {
        for (StreamId reader : readers) op(reader, "aclnnLogitGrad", {read(0, 64, "input 0")});
        host("aclrtMemset", write(0, 64, "devPtr"));
    });
    // Nine unsynchronised readers, of which the eight latest are remembered.
    EXPECT_EQ(8u, count_of(text, "acl-cpu: data race")) << text;
    EXPECT_EQ(std::string::npos, text.find("on stream 0x100 ")) << text;
}

TEST(RaceCheckerFatal, FirstReportAborts) {
    const auto program = [] {
        auto checker = aclcpu::testing::make_race_checker(true);
        const auto a = reinterpret_cast<StreamId>(uintptr_t{0xa000});
        const auto b = reinterpret_cast<StreamId>(uintptr_t{0xb000});
        const MemoryAccess output = write(0, 64, "output 0");
        WorkInfo work;
        work.name = "aclnnSoftplusBackward";
        work.accesses = &output;
        work.accessCount = 1;
        checker->on_submit(kDevice, a, 0, work);
        checker->on_submit(kDevice, b, 0, work);
    };
    EXPECT_DEATH(program(), "acl-cpu: data race");
}

/// A stand-in for an operator: declares its accesses to observers and
/// touches nothing (the checker judges declarations, not bytes).
class DeclaredTask final : public DeviceTask {
public:
    aclError run() override { return ACL_SUCCESS; }
    const char* name() const noexcept override { return "aclnnPlanted"; }
};

/// Enqueues an "aclnnPlanted" operator with the given accesses on stream,
/// inside its API call as phase 2 of an operator would.
aclError launch_declared(aclrtStream stream, std::initializer_list<MemoryAccess> accesses) {
    const instrument::ApiScope scope("aclnnPlanted");
    WorkInfo work;
    work.name = "aclnnPlanted";
    work.category = "op";
    work.accesses = accesses.begin();
    work.accessCount = accesses.size();
    return instrument::enqueue(stream, std::make_unique<DeclaredTask>(), work);
}

MemoryAccess declared(const void* begin, uint64_t bytes, MemoryAccess::Kind kind, const char* role) {
    return MemoryAccess{begin, bytes, kind, role};
}

MemoryAccess declared(const DeviceBuffer& buffer, MemoryAccess::Kind kind, const char* role) {
    return declared(buffer.get(), buffer.size(), kind, role);
}

std::string stream_text(aclrtStream stream) {
    char text[32];
    std::snprintf(text, sizeof(text), "stream %p ", stream);
    return text;
}

/// Real API calls with a checker installed for the test (whatever
/// ACLCPU_CHECK says, so that reports are counted once).
class RaceCheckerRuntime : public RuntimeTest {
protected:
    void SetUp() override {
        RuntimeTest::SetUp();
        instrument::install(checker_);
    }
    void TearDown() override {
        EXPECT_ACL_OK(aclrtSynchronizeDevice());
        instrument::uninstall(checker_.get());
        RuntimeTest::TearDown();
    }

    /// What the checker printed while fn ran.
    template <typename Fn>
    std::string reports(Fn&& fn) {
        ::testing::internal::CaptureStderr();
        fn();
        return ::testing::internal::GetCapturedStderr();
    }

    static constexpr size_t kBytes = 4096;

private:
    ScopedEnv noEnvironmentChecker_{"ACLCPU_CHECK", std::nullopt};
    std::shared_ptr<Observer> checker_ = aclcpu::testing::make_race_checker(false);
};

TEST_F(RaceCheckerRuntime, OperatorAgainstCopyOnAnotherStream) {
    Stream compute;
    Stream copy;
    DeviceBuffer output(kBytes);
    DeviceBuffer snapshot(kBytes);
    const std::string text = reports([&] {
        EXPECT_ACL_OK(launch_declared(compute.get(), {declared(output, MemoryAccess::Kind::kWrite, "output 0")}));
        EXPECT_ACL_OK(aclrtMemcpyAsync(snapshot.get(), kBytes, output.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE,
                                       copy.get()));
        EXPECT_ACL_OK(aclrtSynchronizeDevice());
    });
    EXPECT_EQ(0u, text.find("acl-cpu: data race on device memory bytes")) << text;
    EXPECT_EQ(1u, count_of(text, "acl-cpu: data race")) << text;
    EXPECT_NE(std::string::npos, text.find("earlier: write by aclnnPlanted (output 0)")) << text;
    EXPECT_NE(std::string::npos, text.find("on " + stream_text(compute.get()))) << text;
    EXPECT_NE(std::string::npos, text.find("later:   read by aclrtMemcpyAsync (src)")) << text;
    EXPECT_NE(std::string::npos, text.find("on " + stream_text(copy.get()))) << text;
}

TEST_F(RaceCheckerRuntime, AsyncSetAgainstOperatorOnAnotherStream) {
    Stream first;
    Stream second;
    DeviceBuffer buffer(kBytes);
    const std::string text = reports([&] {
        EXPECT_ACL_OK(aclrtMemsetAsync(buffer.get(), kBytes, 0, kBytes, first.get()));
        EXPECT_ACL_OK(launch_declared(second.get(), {declared(buffer, MemoryAccess::Kind::kRead, "input 0")}));
        EXPECT_ACL_OK(aclrtSynchronizeDevice());
    });
    EXPECT_EQ(0u, text.find("acl-cpu: data race")) << text;
    EXPECT_NE(std::string::npos, text.find("earlier: write by aclrtMemsetAsync")) << text;
    EXPECT_NE(std::string::npos, text.find("later:   read by aclnnPlanted (input 0)")) << text;
    EXPECT_NE(std::string::npos, text.find("enqueued by aclnnPlanted")) << text;
}

TEST_F(RaceCheckerRuntime, HostCopyOfPendingResult) {
    Stream stream;
    DeviceBuffer buffer(kBytes);
    const std::string text = reports([&] {
        EXPECT_ACL_OK(launch_declared(stream.get(), {declared(buffer, MemoryAccess::Kind::kWrite, "output 0")}));
        buffer.read();
        EXPECT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    });
    EXPECT_EQ(0u, text.find("acl-cpu: data race")) << text;
    EXPECT_NE(std::string::npos, text.find("later:   read by aclrtMemcpy (src)")) << text;
    EXPECT_NE(std::string::npos, text.find("on the host, in aclrtMemcpy")) << text;
}

TEST_F(RaceCheckerRuntime, FreeOfMemoryAPendingOperatorReads) {
    Stream stream;
    void* input = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&input, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    const std::string text = reports([&] {
        EXPECT_ACL_OK(launch_declared(stream.get(), {declared(input, kBytes, MemoryAccess::Kind::kRead, "input 0")}));
        EXPECT_ACL_OK(aclrtFree(input));
        EXPECT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    });
    EXPECT_EQ(0u, text.find("acl-cpu: free of memory in use: aclrtFree(")) << text;
    EXPECT_NE(std::string::npos, text.find("still pending: read by aclnnPlanted (input 0)")) << text;
}

TEST_F(RaceCheckerRuntime, WorkspaceReusedByAnotherStream) {
    Stream first;
    Stream second;
    DeviceBuffer workspace(kBytes);
    const std::string text = reports([&] {
        EXPECT_ACL_OK(launch_declared(first.get(), {declared(workspace, MemoryAccess::Kind::kWrite, "workspace")}));
        EXPECT_ACL_OK(launch_declared(second.get(), {declared(workspace, MemoryAccess::Kind::kWrite, "workspace")}));
        EXPECT_ACL_OK(aclrtSynchronizeDevice());
    });
    EXPECT_EQ(0u, text.find("acl-cpu: data race on a workspace reused without synchronisation")) << text;
}

// 08_notify_management.md (aclrtRecordNotify / aclrtWaitAndResetNotify) and
// 11-09 (aclrtValueWrite / aclrtValueWait): a stream's wait for another
// stream's notify record or value write orders the two streams, as an event
// wait does; without the wait the same accesses race.
TEST_F(RaceCheckerRuntime, NotifyAndValueWaitsOrderTheStreams) {
    Stream producer;
    Stream consumer;
    DeviceBuffer buffer(kBytes);
    DeviceBuffer copy(kBytes);
    DeviceBuffer flag(sizeof(uint64_t));
    aclrtNotify notify = nullptr;
    ASSERT_ACL_OK(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT));
    const auto copy_on_consumer = [&] {
        EXPECT_ACL_OK(aclrtMemcpyAsync(copy.get(), kBytes, buffer.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE,
                                       consumer.get()));
    };
    EXPECT_EQ("", reports([&] {
        EXPECT_ACL_OK(aclrtMemsetAsync(buffer.get(), kBytes, 1, kBytes, producer.get()));
        EXPECT_ACL_OK(aclrtRecordNotify(notify, producer.get()));
        EXPECT_ACL_OK(aclrtWaitAndResetNotify(notify, consumer.get(), 0));
        copy_on_consumer();
        EXPECT_ACL_OK(aclrtSynchronizeDevice());
    }));
    EXPECT_EQ("", reports([&] {
        EXPECT_ACL_OK(aclrtMemsetAsync(buffer.get(), kBytes, 2, kBytes, producer.get()));
        EXPECT_ACL_OK(aclrtValueWrite(flag.get(), 1, 0, producer.get()));
        EXPECT_ACL_OK(aclrtValueWait(flag.get(), 1, ACL_STREAM_WAIT_VALUE_EQ, consumer.get()));
        copy_on_consumer();
        EXPECT_ACL_OK(aclrtSynchronizeDevice());
    }));
    // Unordered for the checker, which reports at submission; at run time
    // the copy is held until the host has seen the set finish, so the test
    // itself does not race (ThreadSanitizer runs it).
    std::atomic<bool> setDone{false};
    const std::string unordered = reports([&] {
        EXPECT_ACL_OK(aclrtMemsetAsync(buffer.get(), kBytes, 3, kBytes, producer.get()));
        EXPECT_ACL_OK(aclcpu::enqueue(consumer.get(), std::make_unique<FunctionTask>([&setDone] {
            // Bounded: with a single worker the set may only run after this task.
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
            while (!setDone.load(std::memory_order_acquire) && std::chrono::steady_clock::now() < deadline) {
                std::this_thread::yield();
            }
        })));
        copy_on_consumer();
        EXPECT_ACL_OK(aclrtSynchronizeStream(producer.get()));
        setDone.store(true, std::memory_order_release);
        EXPECT_ACL_OK(aclrtSynchronizeDevice());
    });
    EXPECT_EQ(1u, count_of(unordered, "acl-cpu: data race")) << unordered;
    EXPECT_ACL_OK(aclrtDestroyNotify(notify));
}

TEST_F(RaceCheckerRuntime, SynchronisedProgramReportsNothing) {
    Stream first;
    Stream second;
    Event produced;
    DeviceBuffer buffer(kBytes);
    DeviceBuffer copy(kBytes);
    DeviceBuffer workspace(kBytes);
    void* scratch = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&scratch, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    const std::string text = reports([&] {
        // Event wait between streams.
        EXPECT_ACL_OK(aclrtMemsetAsync(buffer.get(), kBytes, 1, kBytes, first.get()));
        EXPECT_ACL_OK(launch_declared(first.get(), {declared(workspace, MemoryAccess::Kind::kWrite, "workspace")}));
        EXPECT_ACL_OK(aclrtRecordEvent(produced.get(), first.get()));
        EXPECT_ACL_OK(aclrtStreamWaitEvent(second.get(), produced.get()));
        EXPECT_ACL_OK(aclrtMemcpyAsync(copy.get(), kBytes, buffer.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE,
                                       second.get()));
        EXPECT_ACL_OK(launch_declared(second.get(), {declared(workspace, MemoryAccess::Kind::kWrite, "workspace")}));
        // Stream synchronisation before the host reads.
        EXPECT_ACL_OK(aclrtSynchronizeStream(second.get()));
        copy.read();
        buffer.read();
        // Host writes before submission; device synchronisation before a free.
        EXPECT_ACL_OK(aclrtMemset(scratch, kBytes, 2, kBytes));
        EXPECT_ACL_OK(launch_declared(first.get(), {declared(scratch, kBytes, MemoryAccess::Kind::kRead, "input 0")}));
        EXPECT_ACL_OK(launch_declared(second.get(), {declared(scratch, kBytes, MemoryAccess::Kind::kRead, "input 0")}));
        EXPECT_ACL_OK(aclrtSynchronizeDevice());
        EXPECT_ACL_OK(aclrtFree(scratch));
        // Event synchronisation before the host overwrites.
        EXPECT_ACL_OK(launch_declared(first.get(), {declared(buffer, MemoryAccess::Kind::kRead, "input 0")}));
        EXPECT_ACL_OK(aclrtRecordEvent(produced.get(), first.get()));
        EXPECT_ACL_OK(aclrtSynchronizeEvent(produced.get()));
        EXPECT_ACL_OK(aclrtMemset(buffer.get(), kBytes, 0, kBytes));
    });
    EXPECT_EQ("", text);
}

TEST(RaceCheckerSwitch, AclInitInstallsTheCheckerFromTheEnvironment) {
    DefaultEnvironment environment;
    ScopedEnv check("ACLCPU_CHECK", std::string("race"));
    ::testing::internal::CaptureStderr();
    {
        ASSERT_ACL_OK(aclInit(nullptr));
        ASSERT_ACL_OK(aclrtSetDevice(0));
        {
            Stream first;
            Stream second;
            DeviceBuffer buffer(1024);
            // The second access is declared only: a real one would race for
            // ThreadSanitizer too, which runs this test.
            EXPECT_ACL_OK(aclrtMemsetAsync(buffer.get(), 1024, 0, 1024, first.get()));
            EXPECT_ACL_OK(launch_declared(second.get(), {declared(buffer, MemoryAccess::Kind::kWrite, "output 0")}));
            EXPECT_ACL_OK(aclrtSynchronizeDevice());
        }
        EXPECT_ACL_OK(aclrtResetDevice(0));
        EXPECT_ACL_OK(aclFinalize());
    }
    const std::string text = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(0u, text.find("acl-cpu: data race")) << text;
    EXPECT_EQ(1u, count_of(text, "acl-cpu: data race")) << text;
}

TEST(RaceCheckerSwitch, CheckFatalAbortsAtTheFirstReport) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    DefaultEnvironment environment;
    ScopedEnv check("ACLCPU_CHECK", std::string("race"));
    ScopedEnv fatal("ACLCPU_CHECK_FATAL", std::string("1"));
    const auto program = [] {
        aclInit(nullptr);
        aclrtSetDevice(0);
        aclrtStream first = nullptr;
        aclrtStream second = nullptr;
        aclrtCreateStream(&first);
        aclrtCreateStream(&second);
        void* buffer = nullptr;
        aclrtMalloc(&buffer, 1024, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemsetAsync(buffer, 1024, 0, 1024, first);
        aclrtMemsetAsync(buffer, 1024, 1, 1024, second);
        aclrtSynchronizeDevice();
        std::fprintf(stderr, "not aborted\n");
        std::exit(0);
    };
    EXPECT_DEATH(program(), "acl-cpu: data race");
}

// ACL Graph: the captured dependencies (stream order inside a captured
// stream, event waits between captured streams) order a model's nodes; two
// nodes they leave unordered race on every replay, reported once when the
// capture ends (04-02_cross_stream_capture.md: work on a joined stream runs
// beside the origin stream's until an event joins them).
class RaceCheckerGraph : public RaceCheckerRuntime {
protected:
    /// Captures a fork of origin into side and back; `sideWrites` runs on the
    /// side stream after the fork, `ordered` says whether the side stream
    /// waits for the origin's write first.
    aclmdlRI capture_fork(aclrtStream origin, aclrtStream side, const DeviceBuffer& buffer, bool ordered) {
        aclrtEvent fork = nullptr;
        aclrtEvent afterWrite = nullptr;
        aclrtEvent join = nullptr;
        EXPECT_ACL_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
        EXPECT_ACL_OK(aclrtCreateEventExWithFlag(&afterWrite, ACL_EVENT_SYNC));
        EXPECT_ACL_OK(aclrtCreateEventExWithFlag(&join, ACL_EVENT_SYNC));
        EXPECT_ACL_OK(aclmdlRICaptureBegin(origin, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        EXPECT_ACL_OK(aclrtRecordEvent(fork, origin));
        EXPECT_ACL_OK(aclrtStreamWaitEvent(side, fork));
        EXPECT_ACL_OK(launch_declared(origin, {declared(buffer, MemoryAccess::Kind::kWrite, "output 0")}));
        EXPECT_ACL_OK(aclrtRecordEvent(afterWrite, origin));
        if (ordered) {
            EXPECT_ACL_OK(aclrtStreamWaitEvent(side, afterWrite));
        }
        EXPECT_ACL_OK(launch_declared(side, {declared(buffer, MemoryAccess::Kind::kRead, "input 0")}));
        EXPECT_ACL_OK(aclrtRecordEvent(join, side));
        EXPECT_ACL_OK(aclrtStreamWaitEvent(origin, join));
        aclmdlRI model = nullptr;
        EXPECT_ACL_OK(aclmdlRICaptureEnd(origin, &model));
        for (aclrtEvent event : {fork, afterWrite, join}) EXPECT_ACL_OK(aclrtDestroyEvent(event));
        return model;
    }
};

TEST_F(RaceCheckerGraph, NodesNoCapturedDependencyOrdersRaceWhenTheCaptureEnds) {
    Stream origin;
    Stream side;
    DeviceBuffer buffer(kBytes);
    aclmdlRI model = nullptr;
    const std::string text = reports([&] { model = capture_fork(origin.get(), side.get(), buffer, false); });
    EXPECT_EQ(0u, text.find("acl-cpu: data race on device memory bytes")) << text;
    EXPECT_NE(std::string::npos, text.find("inside captured graph")) << text;
    EXPECT_NE(std::string::npos, text.find("write by node")) << text;
    EXPECT_NE(std::string::npos, text.find("read by node")) << text;
    EXPECT_EQ(1u, count_of(text, "acl-cpu: data race")) << text;
    EXPECT_ACL_OK(aclmdlRIDestroy(model));
}

TEST_F(RaceCheckerGraph, CapturedEventWaitsOrderTheNodes) {
    Stream origin;
    Stream side;
    DeviceBuffer buffer(kBytes);
    const std::string text = reports([&] {
        aclmdlRI model = capture_fork(origin.get(), side.get(), buffer, true);
        EXPECT_ACL_OK(aclmdlRIExecuteAsync(model, origin.get()));
        EXPECT_ACL_OK(aclrtSynchronizeStream(origin.get()));
        EXPECT_ACL_OK(aclmdlRIDestroy(model));
    });
    EXPECT_EQ(std::string::npos, text.find("acl-cpu: data race")) << text;
}

// A replay is work of the stream that runs it: what its nodes touch races
// with other streams' work that nothing orders after it, and is ordered by
// the executing stream's events like any of its work.
TEST_F(RaceCheckerGraph, AReplayRacesWithUnorderedWorkOfAnotherStream) {
    Stream origin;
    Stream side;
    Stream reader;
    DeviceBuffer buffer(kBytes);
    DeviceBuffer copy(kBytes);
    aclmdlRI model = capture_fork(origin.get(), side.get(), buffer, true);
    const std::string racy = reports([&] {
        EXPECT_ACL_OK(aclmdlRIExecuteAsync(model, origin.get()));
        EXPECT_ACL_OK(aclrtMemcpyAsync(copy.get(), kBytes, buffer.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE,
                                       reader.get()));
        EXPECT_ACL_OK(aclrtSynchronizeDevice());
    });
    EXPECT_EQ(0u, racy.find("acl-cpu: data race on device memory bytes")) << racy;
    EXPECT_NE(std::string::npos, racy.find("earlier: write by aclmdlRIExecuteAsync (output 0)")) << racy;
    EXPECT_NE(std::string::npos, racy.find("later:   read by aclrtMemcpyAsync (src)")) << racy;

    Event done;
    const std::string ordered = reports([&] {
        EXPECT_ACL_OK(aclmdlRIExecuteAsync(model, origin.get()));
        EXPECT_ACL_OK(aclrtRecordEvent(done.get(), origin.get()));
        EXPECT_ACL_OK(aclrtStreamWaitEvent(reader.get(), done.get()));
        EXPECT_ACL_OK(aclrtMemcpyAsync(copy.get(), kBytes, buffer.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE,
                                       reader.get()));
        EXPECT_ACL_OK(aclrtSynchronizeDevice());
    });
    EXPECT_EQ(std::string::npos, ordered.find("acl-cpu: data race")) << ordered;
    EXPECT_ACL_OK(aclmdlRIDestroy(model));
}

// Replays of one model run one after another whichever streams run them, so
// two replays on two streams do not race with each other.
TEST_F(RaceCheckerGraph, ReplaysOfOneModelAreOrderedAcrossStreams) {
    Stream origin;
    Stream side;
    Stream other;
    DeviceBuffer buffer(kBytes);
    aclmdlRI model = capture_fork(origin.get(), side.get(), buffer, true);
    const std::string text = reports([&] {
        EXPECT_ACL_OK(aclmdlRIExecuteAsync(model, origin.get()));
        EXPECT_ACL_OK(aclmdlRIExecuteAsync(model, other.get()));
        EXPECT_ACL_OK(aclmdlRIExecuteAsync(model, origin.get()));
        EXPECT_ACL_OK(aclrtSynchronizeDevice());
    });
    EXPECT_EQ(std::string::npos, text.find("acl-cpu: data race")) << text;
    EXPECT_ACL_OK(aclmdlRIDestroy(model));
}

/// A model built on three persistent streams: the head stream switches by
/// the index in `index` to a label on stream `first` or on stream `second`
/// (10_label_management.md: the switch leaves its stream for the label's),
/// and each branch writes all of buffer; with `bothHead`, both branch streams
/// also start with every run, so the two writes can meet.
class BuiltBranches {
public:
    BuiltBranches(const DeviceBuffer& buffer, const DeviceBuffer& index, bool bothHead) {
        for (aclrtStream& stream : streams_) EXPECT_ACL_OK(aclrtCreateStreamWithConfig(&stream, 0, ACL_STREAM_PERSISTENT));
        for (aclrtLabel& label : labels_) EXPECT_ACL_OK(aclrtCreateLabel(&label));
        EXPECT_ACL_OK(aclrtCreateLabelList(labels_, 2, &list_));
        EXPECT_ACL_OK(aclmdlRIBuildBegin(&model_, 0));
        const uint32_t branchFlag = bothHead ? 0 : 0x7FFFFFFF;  // HEAD, or ACL_MODEL_STREAM_FLAG_DEFAULT
        EXPECT_ACL_OK(aclmdlRIBindStream(model_, streams_[0], 0));
        for (int b = 1; b <= 2; ++b) EXPECT_ACL_OK(aclmdlRIBindStream(model_, streams_[b], branchFlag));
        EXPECT_ACL_OK(aclrtSwitchLabelByIndex(index.get(), 2, list_, streams_[0]));
        for (int b = 1; b <= 2; ++b) {
            EXPECT_ACL_OK(aclrtSetLabel(labels_[b - 1], streams_[b]));
            EXPECT_ACL_OK(aclrtMemsetAsync(buffer.get(), buffer.size(), b, buffer.size(), streams_[b]));
            EXPECT_ACL_OK(aclmdlRIEndTask(model_, streams_[b]));
        }
        EXPECT_ACL_OK(aclmdlRIBuildEnd(model_, nullptr));
    }
    ~BuiltBranches() {
        aclmdlRIDestroy(model_);
        aclrtDestroyLabelList(list_);
        for (aclrtLabel label : labels_) aclrtDestroyLabel(label);
        for (aclrtStream stream : streams_) aclrtDestroyStream(stream);
    }
    BuiltBranches(const BuiltBranches&) = delete;
    BuiltBranches& operator=(const BuiltBranches&) = delete;

private:
    aclrtStream streams_[3] = {};
    aclrtLabel labels_[2] = {};
    aclrtLabelList list_ = nullptr;
    aclmdlRI model_ = nullptr;
};

// The branches of one switch never run in the same replay, so their
// writes do not race; the same writes on streams that both start with the
// model do.
TEST_F(RaceCheckerGraph, BranchesOfOneSwitchInABuiltModelDoNotRace) {
    DeviceBuffer buffer(kBytes);
    DeviceBuffer index(sizeof(uint32_t));
    index.fill(0);
    const std::string exclusive = reports([&] { BuiltBranches model(buffer, index, false); });
    EXPECT_EQ(std::string::npos, exclusive.find("acl-cpu: data race")) << exclusive;
    const std::string concurrent = reports([&] { BuiltBranches model(buffer, index, true); });
    EXPECT_EQ(1u, count_of(concurrent, "acl-cpu: data race")) << concurrent;
}

}  // namespace
}  // namespace aclcpu::test
