#include "hccl/hccl_test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <sstream>
#include <thread>
#include <type_traits>

#include "aclcpu_testkit/device_data.hpp"

namespace aclcpu::hccl_test {

std::string take_error_message() {
    const char* message = aclGetRecentErrMsg();
    return message == nullptr ? std::string() : std::string(message);
}

::testing::AssertionResult refused_with(HcclResult code, HcclResult expected, const char* api) {
    const std::string message = take_error_message();
    if (code != expected) {
        return ::testing::AssertionFailure() << "returned " << code << ", expected " << expected << " (message: \""
                                             << message << "\")";
    }
    if (message.find(api) == std::string::npos) {
        return ::testing::AssertionFailure() << "returned " << code << " but the message does not name " << api
                                             << ": \"" << message << "\"";
    }
    return ::testing::AssertionSuccess() << "returned " << code << ": " << message;
}

::testing::AssertionResult contains(const std::string& text, const std::vector<const char*>& parts) {
    for (const char* part : parts) {
        if (text.find(part) == std::string::npos) {
            return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << part << "\"";
        }
    }
    return ::testing::AssertionSuccess();
}

void HcclTest::SetUp() {
    // The testkit's precondition failures become test failures, not aborts.
    testkit::failure_handler() = [](const std::string& message) { ADD_FAILURE() << message; };
    ASSERT_ACL_OK(aclInit(nullptr));
    uint32_t devices = 0;
    ASSERT_ACL_OK(aclrtGetDeviceCount(&devices));
    ASSERT_EQ(kDeviceCount, devices);
}

void HcclTest::TearDown() { EXPECT_ACL_OK(aclFinalize()); }

void run_ranks(uint32_t ranks, const std::function<void(uint32_t rank)>& body, std::chrono::seconds limit) {
    struct State {
        std::mutex mutex;
        std::condition_variable changed;
        std::vector<bool> done;
        uint32_t finished = 0;
    };
    auto state = std::make_shared<State>();
    state->done.assign(ranks, false);
    std::vector<std::thread> threads;
    threads.reserve(ranks);
    for (uint32_t rank = 0; rank < ranks; ++rank) {
        threads.emplace_back([state, &body, rank] {
            body(rank);
            const std::lock_guard<std::mutex> lock(state->mutex);
            state->done[rank] = true;
            ++state->finished;
            state->changed.notify_all();
        });
    }
    std::unique_lock<std::mutex> lock(state->mutex);
    if (!state->changed.wait_for(lock, limit, [&] { return state->finished == ranks; })) {
        std::string stuck;
        for (uint32_t rank = 0; rank < ranks; ++rank) {
            if (!state->done[rank]) stuck += " " + std::to_string(rank);
        }
        std::fprintf(stderr, "HANG in %s.%s: rank thread(s)%s still running after %lld s; aborting\n",
                     ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name(),
                     ::testing::UnitTest::GetInstance()->current_test_info()->name(), stuck.c_str(),
                     static_cast<long long>(limit.count()));
        std::fflush(stderr);
        std::abort();
    }
    lock.unlock();
    for (std::thread& thread : threads) thread.join();
}

bool ThreadBarrier::wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const uint64_t generation = generation_;
    if (++waiting_ == parties_) {
        waiting_ = 0;
        ++generation_;
        changed_.notify_all();
        return true;
    }
    return changed_.wait_for(lock, kHangLimit, [&] { return generation_ != generation; });
}

void with_group(uint32_t ranks, const std::function<void(RankContext&)>& body, const GroupOptions& options) {
    HcclRootInfo root;
    ASSERT_HCCL_OK(HcclGetRootInfo(&root));
    run_ranks(ranks, [&](uint32_t rank) {
        RankContext context;
        context.rank = rank;
        context.ranks = ranks;
        context.device = options.devices.empty() ? static_cast<int32_t>(rank) : options.devices.at(rank);
        ASSERT_ACL_OK(aclrtSetDevice(context.device));
        if (options.execTimeoutSeconds > 0 || !options.name.empty()) {
            HcclCommConfig config;
            HcclCommConfigInit(&config);
            if (options.execTimeoutSeconds > 0) config.hcclExecTimeOut = options.execTimeoutSeconds;
            std::snprintf(config.hcclCommName, sizeof config.hcclCommName, "%s", options.name.c_str());
            ASSERT_HCCL_OK(HcclCommInitRootInfoConfig(ranks, &root, rank, &config, &context.comm));
        } else {
            ASSERT_HCCL_OK(HcclCommInitRootInfo(ranks, &root, rank, &context.comm));
        }
        const aclError created = aclrtCreateStream(&context.stream);
        EXPECT_EQ(ACL_SUCCESS, created) << take_error_message();
        if (created == ACL_SUCCESS) {
            body(context);
            aclrtSynchronizeStream(context.stream);  // The body checked what it expects.
            take_error_message();
            EXPECT_ACL_OK(aclrtDestroyStream(context.stream));
        }
        if (context.comm != nullptr) {
            EXPECT_HCCL_OK(HcclCommDestroy(context.comm));
        }
    });
}

