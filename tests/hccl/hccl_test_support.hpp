// Shared tools of the HCCL test suite.  Everything goes through the public
// C API (acl/acl.h, hccl/hccl.h) as a multi-device host program written for
// an Atlas A2 would: one host thread per rank, each setting its device and
// joining the communicator.  References are computed here, independently of
// the library: reductions combine the ranks in rank order in the
// accumulator CANN documents (fp32 for fp16 / bf16), integers wrap.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "aclcpu_testkit/scoped_env.hpp"

namespace aclcpu::hccl_test {

/// Emulated devices every test gets (ACLCPU_DEVICE_COUNT).
inline constexpr uint32_t kDeviceCount = 8;

/// A rank thread still running after this long is a hang: the process
/// aborts with the names of the stuck ranks instead of blocking the suite.
inline constexpr std::chrono::seconds kHangLimit{40};

/// The execution and connection timeouts the fixture sets (seconds): a
/// collective or an init that never completes fails well before kHangLimit.
inline constexpr int kSuiteTimeoutSeconds = 15;

/// The calling thread's pending messages from aclGetRecentErrMsg ("" when
/// there are none); reading them clears them.
std::string take_error_message();

/// Success when `code` is `expected` and the call left a message for
/// aclGetRecentErrMsg that names `api`.
::testing::AssertionResult refused_with(HcclResult code, HcclResult expected, const char* api);

/// Success when `text` contains every one of `parts`.
::testing::AssertionResult contains(const std::string& text, const std::vector<const char*>& parts);

}  // namespace aclcpu::hccl_test

#define HCCL_FRESH_CALL(expr) ([&] { ::aclcpu::hccl_test::take_error_message(); return (expr); }())

#define ASSERT_ACL_OK(expr) ASSERT_EQ(ACL_SUCCESS, (expr)) << #expr << ": " << ::aclcpu::hccl_test::take_error_message()
#define EXPECT_ACL_OK(expr) EXPECT_EQ(ACL_SUCCESS, (expr)) << #expr << ": " << ::aclcpu::hccl_test::take_error_message()
#define ASSERT_HCCL_OK(expr) \
    ASSERT_EQ(HCCL_SUCCESS, (expr)) << #expr << ": " << ::aclcpu::hccl_test::take_error_message()
#define EXPECT_HCCL_OK(expr) \
    EXPECT_EQ(HCCL_SUCCESS, (expr)) << #expr << ": " << ::aclcpu::hccl_test::take_error_message()

/// Expects an HCCL call to return `code` at once, with a message naming `api`.
#define EXPECT_HCCL_REFUSED(expr, code, api) \
    EXPECT_TRUE(::aclcpu::hccl_test::refused_with(HCCL_FRESH_CALL(expr), code, api)) << #expr

namespace aclcpu::hccl_test {

using testkit::ScopedEnv;

/// kDeviceCount devices and aclInit around each test, the documented
/// defaults of the other acl-cpu settings, and suite-wide HCCL timeouts of
/// kSuiteTimeoutSeconds (a test that needs others sets its own).
class HcclTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;

private:
    ScopedEnv deviceCount_{"ACLCPU_DEVICE_COUNT", std::to_string(kDeviceCount)};
    ScopedEnv soc_{"ACLCPU_SOC", std::nullopt};
    ScopedEnv workers_{"ACLCPU_WORKER_THREADS", std::nullopt};
    ScopedEnv memory_{"ACLCPU_MEMORY_CAPACITY", std::nullopt};
    ScopedEnv execTimeout_{"HCCL_EXEC_TIMEOUT", std::to_string(kSuiteTimeoutSeconds)};
    ScopedEnv connectTimeout_{"HCCL_CONNECT_TIMEOUT", std::to_string(kSuiteTimeoutSeconds)};
};

/// Runs body(rank) on `ranks` new host threads at once and joins them.  A
/// thread still running after `limit` aborts the process (a hang fails the
/// suite instead of blocking it).
void run_ranks(uint32_t ranks, const std::function<void(uint32_t rank)>& body,
               std::chrono::seconds limit = kHangLimit);

/// A reusable barrier of host threads, bounded: wait() returns false when
/// the others did not come within kHangLimit.
class ThreadBarrier {
public:
    explicit ThreadBarrier(uint32_t parties) : parties_(parties) {}
    bool wait();

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    const uint32_t parties_;
    uint32_t waiting_ = 0;
    uint64_t generation_ = 0;
};

