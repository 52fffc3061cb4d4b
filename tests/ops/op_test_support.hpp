// Shared support for the operator tests: device memory and tensors with
// RAII, host encoding of every dtype (fp16/bf16 written here, independently
// of the code under test), a fixture owning the acl runtime, a phase-2
// driver and a tolerance-aware comparison.
//
// Values travel as double on the host: a test builds inputs as doubles,
// DeviceTensor encodes them into the tensor's dtype through its view, and
// read() decodes the view back, so references can be computed in double
// precision from exactly the values the device saw.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

namespace optest {

using Shape = std::vector<int64_t>;

// ---------------------------------------------------------------------------
// fp16 / bf16 bit patterns, from first principles (frexp / ldexp in double).

/// The rounding quantum of a binary format with `mantissaBits` explicit
/// mantissa bits and minimum normal exponent `minExp`, for magnitude a > 0.
inline double quantum(double a, int mantissaBits, int minExp) {
    int e = 0;
    std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
    return std::ldexp(1.0, std::max(e - 1, minExp) - mantissaBits);
}

/// a rounded to nearest even on the grid of quantum q (a / q is exact).
inline double round_to_grid(double a, double q) { return std::nearbyint(a / q) * q; }

inline double fp16_bits_to_double(uint16_t bits) {
    const double sign = (bits & 0x8000) ? -1.0 : 1.0;
    const int exponent = (bits >> 10) & 0x1F;
    const int mantissa = bits & 0x3FF;
    if (exponent == 0x1F) return mantissa ? std::numeric_limits<double>::quiet_NaN() : sign * HUGE_VAL;
    if (exponent == 0) return sign * std::ldexp(mantissa, -24);
    return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

/// Round-to-nearest-even double -> binary16.
inline uint16_t double_to_fp16_bits(double value) {
    if (std::isnan(value)) return 0x7E00;
    const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
    const double a = std::fabs(value);
    if (a == 0) return sign;
    const double r = round_to_grid(a, quantum(a, 10, -14));
    if (r >= 65536.0) return sign | 0x7C00;
    if (r < std::ldexp(1.0, -14)) return sign | static_cast<uint16_t>(std::ldexp(r, 24));
    int e = 0;
    std::frexp(r, &e);  // r in [2^(e-1), 2^e)
    const int mantissa = static_cast<int>(std::ldexp(r, 11 - e)) - 1024;
    return sign | static_cast<uint16_t>(((e - 1 + 15) << 10) | mantissa);
}

inline double bf16_bits_to_double(uint16_t bits) {
    const double sign = (bits & 0x8000) ? -1.0 : 1.0;
    const int exponent = (bits >> 7) & 0xFF;
    const int mantissa = bits & 0x7F;
    if (exponent == 0xFF) return mantissa ? std::numeric_limits<double>::quiet_NaN() : sign * HUGE_VAL;
    if (exponent == 0) return sign * std::ldexp(mantissa, -133);
    return sign * std::ldexp(128 + mantissa, exponent - 134);
}

/// Round-to-nearest-even double -> bfloat16.
inline uint16_t double_to_bf16_bits(double value) {
    if (std::isnan(value)) return 0x7FC0;
    const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
    const double a = std::fabs(value);
    if (a == 0) return sign;
    const double r = round_to_grid(a, quantum(a, 7, -126));
    if (r >= std::ldexp(1.0, 128)) return sign | 0x7F80;
    if (r < std::ldexp(1.0, -126)) return sign | static_cast<uint16_t>(std::ldexp(r, 133));
    int e = 0;
    std::frexp(r, &e);
    const int mantissa = static_cast<int>(std::ldexp(r, 8 - e)) - 128;
    return sign | static_cast<uint16_t>(((e - 1 + 127) << 7) | mantissa);
}

// ---------------------------------------------------------------------------
// Host encoding of elements.

inline size_t dtype_bytes(aclDataType dtype) {
    switch (dtype) {
        case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
        case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
        case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
        case ACL_DOUBLE: case ACL_INT64: case ACL_UINT64: return 8;
        default: ADD_FAILURE() << "dtype " << dtype << " has no host encoding"; return 1;
    }
}

template <class T>
void put(uint8_t* at, T value) { std::memcpy(at, &value, sizeof value); }
template <class T>
T get(const uint8_t* at) { T value; std::memcpy(&value, at, sizeof value); return value; }

/// Writes value as one element of dtype (integers truncate toward zero, as
/// the tests only pass exact integers; BOOL is value != 0).
inline void encode_at(uint8_t* at, aclDataType dtype, double value) {
    switch (dtype) {
        case ACL_FLOAT: put(at, static_cast<float>(value)); break;
        case ACL_DOUBLE: put(at, value); break;
        case ACL_FLOAT16: put(at, double_to_fp16_bits(value)); break;
        case ACL_BF16: put(at, double_to_bf16_bits(value)); break;
        case ACL_INT8: put(at, static_cast<int8_t>(value)); break;
        case ACL_INT16: put(at, static_cast<int16_t>(value)); break;
        case ACL_INT32: put(at, static_cast<int32_t>(value)); break;
        case ACL_INT64: put(at, static_cast<int64_t>(value)); break;
        case ACL_UINT8: put(at, static_cast<uint8_t>(value)); break;
        case ACL_UINT16: put(at, static_cast<uint16_t>(value)); break;
        case ACL_BOOL: put(at, static_cast<uint8_t>(value != 0)); break;
        default: ADD_FAILURE() << "cannot encode dtype " << dtype;
    }
}

inline double decode_at(const uint8_t* at, aclDataType dtype) {
    switch (dtype) {
        case ACL_FLOAT: return get<float>(at);
        case ACL_DOUBLE: return get<double>(at);
        case ACL_FLOAT16: return fp16_bits_to_double(get<uint16_t>(at));
        case ACL_BF16: return bf16_bits_to_double(get<uint16_t>(at));
        case ACL_INT8: return get<int8_t>(at);
        case ACL_INT16: return get<int16_t>(at);
        case ACL_INT32: return get<int32_t>(at);
        case ACL_INT64: return static_cast<double>(get<int64_t>(at));
        case ACL_UINT8: return get<uint8_t>(at);
        case ACL_UINT16: return get<uint16_t>(at);
        case ACL_BOOL: return get<uint8_t>(at) != 0 ? 1.0 : 0.0;
        default: ADD_FAILURE() << "cannot decode dtype " << dtype; return 0;
    }
}

/// value as the nearest element of dtype holds it.
inline double representable(double value, aclDataType dtype) {
    uint8_t element[8];
    encode_at(element, dtype, value);
    return decode_at(element, dtype);
}

// ---------------------------------------------------------------------------
// Shapes and views.

inline int64_t numel(const Shape& shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

inline Shape contiguous_strides(const Shape& shape) {
    Shape strides(shape.size(), 1);
    for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
    return strides;
}

/// A tensor description: the view (shape, strides in elements, offset) over
/// a storage.  Empty strides mean row-major; an empty storage means the
/// smallest 1-D storage that holds the view.
struct TensorSpec {
    TensorSpec(Shape shape_, aclDataType dtype_, Shape strides_ = {}, int64_t offset_ = 0, Shape storage_ = {})
        : shape(std::move(shape_)), dtype(dtype_), strides(std::move(strides_)), offset(offset_),
          storage(std::move(storage_)) {}

    Shape shape;
    aclDataType dtype;
    Shape strides;
    int64_t offset;
    Shape storage;
};

/// The storage element index of every element of the view, row-major.
inline std::vector<int64_t> view_positions(const Shape& shape, const Shape& strides, int64_t offset) {
    std::vector<int64_t> positions;
    const int64_t n = numel(shape);
    positions.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        int64_t rest = i;
        int64_t position = offset;
        for (size_t d = shape.size(); d-- > 0;) {
            position += (rest % shape[d]) * strides[d];
            rest /= shape[d];
        }
        positions.push_back(position);
    }
    return positions;
}

/// Device memory from aclrtMalloc, freed with aclrtFree.
class DeviceBuffer {
public:
    explicit DeviceBuffer(size_t bytes) : bytes_(bytes) {
        EXPECT_EQ(aclrtMalloc(&data_, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    }
    ~DeviceBuffer() {
        if (data_ != nullptr) aclrtFree(data_);
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    void* get() const { return data_; }
    size_t size() const { return bytes_; }
    void upload(const std::vector<uint8_t>& host) {
        ASSERT_EQ(aclrtMemcpy(data_, bytes_, host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    }
    std::vector<uint8_t> download() const {
        std::vector<uint8_t> host(bytes_);
        EXPECT_EQ(aclrtMemcpy(host.data(), bytes_, data_, bytes_, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        return host;
    }

private:
    void* data_ = nullptr;
    size_t bytes_;
};

/// A device tensor: its own storage, filled with a sentinel byte pattern,
/// the view's elements set from host values, and the aclTensor describing it.
class DeviceTensor {
public:
    static constexpr uint8_t kSentinel = 0xA5;

    DeviceTensor(TensorSpec spec, const std::vector<double>& values)
        : spec_(std::move(spec)),
          strides_(spec_.strides.empty() ? contiguous_strides(spec_.shape) : spec_.strides),
          positions_(view_positions(spec_.shape, strides_, spec_.offset)),
          storage_(spec_.storage.empty() ? minimal_storage() : spec_.storage),
          buffer_(allocation_bytes()) {
        EXPECT_EQ(values.size(), positions_.size()) << "values do not match the view";
        initial_.assign(buffer_.size(), kSentinel);
        const size_t width = dtype_bytes(spec_.dtype);
        for (size_t i = 0; i < positions_.size() && i < values.size(); ++i) {
            encode_at(&initial_[static_cast<size_t>(positions_[i]) * width], spec_.dtype, values[i]);
        }
        buffer_.upload(initial_);
        tensor_ = aclCreateTensor(spec_.shape.data(), spec_.shape.size(), spec_.dtype, strides_.data(), spec_.offset,
                                  ACL_FORMAT_ND, storage_.data(), storage_.size(), buffer_.get());
        EXPECT_NE(tensor_, nullptr);
    }
    /// An output tensor: every element of the view starts as `fill`.
    static std::unique_ptr<DeviceTensor> output(TensorSpec spec, double fill = -7.0) {
        const auto n = static_cast<size_t>(numel(spec.shape));
        return std::make_unique<DeviceTensor>(std::move(spec), std::vector<double>(n, fill));
    }
    ~DeviceTensor() { aclDestroyTensor(tensor_); }
    DeviceTensor(const DeviceTensor&) = delete;
    DeviceTensor& operator=(const DeviceTensor&) = delete;

    aclTensor* get() const { return tensor_; }
    aclDataType dtype() const { return spec_.dtype; }
    const Shape& shape() const { return spec_.shape; }

    /// The view's elements, decoded, row-major.
    std::vector<double> read() const {
        const std::vector<uint8_t> bytes = buffer_.download();
        std::vector<double> values;
        for (int64_t position : positions_) {
            values.push_back(decode_at(&bytes[static_cast<size_t>(position) * dtype_bytes(spec_.dtype)], spec_.dtype));
        }
        return values;
    }
    /// The whole storage as bytes.
    std::vector<uint8_t> bytes() const { return buffer_.download(); }

    /// Storage bytes outside the view's elements that differ from their
    /// initial content (0 when the kernel wrote only inside the view).
    size_t bytes_changed_outside_view() const {
        const std::vector<uint8_t> now = buffer_.download();
        std::vector<bool> inView(now.size(), false);
        const size_t width = dtype_bytes(spec_.dtype);
        for (int64_t position : positions_) {
            for (size_t b = 0; b < width; ++b) inView[static_cast<size_t>(position) * width + b] = true;
        }
        size_t changed = 0;
        for (size_t i = 0; i < now.size(); ++i) changed += !inView[i] && now[i] != initial_[i];
        return changed;
    }

private:
    int64_t last_position() const {
        int64_t last = spec_.offset;
        for (int64_t position : positions_) last = std::max(last, position);
        return last;
    }
    Shape minimal_storage() const { return {last_position() + 1}; }
    /// Room for the declared storage and for every view element, even those
    /// of a view that (deliberately) reaches outside its declared storage.
    size_t allocation_bytes() const {
        const int64_t elements = std::max(numel(storage_), last_position() + 1);
        return std::max<size_t>(static_cast<size_t>(elements) * dtype_bytes(spec_.dtype), 32);
    }

    TensorSpec spec_;
    Shape strides_;
    std::vector<int64_t> positions_;
    Shape storage_;
    DeviceBuffer buffer_;
    std::vector<uint8_t> initial_;
    aclTensor* tensor_ = nullptr;
};

/// An aclScalar with RAII.
class Scalar {
public:
    Scalar(float value) : scalar_(aclCreateScalar(&value, ACL_FLOAT)) {}  // NOLINT: implicit by design
    ~Scalar() { aclDestroyScalar(scalar_); }
    Scalar(const Scalar&) = delete;
    Scalar& operator=(const Scalar&) = delete;
    aclScalar* get() const { return scalar_; }

private:
    aclScalar* scalar_;
};

// ---------------------------------------------------------------------------
// Runtime fixture and phase 2.

/// Each test runs between aclInit + aclrtSetDevice(0) + aclrtCreateStream
/// and their reverse.
class AclTest : public ::testing::Test {
protected:
    void SetUp() override { start(); }
    void TearDown() override { stop(); }

    void start() {
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    }
    void stop() {
        if (stream_ != nullptr) {
            EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
        }
        stream_ = nullptr;
        EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
        EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
    }
    /// Re-initialises the runtime with a device arena of `threads` workers.
    void restart_with_worker_threads(int threads) {
        stop();
        ::setenv("ACLCPU_WORKER_THREADS", std::to_string(threads).c_str(), 1);
        start();
        ::unsetenv("ACLCPU_WORKER_THREADS");
    }

    aclrtStream stream_ = nullptr;
};

using Phase2 = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

/// Allocates the workspace phase 1 asked for, runs phase 2 and synchronises.
/// Returns phase 2's status, or the synchronisation's if that fails.
inline aclnnStatus run_phase2(Phase2 phase2, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    std::unique_ptr<DeviceBuffer> workspace;
    if (workspaceSize > 0) workspace = std::make_unique<DeviceBuffer>(workspaceSize);
    const aclnnStatus status = phase2(workspace ? workspace->get() : nullptr, workspaceSize, executor, stream);
    if (status != ACLNN_SUCCESS) return status;
    return aclrtSynchronizeStream(stream);
}

/// Phase 1 as phase1(&workspaceSize, &executor), then, when it succeeds,
/// phase 2 through run_phase2, which must succeed.  Returns phase 1's status;
/// *workspace (optional) receives the size phase 1 asked for.
template <class Phase1>
aclnnStatus run_two_phases(const Phase1& phase1, Phase2 phase2, aclrtStream stream, uint64_t* workspace) {
    uint64_t workspaceSize = 99;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus status = phase1(&workspaceSize, &executor);
    if (workspace != nullptr) *workspace = workspaceSize;
    if (status != ACLNN_SUCCESS) return status;
    EXPECT_EQ(run_phase2(phase2, workspaceSize, executor, stream), ACLNN_SUCCESS);
    return status;
}

/// True when the call that just failed left a message for aclGetRecentErrMsg.
inline bool has_error_message() {
    const char* message = aclGetRecentErrMsg();
    return message != nullptr && message[0] != '\0';
}

/// A call that must fail with code and leave a message for aclGetRecentErrMsg.
inline void expect_error(aclnnStatus status, aclnnStatus code) {
    EXPECT_EQ(status, code);
    EXPECT_TRUE(has_error_message());
}

// ---------------------------------------------------------------------------
// Comparison.

/// |actual - expected| <= atol + rtol * |expected|; NaN matches NaN and an
/// infinity matches the same infinity.
struct Tolerance {
    double rtol;
    double atol;
};

/// Tolerance of a result stored in dtype, against a double reference:
/// FLOAT (and DOUBLE, which the operators compute at FLOAT): a few fp32 ulps
/// of libm exp and division, rtol 1e-5;  FLOAT16: half an fp16 ulp
/// (2^-11 = 4.9e-4) plus fp32 error, rtol 1e-3;  BF16: half a bf16 ulp
/// (2^-8 = 3.9e-3) plus fp32 error, rtol 8e-3.  atol covers results near 0.
inline Tolerance tolerance_for(aclDataType dtype) {
    switch (dtype) {
        case ACL_FLOAT16: return {1e-3, 1e-6};
        case ACL_BF16: return {8e-3, 1e-6};
        default: return {1e-5, 1e-7};
    }
}

inline bool close(double actual, double expected, Tolerance tol) {
    if (std::isnan(expected)) return std::isnan(actual);
    if (std::isinf(expected)) return actual == expected;
    return std::fabs(actual - expected) <= tol.atol + tol.rtol * std::fabs(expected);
}

inline void expect_close(const std::vector<double>& actual, const std::vector<double>& expected, Tolerance tol) {
    ASSERT_EQ(actual.size(), expected.size());
    int reported = 0;
    for (size_t i = 0; i < actual.size(); ++i) {
        if (close(actual[i], expected[i], tol)) continue;
        ADD_FAILURE() << "element " << i << ": got " << actual[i] << ", expected " << expected[i]
                      << " (rtol " << tol.rtol << ", atol " << tol.atol << ")";
        if (++reported == 10) return;
    }
}

/// Deterministic pseudo-random values in [lo, hi), the same on every run.
inline std::vector<double> uniform(size_t n, double lo, double hi, uint32_t seed) {
    std::vector<double> values(n);
    uint64_t state = seed * 2654435761u + 1;
    for (double& v : values) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        v = lo + (hi - lo) * static_cast<double>(state >> 11) * 0x1.0p-53;
    }
    return values;
}

/// values rounded to what dtype can hold (so a reference sees the device's inputs).
inline std::vector<double> representable(std::vector<double> values, aclDataType dtype) {
    for (double& v : values) v = representable(v, dtype);
    return values;
}

/// How long a test waits for device work before calling it a hang.
inline constexpr int32_t kBoundMs = 20000;

/// Holds a stream: a blocking host function (aclrtLaunchHostFunc) that
/// returns when open() is called, so that work enqueued behind it stays
/// queued until then.  The hold ends by itself after kBoundMs so that a
/// failing test cannot hang; expired() then says so.
class StreamGate {
public:
    explicit StreamGate(aclrtStream stream) : state_(std::make_shared<State>()) {
        auto ticket = std::make_unique<std::shared_ptr<State>>(state_);
        if (aclrtLaunchHostFunc(stream, &StreamGate::hold, ticket.get()) == ACL_SUCCESS) {
            ticket.release();  // hold() owns it now
        } else {
            ADD_FAILURE() << "aclrtLaunchHostFunc refused the gate";
        }
    }
    ~StreamGate() { open(); }
    StreamGate(const StreamGate&) = delete;
    StreamGate& operator=(const StreamGate&) = delete;

    void open() {
        {
            std::lock_guard<std::mutex> lock(state_->mutex);
            state_->open = true;
        }
        state_->opened.notify_all();
    }
    /// True when the hold ended by timing out instead of by open(); meaningful
    /// once the stream has passed the gate.
    bool expired() const {
        std::lock_guard<std::mutex> lock(state_->mutex);
        return state_->expired;
    }

private:
    struct State {
        std::mutex mutex;
        std::condition_variable opened;
        bool open = false;
        bool expired = false;
    };

    /// Runs on the runtime's host thread and owns a reference to the state,
    /// so the gate object may already be gone.
    static void hold(void* ticket) {
        const std::unique_ptr<std::shared_ptr<State>> owned(static_cast<std::shared_ptr<State>*>(ticket));
        State& state = **owned;
        std::unique_lock<std::mutex> lock(state.mutex);
        state.expired = !state.opened.wait_for(lock, std::chrono::milliseconds(kBoundMs), [&] { return state.open; });
    }

    std::shared_ptr<State> state_;
};

}  // namespace optest