DeviceMemory::DeviceMemory(size_t bytes, uint8_t fill) : bytes_(bytes) {
    const size_t allocated = std::max<size_t>(bytes, 32);
    const aclError status = aclrtMalloc(&data_, allocated, ACL_MEM_MALLOC_HUGE_FIRST);
    if (status != ACL_SUCCESS) {
        ADD_FAILURE() << "aclrtMalloc(" << allocated << ") returned " << status << ": " << take_error_message();
        data_ = nullptr;
        return;
    }
    EXPECT_ACL_OK(aclrtMemset(data_, allocated, fill, allocated));
}

DeviceMemory::DeviceMemory(const std::vector<uint8_t>& contents) : DeviceMemory(contents.size()) { upload(contents); }

DeviceMemory::~DeviceMemory() {
    if (data_ != nullptr) aclrtFree(data_);
}

void DeviceMemory::upload(const std::vector<uint8_t>& contents) {
    ASSERT_EQ(bytes_, contents.size());
    if (bytes_ == 0) return;
    EXPECT_ACL_OK(aclrtMemcpy(data_, bytes_, contents.data(), bytes_, ACL_MEMCPY_HOST_TO_DEVICE));
}

std::vector<uint8_t> DeviceMemory::bytes() const {
    std::vector<uint8_t> host(bytes_);
    if (bytes_ == 0 || data_ == nullptr) return host;
    EXPECT_ACL_OK(aclrtMemcpy(host.data(), bytes_, data_, bytes_, ACL_MEMCPY_DEVICE_TO_HOST));
    return host;
}

// ---------------------------------------------------------------------------

size_t type_size(HcclDataType dtype) {
    switch (dtype) {
        case HCCL_DATA_TYPE_INT8:
        case HCCL_DATA_TYPE_UINT8: return 1;
        case HCCL_DATA_TYPE_INT16:
        case HCCL_DATA_TYPE_UINT16:
        case HCCL_DATA_TYPE_FP16:
        case HCCL_DATA_TYPE_BFP16: return 2;
        case HCCL_DATA_TYPE_INT32:
        case HCCL_DATA_TYPE_UINT32:
        case HCCL_DATA_TYPE_FP32: return 4;
        case HCCL_DATA_TYPE_INT64:
        case HCCL_DATA_TYPE_UINT64:
        case HCCL_DATA_TYPE_FP64: return 8;
        default: ADD_FAILURE() << "type_size: dtype " << dtype << " has no size in the tests"; return 1;
    }
}

const char* type_name(HcclDataType dtype) {
    switch (dtype) {
        case HCCL_DATA_TYPE_INT8: return "int8";
        case HCCL_DATA_TYPE_INT16: return "int16";
        case HCCL_DATA_TYPE_INT32: return "int32";
        case HCCL_DATA_TYPE_INT64: return "int64";
        case HCCL_DATA_TYPE_UINT8: return "uint8";
        case HCCL_DATA_TYPE_UINT16: return "uint16";
        case HCCL_DATA_TYPE_UINT32: return "uint32";
        case HCCL_DATA_TYPE_UINT64: return "uint64";
        case HCCL_DATA_TYPE_FP16: return "fp16";
        case HCCL_DATA_TYPE_FP32: return "fp32";
        case HCCL_DATA_TYPE_FP64: return "fp64";
        case HCCL_DATA_TYPE_BFP16: return "bf16";
        default: return "?";
    }
}

const char* op_name(HcclReduceOp op) {
    switch (op) {
        case HCCL_REDUCE_SUM: return "sum";
        case HCCL_REDUCE_PROD: return "prod";
        case HCCL_REDUCE_MAX: return "max";
        case HCCL_REDUCE_MIN: return "min";
        default: return "?";
    }
}

namespace {

template <class T>
T load(const uint8_t* bytes, size_t index) {
    T value;
    std::memcpy(&value, bytes + index * sizeof(T), sizeof(T));
    return value;
}

template <class T>
void store(uint8_t* bytes, size_t index, T value) {
    std::memcpy(bytes + index * sizeof(T), &value, sizeof(T));
}

}  // namespace

