// Shared support for the operator tests: the device data of
// aclcpu_testkit/device_data.hpp (tensors, scalars, host encoding of every
// dtype) as GoogleTest sees it, a fixture owning the acl runtime, a phase-2
// driver and a tolerance-aware comparison.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclcpu_testkit/device_data.hpp"

namespace optest {

using namespace aclcpu::testkit;

/// Device data failures are test failures in a GoogleTest program.
inline const bool kFailuresAreTestFailures = [] {
    aclcpu::testkit::failure_handler() = [](const std::string& message) { ADD_FAILURE() << message; };
    return true;
}();

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
    /// Runs run() -- one launch, returning its outputs read back -- after
    /// restarting the runtime with 1, 2 and 8 workers: the results must be
    /// the same for any worker count.
    template <class Run>
    void expect_same_for_any_worker_count(const Run& run) {
        std::vector<std::vector<double>> first;
        for (int threads : {1, 2, 8}) {
            restart_with_worker_threads(threads);
            const std::vector<std::vector<double>> results = run();
            if (threads == 1) first = results;
            else EXPECT_EQ(results, first) << threads << " workers";
        }
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

/// Phase 1 alone, as phase1(&workspaceSize, &executor): for the error paths.
/// An executor it makes is destroyed.
template <class Phase1>
aclnnStatus phase1_only(const Phase1& phase1) {
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus status = phase1(&workspace, &executor);
    if (status == ACLNN_SUCCESS && executor != nullptr) aclDestroyAclOpExecutor(executor);
    return status;
}

/// Phase 1 of an aclnn operator alone, entry(args..., &workspaceSize,
/// &executor), through phase1_only.
template <class Entry, class... Args>
aclnnStatus phase1_of(Entry entry, const Args&... args) {
    return phase1_only([&](uint64_t* size, aclOpExecutor** executor) { return entry(args..., size, executor); });
}

/// Both phases of an aclnn operator, phase1(args..., &workspaceSize,
/// &executor) then phase2, through run_two_phases.
template <class Entry, class... Args>
aclnnStatus run_aclnn(aclrtStream stream, Entry phase1, Phase2 phase2, const Args&... args) {
    return run_two_phases([&](uint64_t* size, aclOpExecutor** executor) { return phase1(args..., size, executor); },
                          phase2, stream, nullptr);
}

/// An aclTensor of a contiguous FLOAT shape whose device address is null,
/// destroyed with it: phase 1 accepts it, the device would fault on it.
class NullAddressTensor {
public:
    explicit NullAddressTensor(const Shape& shape)
        : tensor_(aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape.data(),
                                  shape.size(), nullptr)) {}
    ~NullAddressTensor() { aclDestroyTensor(tensor_); }
    NullAddressTensor(const NullAddressTensor&) = delete;
    NullAddressTensor& operator=(const NullAddressTensor&) = delete;
    aclTensor* get() const { return tensor_; }

private:
    aclTensor* tensor_;
};

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

/// The call failed with code, and the message it left (which
/// aclGetRecentErrMsg hands out once) names `word` (an argument, a dtype,
/// a shape, ...).  Returns the message.
inline std::string expect_error_naming(aclnnStatus status, aclnnStatus code, const std::string& word) {
    EXPECT_EQ(status, code);
    const char* recent = aclGetRecentErrMsg();
    const std::string message = recent != nullptr ? recent : "";
    EXPECT_NE(message.find(word), std::string::npos) << "message \"" << message << "\" does not name " << word;
    return message;
}

/// call(c) of each case: 161002 with a message, traced by c.why.
template <class Case, class Call>
void expect_each_refused(const std::vector<Case>& cases, const Call& call) {
    for (const Case& c : cases) {
        SCOPED_TRACE(c.why);
        expect_error(call(c), ACLNN_ERR_PARAM_INVALID);
    }
}

/// call(c) of each case: 161002 with a message naming c.words, traced by them.
template <class Case, class Call>
void expect_each_refused_naming(const std::vector<Case>& cases, const Call& call) {
    for (const Case& c : cases) {
        SCOPED_TRACE(c.words);
        expect_error_naming(call(c), ACLNN_ERR_PARAM_INVALID, c.words);
    }
}

/// A refused call of an operator on two tensors and an out: why, and their views.
struct TripleCase {
    const char* why;
    TensorSpec first;
    TensorSpec second;
    TensorSpec out;
};

/// phase1(first, second, out) (an operator's phase 1, its other arguments
/// bound) on tensors of each case's views: 161002 with a message.
template <class Phase1>
void expect_each_triple_refused(const Phase1& phase1, const std::vector<TripleCase>& cases) {
    expect_each_refused(cases, [&](const TripleCase& c) {
        return phase1(DeviceTensor(c.first).get(), DeviceTensor(c.second).get(), DeviceTensor(c.out).get());
    });
}

/// f(std::integral_constant<size_t, I>{}) for each I in order.
template <class F, size_t... I>
void for_each_index(const F& f, std::index_sequence<I...>) {
    (f(std::integral_constant<size_t, I>{}), ...);
}

/// Phase 1 of entry on args (each one valid) with each pointer argument in
/// turn -- the workspace size and executor out-parameters included --
/// replaced by nullptr: 161001 with a message each time, a message naming
/// the argument for the first names.size() pointer arguments (names: the
/// names CANN's op_api gives them, in order).
template <class... Params, class... Args>
void expect_each_null_is_161001_naming(aclnnStatus (*entry)(Params...), const std::vector<std::string>& names,
                                       const Args&... args) {
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    const std::tuple<Params...> valid(args..., &workspace, &executor);
    auto name = names.begin();  // of the next pointer parameter
    const auto null_at = [&](auto index) {
        using Param = std::tuple_element_t<decltype(index)::value, std::tuple<Params...>>;
        if constexpr (std::is_pointer_v<Param>) {
            std::tuple<Params...> call = valid;
            std::get<decltype(index)::value>(call) = nullptr;
            SCOPED_TRACE("null argument " + std::to_string(decltype(index)::value));
            EXPECT_EQ(std::apply(entry, call), ACLNN_ERR_PARAM_NULLPTR);
            const char* recent = aclGetRecentErrMsg();  // handed out once
            const std::string message = recent != nullptr ? recent : "";
            EXPECT_FALSE(message.empty());
            if (name != names.end()) {
                EXPECT_NE(message.find(*name), std::string::npos) << "message \"" << message << "\" does not name " << *name;
                ++name;
            }
        }
    };
    for_each_index(null_at, std::index_sequence_for<Params...>{});
}

/// expect_each_null_is_161001_naming without the names.
template <class... Params, class... Args>
void expect_each_null_is_161001(aclnnStatus (*entry)(Params...), const Args&... args) {
    expect_each_null_is_161001_naming(entry, {}, args...);
}

/// Phase 1 over a NullAddressTensor succeeds (only phase 2 reads device
/// addresses); phase 2 then fails as the faulting device would
/// (ACL_ERROR_RT_AICORE_EXCEPTION, with a message) and writes no element of
/// `outputs`, which still hold DeviceTensor::output's fill.
template <class Phase1>
void expect_phase2_faults(const Phase1& phase1, Phase2 phase2, aclrtStream stream,
                          std::initializer_list<const DeviceTensor*> outputs, double fill = -7.0) {
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(phase1(&workspaceSize, &executor), ACLNN_SUCCESS);
    EXPECT_EQ(run_phase2(phase2, workspaceSize, executor, stream), ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_TRUE(has_error_message());
    for (const DeviceTensor* output : outputs) {
        for (double v : output->read()) EXPECT_EQ(v, fill);
    }
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


/// The row-major element of `values` (of `shape`) that output element i of
/// outShape reads when the operand is broadcast to outShape.
inline double broadcast_value(const std::vector<double>& values, const Shape& shape, const Shape& outShape,
                              int64_t i) {
    int64_t index = 0;
    int64_t stride = 1;
    for (size_t d = outShape.size(); d-- > 0;) {
        const int64_t coordinate = i % outShape[d];
        i /= outShape[d];
        const size_t lead = outShape.size() - shape.size();
        if (d < lead) continue;
        const int64_t size = shape[d - lead];
        index += (size == 1 ? 0 : coordinate) * stride;
        stride *= size;
    }
    return values[static_cast<size_t>(index)];
}

/// An operand of a test: where it lives and its row-major values.
struct Operand {
    TensorSpec spec;
    std::vector<double> values;
};

/// One launch of a binary elementwise operator (both phases, synchronised):
/// a and b read, out written; *workspace receives phase 1's size.
using BinaryLaunch =
    std::function<aclnnStatus(const DeviceTensor& a, const DeviceTensor& b, DeviceTensor& out, uint64_t* workspace)>;

/// The BinaryLaunch of an aclnn operator taking (a, b, out): phase1(a, b,
/// out, &workspaceSize, &executor), then phase2 on stream.
template <class Entry>
BinaryLaunch binary_launch(aclrtStream stream, Entry phase1, Phase2 phase2) {
    return [stream, phase1, phase2](const DeviceTensor& a, const DeviceTensor& b, DeviceTensor& out,
                                    uint64_t* workspace) {
        const auto phase1On = [&](uint64_t* size, aclOpExecutor** executor) {
            return phase1(a.get(), b.get(), out.get(), size, executor);
        };
        return run_two_phases(phase1On, phase2, stream, workspace);
    };
}

/// Launches on a and b (their values first rounded to their dtypes, so the
/// reference sees what the device sees) into a fresh out, and expects
/// success, phase 1's workspace size, every element of out within tol of
/// reference(a, b) at that element (operands broadcast to out's shape), and
/// no byte written outside out's view.
template <class Reference>
void check_binary(const BinaryLaunch& launch, Operand a, Operand b, const TensorSpec& outSpec,
                  const Reference& reference, Tolerance tol, uint64_t expectedWorkspace = 0) {
    a.values = representable(a.values, a.spec.dtype);
    b.values = representable(b.values, b.spec.dtype);
    const DeviceTensor aTensor(a.spec, a.values);
    const DeviceTensor bTensor(b.spec, b.values);
    auto out = DeviceTensor::output(outSpec);
    uint64_t workspace = expectedWorkspace + 1;
    ASSERT_EQ(launch(aTensor, bTensor, *out, &workspace), ACLNN_SUCCESS);
    EXPECT_EQ(workspace, expectedWorkspace);
    std::vector<double> expected;
    for (int64_t i = 0; i < numel(outSpec.shape); ++i) {
        expected.push_back(reference(broadcast_value(a.values, a.spec.shape, outSpec.shape, i),
                                     broadcast_value(b.values, b.spec.shape, outSpec.shape, i)));
    }
    expect_close(out->read(), expected, tol);
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
}

/// How long a test waits for device work before calling it a hang.
/// The element of a row-major [batch..., rows, cols] tensor of shape
/// `shape` that batch index b (over batchShape, broadcast) reads.
inline size_t matrix_at(const Shape& shape, const Shape& batchShape, int64_t b, int64_t row, int64_t col) {
    const size_t rank = shape.size();
    const int64_t rows = shape[rank - 2];
    const int64_t cols = shape[rank - 1];
    int64_t index = 0;
    int64_t stride = rows * cols;
    // Batch dims from the last: batchShape's coordinate, the tensor's own
    // dim (trailing-aligned; 1 broadcasts, missing ones too).
    for (size_t d = 0; d < batchShape.size(); ++d) {
        const int64_t coordinate = b % batchShape[batchShape.size() - 1 - d];
        b /= batchShape[batchShape.size() - 1 - d];
        if (d + 2 >= rank) continue;
        const int64_t size = shape[rank - 3 - d];
        index += (size == 1 ? 0 : coordinate) * stride;
        stride *= size;
    }
    return static_cast<size_t>(index + row * cols + col);
}

/// The broadcast batch dims of two [batch..., rows, cols] shapes.
inline Shape batch_shape_of(const Shape& a, const Shape& b) {
    const size_t rank = std::max(a.size(), b.size()) - 2;
    Shape batch(rank, 1);
    for (size_t d = 0; d < rank; ++d) {
        for (const Shape* s : {&a, &b}) {
            const size_t batchRank = s->size() - 2;
            if (d + batchRank >= rank) batch[d] = std::max(batch[d], (*s)[d + batchRank - rank]);
        }
    }
    return batch;
}

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
