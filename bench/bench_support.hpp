// Shared set-up for the benchmarks: a runtime session, device tensors filled
// with reproducible data, the two-phase aclnn launch, and the counters every
// figure carries into the JSON output that bench/compare_pytorch.py reads.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

namespace aclcpu::bench {

/// aclInit + device 0 + one stream for the life of a benchmark; device
/// buffers made through it are freed with it, so each benchmark case gives
/// its memory back before the next one starts.
class RuntimeSession {
public:
    RuntimeSession() {
        aclInit(nullptr);
        aclrtSetDevice(0);
        aclrtCreateStream(&stream_);
    }
    ~RuntimeSession() {
        aclrtSynchronizeStream(stream_);
        for (void* buffer : buffers_) aclrtFree(buffer);
        aclrtDestroyStream(stream_);
        aclrtResetDevice(0);
        aclFinalize();
    }
    RuntimeSession(const RuntimeSession&) = delete;
    RuntimeSession& operator=(const RuntimeSession&) = delete;

    aclrtStream stream() const { return stream_; }

    void* device_buffer(size_t bytes) {
        void* buffer = nullptr;
        aclrtMalloc(&buffer, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        buffers_.push_back(buffer);
        return buffer;
    }

private:
    aclrtStream stream_ = nullptr;
    std::vector<void*> buffers_;
};

/// Sets an environment variable for a scope (read by the next aclInit).
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old, hadOld_ = true;
        setenv(name, value, 1);
    }
    ~ScopedEnv() {
        if (hadOld_) setenv(name_, old_.c_str(), 1);
        else unsetenv(name_);
    }

private:
    const char* name_;
    std::string old_;
    bool hadOld_ = false;
};

/// The process's resident set size in KiB (VmRSS).
inline long resident_kib() {
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "VmRSS:") {
            long kib = 0;
            status >> kib;
            return kib;
        }
        status.ignore(4096, '\n');
    }
    return -1;
}