double element_value(HcclDataType dtype, const uint8_t* bytes, size_t index) {
    switch (dtype) {
        case HCCL_DATA_TYPE_INT8: return load<int8_t>(bytes, index);
        case HCCL_DATA_TYPE_INT16: return load<int16_t>(bytes, index);
        case HCCL_DATA_TYPE_INT32: return load<int32_t>(bytes, index);
        case HCCL_DATA_TYPE_INT64: return static_cast<double>(load<int64_t>(bytes, index));
        case HCCL_DATA_TYPE_UINT8: return load<uint8_t>(bytes, index);
        case HCCL_DATA_TYPE_UINT16: return load<uint16_t>(bytes, index);
        case HCCL_DATA_TYPE_UINT32: return load<uint32_t>(bytes, index);
        case HCCL_DATA_TYPE_UINT64: return static_cast<double>(load<uint64_t>(bytes, index));
        case HCCL_DATA_TYPE_FP16: return testkit::fp16_bits_to_double(load<uint16_t>(bytes, index));
        case HCCL_DATA_TYPE_BFP16: return testkit::bf16_bits_to_double(load<uint16_t>(bytes, index));
        case HCCL_DATA_TYPE_FP32: return load<float>(bytes, index);
        case HCCL_DATA_TYPE_FP64: return load<double>(bytes, index);
        default: return std::nan("");
    }
}

uint64_t Random::next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double Random::uniform(double low, double high) {
    return low + (high - low) * (static_cast<double>(next() >> 11) * 0x1.0p-53);
}

std::vector<uint8_t> reduction_input(HcclDataType dtype, HcclReduceOp op, size_t count, uint64_t seed) {
    Random random(seed * 0x2545F4914F6CDD1DULL + 17);
    const size_t width = type_size(dtype);
    std::vector<uint8_t> out(count * width);
    for (size_t i = 0; i < count; ++i) {
        const bool prod = op == HCCL_REDUCE_PROD;
        const double sign = (random.next() & 1) != 0 ? -1.0 : 1.0;
        switch (dtype) {
            case HCCL_DATA_TYPE_INT8:
            case HCCL_DATA_TYPE_INT16:
            case HCCL_DATA_TYPE_INT32:
            case HCCL_DATA_TYPE_INT64: {
                uint64_t bits = random.next();
                // Products: half the elements small, half odd, so that they
                // neither all vanish nor all stay in range.
                if (prod && (i & 1) == 0) bits = static_cast<uint64_t>(static_cast<int64_t>(bits % 7) - 3);
                if (prod && (i & 1) == 1) bits |= 1;
                std::memcpy(&out[i * width], &bits, width);  // little endian: the low bytes
                break;
            }
            case HCCL_DATA_TYPE_FP32: {
                const double value = prod ? sign * random.uniform(0.5, 2.0)
                                          : op == HCCL_REDUCE_SUM ? random.uniform(-1000.0, 1000.0)
                                                                  : random.uniform(-1e6, 1e6);
                store(out.data(), i, static_cast<float>(value));
                break;
            }
            case HCCL_DATA_TYPE_FP16: {
                const double value = prod ? sign * random.uniform(0.5, 2.0)
                                          : op == HCCL_REDUCE_SUM ? random.uniform(-100.0, 100.0)
                                                                  : random.uniform(-60000.0, 60000.0);
                store(out.data(), i, testkit::double_to_fp16_bits(value));
                break;
            }
            case HCCL_DATA_TYPE_BFP16: {
                const double value = prod ? sign * random.uniform(0.5, 2.0)
                                          : op == HCCL_REDUCE_SUM ? random.uniform(-1000.0, 1000.0)
                                                                  : random.uniform(-1e30, 1e30);
                store(out.data(), i, testkit::double_to_bf16_bits(value));
                break;
            }
            default: {
                const uint64_t bits = random.next();
                std::memcpy(&out[i * width], &bits, width);
            }
        }
    }
    return out;
}

std::vector<uint8_t> pattern_bytes(HcclDataType dtype, size_t count, uint64_t seed) {
    Random random(seed * 0x9E3779B97F4A7C15ULL + 101);
    std::vector<uint8_t> out(count * type_size(dtype));
    for (size_t i = 0; i < out.size(); i += 8) {
        const uint64_t bits = random.next();
        std::memcpy(&out[i], &bits, std::min<size_t>(8, out.size() - i));
    }
    return out;
}

