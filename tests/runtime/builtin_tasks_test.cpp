// The built-in device tasks: aclrtReduceAsync and aclrtRandomNumAsync
// (docs/zh/api_ref/12_execution_control.md, dev_guide/03-04_system_tasks.md,
// 25-04_Structs.md aclrtRandomNumTaskInfo), the cache-maintenance family
// (11-06_CMO_memory_operation.md), aclrtDeviceL2CacheFlush (acl_rt.h), and
// the kernel entry points acl-cpu refuses (14_Kernel_loading_and_execution.md).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "aclcpu_testkit/device_data.hpp"
#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using BuiltinTasksTest = RuntimeTest;
using testkit::decode_at;
using testkit::dtype_bytes;
using testkit::encode_at;

/// Device memory holding `values` encoded as dtype (synchronous copy).
void write_values(const DeviceBuffer& buffer, aclDataType dtype, const std::vector<double>& values) {
    std::vector<uint8_t> bytes(values.size() * dtype_bytes(dtype));
    for (size_t i = 0; i < values.size(); ++i) encode_at(bytes.data() + i * dtype_bytes(dtype), dtype, values[i]);
    ASSERT_ACL_OK(aclrtMemcpy(buffer.get(), buffer.size(), bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE));
}

std::vector<double> read_values(const DeviceBuffer& buffer, aclDataType dtype, size_t count) {
    const std::vector<uint8_t> bytes = buffer.read();
    std::vector<double> values(count);
    for (size_t i = 0; i < count; ++i) values[i] = decode_at(bytes.data() + i * dtype_bytes(dtype), dtype);
    return values;
}

// ---- aclrtReduceAsync -----------------------------------------------------------

// dev_guide/03-04_system_tasks.md: SUM of {1,2,3,4} into a copy of itself gives {2,4,6,8}.
TEST_F(BuiltinTasksTest, ReduceSumOfTheGuideExample) {
    Stream stream;
    DeviceBuffer input(4 * sizeof(float));
    DeviceBuffer output(4 * sizeof(float));
    write_values(input, ACL_FLOAT, {1, 2, 3, 4});
    write_values(output, ACL_FLOAT, {1, 2, 3, 4});
    ASSERT_ACL_OK(aclrtReduceAsync(output.get(), input.get(), output.size(), ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM,
                                   ACL_FLOAT, stream.get(), nullptr));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    EXPECT_EQ((std::vector<double>{2, 4, 6, 8}), read_values(output, ACL_FLOAT, 4));
    EXPECT_EQ((std::vector<double>{1, 2, 3, 4}), read_values(input, ACL_FLOAT, 4)) << "src is only read";
}

// 12_execution_control.md aclrtReduceAsync: SUM, MAX, MIN on an Atlas A2's
// int8, int16, int32, fp16, fp32 and bf16 (values exact in every one of them).
TEST_F(BuiltinTasksTest, ReduceEveryKindOnEveryA2Dtype) {
    struct Case {
        aclrtReduceKind kind;
        std::vector<double> expected;
    };
    const std::vector<double> dst = {-3, 7, 0, 12, -1, 5};
    const std::vector<double> src = {4, -2, 0, 12, -6, 9};
    const Case cases[] = {{ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, {1, 5, 0, 24, -7, 14}},
                          {ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, {4, 7, 0, 12, -1, 9}},
                          {ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, {-3, -2, 0, 12, -6, 5}}};
    Stream stream;
    for (aclDataType dtype : {ACL_INT8, ACL_INT16, ACL_INT32, ACL_FLOAT16, ACL_FLOAT, ACL_BF16}) {
        for (const Case& c : cases) {
            SCOPED_TRACE(testing::Message() << "dtype " << dtype << " kind " << c.kind);
            const size_t bytes = dst.size() * dtype_bytes(dtype);
            DeviceBuffer out(bytes);
            DeviceBuffer in(bytes);
            write_values(out, dtype, dst);
            write_values(in, dtype, src);
            ASSERT_ACL_OK(aclrtReduceAsync(out.get(), in.get(), bytes, c.kind, dtype, stream.get(), nullptr));
            ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
            EXPECT_EQ(c.expected, read_values(out, dtype, dst.size()));
        }
    }
}