/// One rank of a group made by with_group, as its thread sees it.
struct RankContext {
    uint32_t rank = 0;
    uint32_t ranks = 0;
    int32_t device = 0;
    HcclComm comm = nullptr;  ///< Set to nullptr when the body destroyed it itself.
    aclrtStream stream = nullptr;
};

/// How with_group makes its communicators.
struct GroupOptions {
    /// hcclExecTimeOut of a configuration (seconds); 0: no configuration
    /// (HcclCommInitRootInfo), the suite's HCCL_EXEC_TIMEOUT applies.
    int32_t execTimeoutSeconds = 0;
    /// hcclCommName of a configuration ("" : none).
    std::string name;
    /// devices[r]: rank r's device (empty: device r).
    std::vector<int32_t> devices;
};

/// Makes a group of `ranks` through root info, one host thread per rank
/// (device set, communicator joined, a stream created), runs body on every
/// rank's thread, then synchronises the stream and destroys the stream and
/// the communicator.  Bounded by run_ranks' watchdog.
void with_group(uint32_t ranks, const std::function<void(RankContext&)>& body, const GroupOptions& options = {});

/// Device memory of the calling thread's device, filled with `fill` bytes.
class DeviceMemory {
public:
    static constexpr uint8_t kSentinel = 0xA5;

    explicit DeviceMemory(size_t bytes, uint8_t fill = kSentinel);
    explicit DeviceMemory(const std::vector<uint8_t>& contents);
    ~DeviceMemory();
    DeviceMemory(const DeviceMemory&) = delete;
    DeviceMemory& operator=(const DeviceMemory&) = delete;

    void* get() const { return data_; }
    size_t size() const { return bytes_; }
    /// Synchronous copies (aclrtMemcpy) of the whole buffer.
    void upload(const std::vector<uint8_t>& contents);
    std::vector<uint8_t> bytes() const;
    template <class T>
    std::vector<T> values() const {
        const std::vector<uint8_t> raw = bytes();
        std::vector<T> out(raw.size() / sizeof(T));
        std::memcpy(out.data(), raw.data(), out.size() * sizeof(T));
        return out;
    }

private:
    void* data_ = nullptr;
    size_t bytes_ = 0;
};

template <class T>
std::vector<uint8_t> as_bytes(const std::vector<T>& values) {
    std::vector<uint8_t> out(values.size() * sizeof(T));
    std::memcpy(out.data(), values.data(), out.size());
    return out;
}

// ---------------------------------------------------------------------------
// Elements and references.

/// Bytes of one element of a type the tests use (fails for others).
size_t type_size(HcclDataType dtype);
const char* type_name(HcclDataType dtype);
const char* op_name(HcclReduceOp op);

/// The element at `index` of `bytes`, decoded to double (for messages and
/// tolerance checks).
double element_value(HcclDataType dtype, const uint8_t* bytes, size_t index);

/// A deterministic pseudo-random generator (splitmix64).
class Random {
public:
    explicit Random(uint64_t seed) : state_(seed) {}
    uint64_t next();
    /// Uniform in [low, high).
    double uniform(double low, double high);

private:
    uint64_t state_;
};

/// count elements of dtype for the inputs of op: values that exercise it
/// (integers over their whole range so that sum and prod wrap, floating
/// point values with full mantissas for sums, near 1 for products).
std::vector<uint8_t> reduction_input(HcclDataType dtype, HcclReduceOp op, size_t count, uint64_t seed);

/// count elements of arbitrary bytes (the data-movement collectives move
/// bytes, whatever they encode).
std::vector<uint8_t> pattern_bytes(HcclDataType dtype, size_t count, uint64_t seed);

/// The ranks' inputs combined with op element by element, in rank order:
/// integers wrap (two's complement), fp32 in fp32, fp16 / bf16 in fp32
/// rounded once to nearest even; max / min keep NaN.
std::vector<uint8_t> reduce_reference(HcclDataType dtype, HcclReduceOp op,
                                      const std::vector<std::vector<uint8_t>>& inputs, size_t offset, size_t count);

/// "" when got == want, else where and how they differ (the first few
/// elements, decoded, and how many differ).
std::string compare_elements(HcclDataType dtype, const std::vector<uint8_t>& got, const std::vector<uint8_t>& want);

/// The bytes [offset, offset + count) elements of v.
std::vector<uint8_t> elements_of(const std::vector<uint8_t>& v, HcclDataType dtype, size_t offset, size_t count);

}  // namespace aclcpu::hccl_test

/// Expects the element vectors to be byte for byte equal.
#define EXPECT_ELEMENTS_EQ(dtype, got, want) \
    EXPECT_EQ("", ::aclcpu::hccl_test::compare_elements((dtype), (got), (want)))