/// The device arena's size as aclInit will choose it: ACLCPU_WORKER_THREADS,
/// else the hardware threads.  Baselines run on this many threads so that
/// every ratio compares equal parallelism.
inline int worker_threads() {
    if (const char* value = std::getenv("ACLCPU_WORKER_THREADS")) {
        const int threads = std::atoi(value);
        if (threads > 0) return threads;
    }
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

/// Runs `submit` once per iteration and reports its cost; the stream is
/// drained outside the timing every few thousand submissions.
template <typename Submit>
void measure_submit(benchmark::State& state, aclrtStream stream, Submit submit) {
    int64_t submitted = 0;
    for (auto _ : state) {
        submit();
        if (++submitted % 4096 == 0) {
            state.PauseTiming();
            aclrtSynchronizeStream(stream);
            state.ResumeTiming();
        }
    }
    aclrtSynchronizeStream(stream);
    state.SetItemsProcessed(state.iterations());
}

// ---- Operator data ---------------------------------------------------------

/// The floating dtypes every operator is measured in.
struct FloatType {
    aclDataType type;
    const char* name;  ///< As in benchmark names and the comparison table.
    int64_t bytes;
};
inline constexpr FloatType kFloatTypes[] = {{ACL_FLOAT, "fp32", 4}, {ACL_FLOAT16, "fp16", 2}, {ACL_BF16, "bf16", 2}};

/// Element counts of the operator benchmarks: 4 Ki to 64 Mi in steps of 4.
inline std::vector<int64_t> operator_sizes() {
    std::vector<int64_t> sizes;
    for (int64_t n = int64_t{4} << 10; n <= int64_t{64} << 20; n *= 4) sizes.push_back(n);
    return sizes;
}

/// float -> bfloat16 bits, rounding to nearest even as the kernels do.
inline uint16_t to_bf16(float value) {
    uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    bits += 0x7FFFu + ((bits >> 16) & 1u);
    return static_cast<uint16_t>(bits >> 16);
}

/// A device buffer holding a contiguous tensor, and its aclTensor; both are
/// released with it.
class DeviceTensor {
public:
    DeviceTensor(std::vector<int64_t> shape, aclDataType type) : shape_(std::move(shape)), type_(type) {
        std::vector<int64_t> strides(shape_.size(), 1);
        for (size_t axis = shape_.size(); axis-- > 1;) strides[axis - 1] = strides[axis] * shape_[axis];
        aclrtMalloc(&data_, std::max<size_t>(1, bytes()), ACL_MEM_MALLOC_HUGE_FIRST);
        tensor_ = aclCreateTensor(shape_.data(), shape_.size(), type_, strides.data(), 0, ACL_FORMAT_ND,
                                  shape_.data(), shape_.size(), data_);
    }
    ~DeviceTensor() {
        aclDestroyTensor(tensor_);
        aclrtFree(data_);
    }
    DeviceTensor(const DeviceTensor&) = delete;
    DeviceTensor& operator=(const DeviceTensor&) = delete;

    aclTensor* get() const { return tensor_; }
    int64_t elements() const {
        int64_t count = 1;
        for (int64_t dim : shape_) count *= dim;
        return count;
    }
    size_t bytes() const { return static_cast<size_t>(elements()) * aclDataTypeSize(type_); }

    /// Fills the tensor with values evenly spread over [low, high) in a
    /// scrambled order (so branchy kernels see both sides of their branches
    /// unpredictably); the same on every run.  A BOOL tensor gets 1 where the
    /// value is below low + (high - low) * trueFraction.
    void fill(float low, float high, float trueFraction = 0.0f) {
        // The pattern repeats every kPeriod elements: generating 64 Mi
        // values one by one would dominate the set-up time.
        constexpr int64_t kPeriod = 1 << 16;
        const int64_t period = std::min(elements(), kPeriod);
        const size_t elementBytes = aclDataTypeSize(type_);
        std::vector<unsigned char> pattern(static_cast<size_t>(period) * elementBytes);
        for (int64_t i = 0; i < period; ++i) {
            const double unit = std::fmod(static_cast<double>(i) * 0.6180339887498949, 1.0);
            const float value = static_cast<float>(low + (high - low) * unit);
            store(pattern.data() + i * elementBytes, value, static_cast<float>(low + (high - low) * trueFraction));
        }
        std::vector<unsigned char> host(bytes());
        for (size_t offset = 0; offset < host.size(); offset += pattern.size())
            std::memcpy(host.data() + offset, pattern.data(), std::min(pattern.size(), host.size() - offset));
        aclrtMemcpy(data_, host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE);
    }

private:
    void store(unsigned char* target, float value, float trueBelow) const {
        switch (type_) {
        case ACL_FLOAT: std::memcpy(target, &value, sizeof value); break;
        case ACL_FLOAT16: {
            const aclFloat16 half = aclFloatToFloat16(value);
            std::memcpy(target, &half, sizeof half);
            break;
        }
        case ACL_BF16: {
            const uint16_t brain = to_bf16(value);
            std::memcpy(target, &brain, sizeof brain);
            break;
        }
        default: *target = value < trueBelow ? 1 : 0; break;
        }
    }

    std::vector<int64_t> shape_;
    aclDataType type_;
    void* data_ = nullptr;
    aclTensor* tensor_ = nullptr;
};

/// An aclScalar of type FLOAT, destroyed with it.
class FloatScalar {
public:
    explicit FloatScalar(float value) : value_(value), scalar_(aclCreateScalar(&value_, ACL_FLOAT)) {}
    ~FloatScalar() { aclDestroyScalar(scalar_); }
    FloatScalar(const FloatScalar&) = delete;
    FloatScalar& operator=(const FloatScalar&) = delete;
    const aclScalar* get() const { return scalar_; }

private:
    float value_;
    aclScalar* scalar_;
};

/// The phase-2 workspace: grows to the largest size phase 1 asked for and
/// is reused, as a host program keeps one workspace for repeated launches.
class Workspace {
public:
    Workspace() = default;
    ~Workspace() {
        if (data_ != nullptr) aclrtFree(data_);
    }
    Workspace(const Workspace&) = delete;
    Workspace& operator=(const Workspace&) = delete;

    void* reserve(uint64_t bytes) {
        if (bytes > capacity_) {
            if (data_ != nullptr) aclrtFree(data_);
            data_ = nullptr;
            aclrtMalloc(&data_, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
            capacity_ = bytes;
        }
        return bytes == 0 ? nullptr : data_;
    }

private:
    void* data_ = nullptr;
    uint64_t capacity_ = 0;
};

/// One operator launch as a host program writes it: phase 1 (checks, tiling,
/// executor), then phase 2 on `stream` with a workspace of the size phase 1
/// asked for.  phase1(uint64_t*, aclOpExecutor**) and
/// phase2(void*, uint64_t, aclOpExecutor*, aclrtStream) are the aclnn pair.
template <typename Phase1, typename Phase2>
aclnnStatus launch_two_phase(Phase1 phase1, Phase2 phase2, Workspace& workspace, aclrtStream stream) {
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus status = phase1(&workspaceSize, &executor);
    if (status != 0) return status;
    return phase2(workspace.reserve(workspaceSize), workspaceSize, executor, stream);
}

/// Marks the case failed with the runtime's message when status is not 0;
/// returns whether it was 0.
inline bool succeeded(benchmark::State& state, int status) {
    if (status == 0) return true;
    const char* message = aclGetRecentErrMsg();
    state.SkipWithError(message != nullptr && *message != '\0' ? message : "acl call failed");
    return false;
}

/// The counters that make a throughput figure self-describing: bytes/s
/// from the bytes model, and the model itself (bytes per iteration) plus the
/// element count, which bench/compare_pytorch.py reads back from the JSON
/// instead of restating the model.
inline void report_traffic(benchmark::State& state, int64_t elements, int64_t bytesPerIteration) {
    state.SetBytesProcessed(state.iterations() * bytesPerIteration);
    state.SetItemsProcessed(state.iterations() * elements);
    state.counters["elements"] = static_cast<double>(elements);
    state.counters["bytes_per_iteration"] = static_cast<double>(bytesPerIteration);
}

/// Median and 99th percentile of per-iteration wall times, as counters in
/// microseconds (Google Benchmark itself reports only the mean).
class LatencySamples {
public:
    void add(double seconds) { samples_.push_back(seconds); }
    void report(benchmark::State& state) {
        if (samples_.empty()) return;
        std::sort(samples_.begin(), samples_.end());
        const auto at = [&](double quantile) {
            return samples_[static_cast<size_t>(quantile * static_cast<double>(samples_.size() - 1))] * 1e6;
        };
        state.counters["median_us"] = at(0.5);
        state.counters["p99_us"] = at(0.99);
    }

private:
    std::vector<double> samples_;
};

/// Times each call of body() (which returns false to stop the case) as one
/// iteration: the reported time, for benchmarks registered with
/// UseManualTime(), and the median_us and p99_us counters.  before() runs
/// untimed ahead of each call.  The median is the figure
/// bench/compare_pytorch.py uses: on a shared machine it ignores the
/// iterations that a descheduled thread stretches.
template <typename Body, typename Before>
void time_each_iteration(benchmark::State& state, Body body, Before before) {
    using Clock = std::chrono::steady_clock;
    LatencySamples samples;
    for (auto _ : state) {
        before();
        const auto start = Clock::now();
        const bool proceed = body();
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        state.SetIterationTime(seconds);
        samples.add(seconds);
        if (!proceed) break;
    }
    samples.report(state);
}

template <typename Body>
void time_each_iteration(benchmark::State& state, Body body) {
    time_each_iteration(state, body, [] {});
}

}  // namespace aclcpu::bench