// A built-in task follows stream order (03-04_system_tasks.md): it sees the
// copy submitted before it, and the copy after it sees its result.
TEST_F(BuiltinTasksTest, ReduceRunsInStreamOrder) {
    Stream stream;
    DeviceBuffer in(2 * sizeof(int32_t));
    DeviceBuffer out(2 * sizeof(int32_t));
    write_values(out, ACL_INT32, {10, 20});
    const int32_t host[2] = {1, 2};
    int32_t result[2] = {0, 0};
    PinnedBuffer staging(sizeof host);
    std::memcpy(staging.bytes(), host, sizeof host);
    ASSERT_ACL_OK(
        aclrtMemcpyAsync(in.get(), in.size(), staging.bytes(), sizeof host, ACL_MEMCPY_HOST_TO_DEVICE, stream.get()));
    ASSERT_ACL_OK(aclrtReduceAsync(out.get(), in.get(), out.size(), ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32,
                                   stream.get(), nullptr));
    PinnedBuffer back(sizeof result);
    ASSERT_ACL_OK(
        aclrtMemcpyAsync(back.bytes(), back.size(), out.get(), sizeof result, ACL_MEMCPY_DEVICE_TO_HOST, stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
    std::memcpy(result, back.bytes(), sizeof result);
    EXPECT_EQ(11, result[0]);
    EXPECT_EQ(22, result[1]);
}

// Bad arguments: CANN's codes, each with a message (aclGetRecentErrMsg).
TEST_F(BuiltinTasksTest, ReduceRejectsBadArguments) {
    Stream stream;
    DeviceBuffer a(64);
    DeviceBuffer b(64);
    int reserved = 0;
    const aclrtStream s = stream.get();
    EXPECT_ACL_FAILS(aclrtReduceAsync(a.get(), b.get(), 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, &reserved),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtReduceAsync(nullptr, b.get(), 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, nullptr),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtReduceAsync(a.get(), b.get(), 64, static_cast<aclrtReduceKind>(99), ACL_FLOAT, s, nullptr),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtReduceAsync(a.get(), b.get(), 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM,
                                      static_cast<aclDataType>(999), s, nullptr),
                     ACL_ERROR_INVALID_PARAM);
    // A listed dtype the A2 does not reduce: refused as the SoC refuses it.
    EXPECT_ACL_FAILS(aclrtReduceAsync(a.get(), b.get(), 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT64, s, nullptr),
                     ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_ACL_FAILS(aclrtReduceAsync(a.get(), b.get(), 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, ACL_FLOAT, s, nullptr),
                     ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    for (uint64_t count : {uint64_t{0}, uint64_t{6}}) {  // not a positive multiple of 4 bytes
        EXPECT_ACL_FAILS(
            aclrtReduceAsync(a.get(), b.get(), count, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, nullptr),
            ACL_ERROR_INVALID_PARAM);
    }
    EXPECT_ACL_FAILS(
        aclrtReduceAsync(a.bytes() + 2, b.get(), 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, nullptr),
        ACL_ERROR_INVALID_PARAM);
    // dst and src must be device memory of the stream's device, wholly.
    std::vector<float> host(16);
    EXPECT_ACL_FAILS(
        aclrtReduceAsync(host.data(), b.get(), 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, nullptr),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtReduceAsync(a.get(), b.get(), 128, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, nullptr),
                     ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
}

// ---- aclrtRandomNumAsync --------------------------------------------------------

/// aclrtRandomParaInfo carrying `bytes` bytes of value (isAddr = 0).
template <typename T>
aclrtRandomParaInfo immediate(T value) {
    aclrtRandomParaInfo info{};
    std::memcpy(info.valueOrAddr, &value, sizeof value);
    info.size = sizeof value;
    return info;
}

aclrtRandomParaInfo by_address(const void* address) {
    aclrtRandomParaInfo info{};
    info.isAddr = 1;
    std::memcpy(info.valueOrAddr, &address, sizeof address);
    info.size = sizeof address;
    return info;
}

/// A task as the guide's NormalFloatAsync builds one; the caller fills the distribution.
struct RandomTask {
    RandomTask(aclDataType dtype, aclrtRandomNumFuncType function, uint64_t num, uint64_t seed)
        : counter(16), result(num * 8 + 64) {
        counter.fill(0);
        info.dataType = dtype;
        info.randomNumFuncParaInfo.funcType = function;
        info.randomCounterAddr = counter.get();
        info.randomResultAddr = result.get();
        info.randomSeed = immediate(seed);
        info.randomNum = immediate(num);
    }
    aclError run(aclrtStream stream) const {
        aclError status = aclrtRandomNumAsync(&info, stream, nullptr);
        return status != ACL_SUCCESS ? status : aclrtSynchronizeStream(stream);
    }

    DeviceBuffer counter;
    DeviceBuffer result;
    aclrtRandomNumTaskInfo info{};
};

/// A uniform float task over [low, high].
struct UniformFloatTask : RandomTask {
    UniformFloatTask(float low, float high, uint64_t num, uint64_t seed)
        : RandomTask(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, num, seed) {
        info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min = immediate(low);
        info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max = immediate(high);
    }
};

// A counter-based generator: the same seed and counter give the same numbers, another seed others.
TEST_F(BuiltinTasksTest, RandomNumbersAreDeterministicForASeed) {
    Stream stream;
    constexpr uint64_t kNum = 256;
    const UniformFloatTask first(0, 1, kNum, 42);
    const UniformFloatTask again(0, 1, kNum, 42);
    const UniformFloatTask other(0, 1, kNum, 43);
    ASSERT_ACL_OK(first.run(stream.get()));
    ASSERT_ACL_OK(again.run(stream.get()));
    ASSERT_ACL_OK(other.run(stream.get()));
    const std::vector<double> a = read_values(first.result, ACL_FLOAT, kNum);
    EXPECT_EQ(a, read_values(again.result, ACL_FLOAT, kNum));
    EXPECT_NE(a, read_values(other.result, ACL_FLOAT, kNum));
}

// The counter is the offset into the sequence (25-04_Structs.md randomCounterAddr).
TEST_F(BuiltinTasksTest, RandomCounterSelectsAnotherStretchOfTheSequence) {
    Stream stream;
    const UniformFloatTask base(0, 1, 64, 7);
    const UniformFloatTask shifted(0, 1, 64, 7);
    shifted.counter.fill(1);
    ASSERT_ACL_OK(base.run(stream.get()));
    ASSERT_ACL_OK(shifted.run(stream.get()));
    EXPECT_NE(read_values(base.result, ACL_FLOAT, 64), read_values(shifted.result, ACL_FLOAT, 64));
}

// The sample's uniform int32 in [1, 100] and fp16 in [1, 2] (example 1_random_num_task).
TEST_F(BuiltinTasksTest, UniformValuesStayInTheirRange) {
    Stream stream;
    constexpr uint64_t kNum = 4096;
    RandomTask ints(ACL_INT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, kNum, 0);
    ints.info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min = immediate(int32_t{1});
    ints.info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max = immediate(int32_t{100});
    ASSERT_ACL_OK(ints.run(stream.get()));
    bool sawLow = false;
    bool sawHigh = false;
    for (double v : read_values(ints.result, ACL_INT32, kNum)) {
        ASSERT_TRUE(v >= 1 && v <= 100) << v;
        sawLow |= v == 1;
        sawHigh |= v == 100;
    }
    EXPECT_TRUE(sawLow && sawHigh) << "4096 draws cover both ends of [1, 100]";

    RandomTask halves(ACL_FLOAT16, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, kNum, 0);
    halves.info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min = immediate(uint16_t{0x3C00});  // 1.0
    halves.info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max = immediate(uint16_t{0x4000});  // 2.0
    ASSERT_ACL_OK(halves.run(stream.get()));
    double sum = 0;
    for (double v : read_values(halves.result, ACL_FLOAT16, kNum)) {
        ASSERT_TRUE(v >= 1 && v <= 2) << v;
        sum += v;
    }
    EXPECT_NEAR(1.5, sum / kNum, 0.03);
}

// 25-04_Structs.md randomResultAddr: device memory, no alignment asked for.
// An odd result address gets the same numbers (the task stored through
// misaligned pointers: UBSan, on in the sanitizer build, reported it; found
// by fuzz_runtime_sync, corpus input random_result_misaligned).
TEST_F(BuiltinTasksTest, RandomResultsMayStartAtAnyAddress) {
    Stream stream;
    constexpr uint64_t kNum = 16;
    const UniformFloatTask aligned(0, 1, kNum, 5);
    UniformFloatTask shifted(0, 1, kNum, 5);
    shifted.info.randomResultAddr = shifted.result.bytes() + 1;
    ASSERT_ACL_OK(aligned.run(stream.get()));
    ASSERT_ACL_OK(shifted.run(stream.get()));
    const std::vector<uint8_t> expected = aligned.result.read();
    const std::vector<uint8_t> actual = shifted.result.read();
    EXPECT_TRUE(std::equal(expected.begin(), expected.begin() + kNum * sizeof(float), actual.begin() + 1));
}

// The guide's NormalFloatAsync: mean 3, stddev 2.
TEST_F(BuiltinTasksTest, NormalValuesHaveTheRequestedMoments) {
    Stream stream;
    constexpr uint64_t kNum = 8192;
    RandomTask task(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, kNum, 0);
    task.info.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean = immediate(3.0f);
    task.info.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev = immediate(2.0f);
    ASSERT_ACL_OK(task.run(stream.get()));
    double sum = 0;
    double squares = 0;
    for (double v : read_values(task.result, ACL_FLOAT, kNum)) {
        sum += v;
        squares += v * v;
    }
    const double mean = sum / kNum;
    EXPECT_NEAR(3.0, mean, 0.1);
    EXPECT_NEAR(2.0, std::sqrt(squares / kNum - mean * mean), 0.1);
}

// The sample's truncated normal in bf16 (mean 1, stddev 2): bounded draws,
// within the two standard deviations acl-cpu truncates at.
TEST_F(BuiltinTasksTest, TruncatedNormalValuesAreBounded) {
    Stream stream;
    constexpr uint64_t kNum = 4096;
    RandomTask task(ACL_BF16, ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS, kNum, 0);
    task.info.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean = immediate(uint16_t{0x3F80});    // 1.0
    task.info.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev = immediate(uint16_t{0x4000});  // 2.0
    ASSERT_ACL_OK(task.run(stream.get()));
    for (double v : read_values(task.result, ACL_BF16, kNum)) ASSERT_TRUE(v >= -3.0 && v <= 5.0) << v;
}

// The sample's dropout bitmask (ratio 0.4): one bit per number, kept with probability 0.6.
TEST_F(BuiltinTasksTest, DropoutBitmaskKeepsOneMinusRatio) {
    Stream stream;
    constexpr uint64_t kNum = 8000;
    RandomTask task(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK, kNum, 0);
    task.info.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation = immediate(0.4f);
    task.result.fill(0xAB);
    ASSERT_ACL_OK(task.run(stream.get()));
    const std::vector<uint8_t> bytes = task.result.read();
    size_t kept = 0;
    for (size_t i = 0; i < kNum / 8; ++i) kept += static_cast<size_t>(__builtin_popcount(bytes[i]));
    EXPECT_NEAR(0.6, static_cast<double>(kept) / kNum, 0.03);
    EXPECT_EQ(0xAB, bytes[kNum / 8]) << "the mask is kNum bits, nothing after it is written";
}

// isAddr = 1: the value lives in device memory, read when the task runs.
TEST_F(BuiltinTasksTest, ParametersCanBeReadFromDeviceMemory) {
    Stream stream;
    const uint64_t num = 100;
    DeviceBuffer numOnDevice(sizeof num);
    ASSERT_ACL_OK(aclrtMemcpy(numOnDevice.get(), sizeof num, &num, sizeof num, ACL_MEMCPY_HOST_TO_DEVICE));
    UniformFloatTask task(5, 6, num, 1);  // then num given by address instead
    task.info.randomNum = by_address(numOnDevice.get());
    task.result.fill(0);
    ASSERT_ACL_OK(task.run(stream.get()));
    const std::vector<double> values = read_values(task.result, ACL_FLOAT, num + 1);
    for (uint64_t i = 0; i < num; ++i) ASSERT_TRUE(values[i] >= 5 && values[i] <= 6) << i;
    EXPECT_EQ(0.0, values[num]) << "exactly num numbers";
}

TEST_F(BuiltinTasksTest, RandomRejectsBadTasks) {
    Stream stream;
    const aclrtStream s = stream.get();
    int reserved = 0;
    EXPECT_ACL_FAILS(aclrtRandomNumAsync(nullptr, s, nullptr), ACL_ERROR_INVALID_PARAM);
    UniformFloatTask good(0, 1, 16, 0);
    EXPECT_ACL_FAILS(aclrtRandomNumAsync(&good.info, s, &reserved), ACL_ERROR_INVALID_PARAM);

    UniformFloatTask int8Task(0, 1, 16, 0);  // int8 is not among the documented dtypes
    int8Task.info.dataType = ACL_INT8;
    EXPECT_ACL_FAILS(aclrtRandomNumAsync(&int8Task.info, s, nullptr), ACL_ERROR_INVALID_PARAM);
    UniformFloatTask unknownFunction(0, 1, 16, 0);
    unknownFunction.info.randomNumFuncParaInfo.funcType = static_cast<aclrtRandomNumFuncType>(9);
    EXPECT_ACL_FAILS(aclrtRandomNumAsync(&unknownFunction.info, s, nullptr), ACL_ERROR_INVALID_PARAM);
    RandomTask integerNormal(ACL_INT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, 16, 0);  // normal: float types only
    EXPECT_ACL_FAILS(aclrtRandomNumAsync(&integerNormal.info, s, nullptr), ACL_ERROR_INVALID_PARAM);
    UniformFloatTask reversed(2, 1, 16, 0);
    EXPECT_ACL_FAILS(aclrtRandomNumAsync(&reversed.info, s, nullptr), ACL_ERROR_INVALID_PARAM);
    UniformFloatTask noCounter(0, 1, 16, 0);
    noCounter.info.randomCounterAddr = nullptr;
    EXPECT_ACL_FAILS(aclrtRandomNumAsync(&noCounter.info, s, nullptr), ACL_ERROR_INVALID_PARAM);
    std::vector<float> host(16);
    UniformFloatTask hostResult(0, 1, 16, 0);
    hostResult.info.randomResultAddr = host.data();
    EXPECT_ACL_FAILS(aclrtRandomNumAsync(&hostResult.info, s, nullptr), ACL_ERROR_INVALID_PARAM);
    UniformFloatTask tooMany(0, 1, 1 << 20, 0);  // more numbers than the result buffer holds
    tooMany.info.randomResultAddr = good.result.get();
    EXPECT_ACL_FAILS(aclrtRandomNumAsync(&tooMany.info, s, nullptr), ACL_ERROR_INVALID_PARAM);
    UniformFloatTask badFlag(0, 1, 16, 0);
    badFlag.info.randomSeed.isAddr = 2;
    EXPECT_ACL_FAILS(aclrtRandomNumAsync(&badFlag.info, s, nullptr), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
}

// A parameter read from device memory is checked when the stream reads it:
// the failure is the stream's error, reported by its synchronize.
TEST_F(BuiltinTasksTest, BadParameterInDeviceMemoryFailsTheStream) {
    Stream stream;
    const float high = -1.0f;  // below min 0
    DeviceBuffer highOnDevice(sizeof high);
    ASSERT_ACL_OK(aclrtMemcpy(highOnDevice.get(), sizeof high, &high, sizeof high, ACL_MEMCPY_HOST_TO_DEVICE));
    UniformFloatTask task(0, 1, 16, 0);
    task.info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max = by_address(highOnDevice.get());
    ASSERT_ACL_OK(aclrtRandomNumAsync(&task.info, stream.get(), nullptr));
    EXPECT_ACL_FAILS(aclrtSynchronizeStream(stream.get()), ACL_ERROR_INVALID_PARAM);
}

// ---- cache maintenance ------------------------------------------------------------

// 11-06_CMO_memory_operation.md: aclrtCmoAsync and aclrtCmoAsyncWithDesc take
// ACL_RT_CMO_TYPE_PREFETCH only, on device memory of the stream's device.
TEST_F(BuiltinTasksTest, CmoAsyncPrefetchesDeviceMemoryInStreamOrder) {
    Stream stream;
    DeviceBuffer buffer(4096);
    EXPECT_ACL_OK(aclrtCmoAsync(buffer.get(), buffer.size(), ACL_RT_CMO_TYPE_PREFETCH, stream.get()));
    Event after;
    ASSERT_ACL_OK(aclrtRecordEvent(after.get(), stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeEvent(after.get()));
    EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, event_recorded_status(after.get()));

    EXPECT_ACL_FAILS(aclrtCmoAsync(buffer.get(), buffer.size(), ACL_RT_CMO_TYPE_WRITEBACK, stream.get()),
                     ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_ACL_FAILS(aclrtCmoAsync(buffer.get(), buffer.size(), static_cast<aclrtCmoType>(7), stream.get()),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCmoAsync(buffer.get(), 0, ACL_RT_CMO_TYPE_PREFETCH, stream.get()), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCmoAsync(nullptr, 64, ACL_RT_CMO_TYPE_PREFETCH, stream.get()), ACL_ERROR_INVALID_PARAM);
    std::vector<uint8_t> host(64);
    EXPECT_ACL_FAILS(aclrtCmoAsync(host.data(), host.size(), ACL_RT_CMO_TYPE_PREFETCH, stream.get()),
                     ACL_ERROR_INVALID_PARAM);
}

// aclrtCmoAsyncWithBarrier: an INVALID task carries a barrierId > 0, every
// other type 0; aclrtCmoWaitBarrier waits for INVALID barriers, flag 0,
// at most ACL_RT_CMO_MAX_BARRIER_NUM of them.
TEST_F(BuiltinTasksTest, CmoBarriersFollowTheirRules) {
    Stream stream;
    const aclrtStream s = stream.get();
    DeviceBuffer buffer(256);
    EXPECT_ACL_OK(aclrtCmoAsyncWithBarrier(buffer.get(), 256, ACL_RT_CMO_TYPE_INVALID, 3, s));
    EXPECT_ACL_OK(aclrtCmoAsyncWithBarrier(buffer.get(), 256, ACL_RT_CMO_TYPE_FLUSH, 0, s));
    EXPECT_ACL_FAILS(aclrtCmoAsyncWithBarrier(buffer.get(), 256, ACL_RT_CMO_TYPE_INVALID, 0, s),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCmoAsyncWithBarrier(buffer.get(), 256, ACL_RT_CMO_TYPE_PREFETCH, 1, s),
                     ACL_ERROR_INVALID_PARAM);

    aclrtBarrierTaskInfo wait{};
    wait.barrierNum = 1;
    wait.cmoInfo[0] = aclrtBarrierCmoInfo{ACL_RT_CMO_TYPE_INVALID, 3};
    EXPECT_ACL_OK(aclrtCmoWaitBarrier(&wait, s, 0));
    EXPECT_ACL_FAILS(aclrtCmoWaitBarrier(&wait, s, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCmoWaitBarrier(nullptr, s, 0), ACL_ERROR_INVALID_PARAM);
    for (size_t count : {size_t{0}, size_t{ACL_RT_CMO_MAX_BARRIER_NUM + 1}}) {
        aclrtBarrierTaskInfo wrongCount = wait;
        wrongCount.barrierNum = count;
        EXPECT_ACL_FAILS(aclrtCmoWaitBarrier(&wrongCount, s, 0), ACL_ERROR_INVALID_PARAM);
    }
    aclrtBarrierTaskInfo prefetch = wait;
    prefetch.cmoInfo[0].cmoType = ACL_RT_CMO_TYPE_PREFETCH;
    EXPECT_ACL_FAILS(aclrtCmoWaitBarrier(&prefetch, s, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_OK(aclrtSynchronizeStream(s));
}

// aclrtCmoGetDescSize, aclrtCmoSetDesc into device memory, then
// aclrtCmoAsyncWithDesc, which reads the descriptor when its task runs.
TEST_F(BuiltinTasksTest, CmoDescriptorNamesTheRangeWhenTheTaskRuns) {
    Stream stream;
    size_t descSize = 0;
    ASSERT_ACL_OK(aclrtCmoGetDescSize(&descSize));
    ASSERT_GT(descSize, 0u);
    DeviceBuffer desc(descSize);
    DeviceBuffer target(1024);
    ASSERT_ACL_OK(aclrtCmoSetDesc(desc.get(), target.get(), target.size()));
    EXPECT_ACL_OK(aclrtCmoAsyncWithDesc(desc.get(), ACL_RT_CMO_TYPE_PREFETCH, stream.get(), nullptr));
    EXPECT_ACL_OK(aclrtSynchronizeStream(stream.get()));

    int reserved = 0;
    EXPECT_ACL_FAILS(aclrtCmoAsyncWithDesc(desc.get(), ACL_RT_CMO_TYPE_PREFETCH, stream.get(), &reserved),
                     ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCmoAsyncWithDesc(desc.get(), ACL_RT_CMO_TYPE_INVALID, stream.get(), nullptr),
                     ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    std::vector<uint8_t> hostDesc(descSize);
    EXPECT_ACL_FAILS(aclrtCmoSetDesc(hostDesc.data(), target.get(), target.size()), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCmoSetDesc(desc.get(), target.get(), 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCmoSetDesc(desc.get(), target.get(), target.size() + 4096), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtCmoGetDescSize(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(BuiltinTasksTest, CmoDescriptorOfFreedMemoryFailsTheStream) {
    Stream stream;
    size_t descSize = 0;
    ASSERT_ACL_OK(aclrtCmoGetDescSize(&descSize));
    DeviceBuffer desc(descSize);
    void* freed = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&freed, 1024, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtCmoSetDesc(desc.get(), freed, 1024));
    ASSERT_ACL_OK(aclrtFree(freed));
    ASSERT_ACL_OK(aclrtCmoAsyncWithDesc(desc.get(), ACL_RT_CMO_TYPE_PREFETCH, stream.get(), nullptr));
    EXPECT_ACL_FAILS(aclrtSynchronizeStream(stream.get()), ACL_ERROR_INVALID_PARAM);
}

// acl_rt.h: rsv must be NULL (ACL_ERROR_INVALID_PARAM otherwise).
TEST_F(BuiltinTasksTest, DeviceL2CacheFlushTakesOnlyNull) {
    EXPECT_ACL_OK(aclrtDeviceL2CacheFlush(nullptr));
    int reserved = 0;
    EXPECT_ACL_FAILS(aclrtDeviceL2CacheFlush(&reserved), ACL_ERROR_INVALID_PARAM);
}

// ---- what acl-cpu refuses ------------------------------------------------------------

// Kernel binaries run on AI Cores; acl-cpu has none: CANN's "feature not
// supported", with a message, never a silent success.
TEST_F(BuiltinTasksTest, KernelBinariesAndLaunchesAreNotSupported) {
    Stream stream;
    aclrtBinHandle binary = nullptr;
    EXPECT_ACL_FAILS(aclrtBinaryLoadFromFile("kernel.o", nullptr, &binary), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_ACL_FAILS(aclrtLaunchKernel(nullptr, 8, nullptr, 0, stream.get()), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    size_t size = 0;
    EXPECT_ACL_FAILS(aclrtGetSymbolSize(&size, &size), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_ACL_FAILS(aclrtTaskUpdateAsync(stream.get(), 0, nullptr, stream.get()), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    take_error_message();
    const char data[16] = {};
    EXPECT_EQ(nullptr, aclrtCreateBinary(data, sizeof data));
    EXPECT_NE(std::string::npos, take_error_message().find("aclrtCreateBinary"));
}

}  // namespace
}  // namespace aclcpu::test