namespace {

template <class T>
T combine_integers(HcclReduceOp op, T a, T b) {
    using U = std::make_unsigned_t<T>;
    const uint64_t ua = static_cast<U>(a), ub = static_cast<U>(b);
    switch (op) {
        case HCCL_REDUCE_SUM: return static_cast<T>(static_cast<U>(ua + ub));
        case HCCL_REDUCE_PROD: return static_cast<T>(static_cast<U>(ua * ub));
        case HCCL_REDUCE_MAX: return b > a ? b : a;
        case HCCL_REDUCE_MIN: return b < a ? b : a;
        default: return a;
    }
}

float combine_floats(HcclReduceOp op, float a, float b) {
    switch (op) {
        case HCCL_REDUCE_SUM: return a + b;
        case HCCL_REDUCE_PROD: return a * b;
        case HCCL_REDUCE_MAX: return (std::isnan(b) || b > a) ? b : a;
        case HCCL_REDUCE_MIN: return (std::isnan(b) || b < a) ? b : a;
        default: return a;
    }
}

template <class T>
void reduce_integers(HcclReduceOp op, const std::vector<std::vector<uint8_t>>& inputs, size_t offset, size_t count,
                     uint8_t* out) {
    for (size_t i = 0; i < count; ++i) {
        T acc = load<T>(inputs[0].data(), offset + i);
        for (size_t r = 1; r < inputs.size(); ++r) {
            acc = combine_integers(op, acc, load<T>(inputs[r].data(), offset + i));
        }
        store(out, i, acc);
    }
}

/// decode: element bits -> float (exact); encode: float -> element bits (one rounding).
template <class Bits, class Decode, class Encode>
void reduce_floats(HcclReduceOp op, const std::vector<std::vector<uint8_t>>& inputs, size_t offset, size_t count,
                   uint8_t* out, Decode decode, Encode encode) {
    for (size_t i = 0; i < count; ++i) {
        float acc = decode(load<Bits>(inputs[0].data(), offset + i));
        for (size_t r = 1; r < inputs.size(); ++r) {
            acc = combine_floats(op, acc, decode(load<Bits>(inputs[r].data(), offset + i)));
        }
        store(out, i, encode(acc));
    }
}

}  // namespace

std::vector<uint8_t> reduce_reference(HcclDataType dtype, HcclReduceOp op,
                                      const std::vector<std::vector<uint8_t>>& inputs, size_t offset, size_t count) {
    std::vector<uint8_t> out(count * type_size(dtype));
    uint8_t* o = out.data();
    switch (dtype) {
        case HCCL_DATA_TYPE_INT8: reduce_integers<int8_t>(op, inputs, offset, count, o); break;
        case HCCL_DATA_TYPE_INT16: reduce_integers<int16_t>(op, inputs, offset, count, o); break;
        case HCCL_DATA_TYPE_INT32: reduce_integers<int32_t>(op, inputs, offset, count, o); break;
        case HCCL_DATA_TYPE_INT64: reduce_integers<int64_t>(op, inputs, offset, count, o); break;
        case HCCL_DATA_TYPE_FP32:
            reduce_floats<float>(op, inputs, offset, count, o, [](float v) { return v; }, [](float v) { return v; });
            break;
        case HCCL_DATA_TYPE_FP16:
            reduce_floats<uint16_t>(
                op, inputs, offset, count, o,
                [](uint16_t bits) { return static_cast<float>(testkit::fp16_bits_to_double(bits)); },
                [](float v) { return testkit::double_to_fp16_bits(v); });
            break;
        case HCCL_DATA_TYPE_BFP16:
            reduce_floats<uint16_t>(
                op, inputs, offset, count, o,
                [](uint16_t bits) { return static_cast<float>(testkit::bf16_bits_to_double(bits)); },
                [](float v) { return testkit::double_to_bf16_bits(v); });
            break;
        default: ADD_FAILURE() << "reduce_reference: no reference for dtype " << dtype;
    }
    return out;
}

std::string compare_elements(HcclDataType dtype, const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
    if (got.size() != want.size()) {
        return "sizes differ: got " + std::to_string(got.size()) + " bytes, want " + std::to_string(want.size());
    }
    const size_t width = type_size(dtype);
    size_t differing = 0;
    std::ostringstream out;
    for (size_t i = 0; i < got.size() / width; ++i) {
        if (std::memcmp(&got[i * width], &want[i * width], width) == 0) continue;
        if (++differing <= 4) {
            out << (differing > 1 ? "; " : "") << type_name(dtype) << " element " << i << ": got "
                << element_value(dtype, got.data(), i) << ", want " << element_value(dtype, want.data(), i);
        }
    }
    if (differing == 0) return "";
    out << " (" << differing << " of " << got.size() / width << " elements differ)";
    return out.str();
}

std::vector<uint8_t> elements_of(const std::vector<uint8_t>& v, HcclDataType dtype, size_t offset, size_t count) {
    const size_t width = type_size(dtype);
    return std::vector<uint8_t>(v.begin() + static_cast<std::ptrdiff_t>(offset * width),
                                v.begin() + static_cast<std::ptrdiff_t>((offset + count) * width));
}

}  // namespace aclcpu::hccl_test
