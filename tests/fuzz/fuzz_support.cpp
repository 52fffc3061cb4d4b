// acl-cpu fuzzing: the decoder, the invariant checks and the runtime setup
// shared by every fuzz target.
#include "fuzz_support.hpp"

#include <sanitizer/asan_interface.h>

#include <algorithm>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>

namespace aclcpu::fuzz {
namespace {

/// dim() answers these for byte values 224-255: signs, int64 and int32
/// edges, products that overflow, and the sizes the operators' limits and
/// tilings turn on (UB blocks, S2 <= 4096, 8192-element chunks).  The last
/// entry is a placeholder for a raw 8-byte value.
constexpr int64_t kSpecialDims[32] = {
    -1,   INT64_MIN, INT64_MAX, int64_t{1} << 62, int64_t{1} << 32, int64_t{1} << 31, int64_t{1} << 40,
    3037000500,  // just above sqrt(2^63): its square overflows int64
    16,   63,   64,   65,   127,  128,  255,  256,  1000, 1023, 1024, 1025, 2048, 4095, 4096, 4097,
    8192, 8193, 65536, int64_t{1} << 20, -4096, -(int64_t{1} << 40), 9, 0};
constexpr uint8_t kFirstSpecialDim = 224;

/// Every dtype code CANN defines, then codes it leaves unused and codes far
/// outside the enum (a C caller may pass any int).
constexpr int kDtypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_BOOL, ACL_INT8, ACL_INT16, ACL_INT32,
                           ACL_INT64, ACL_UINT8, ACL_UINT16, ACL_UINT32, ACL_UINT64, ACL_COMPLEX64, ACL_COMPLEX128,
                           ACL_COMPLEX32, ACL_STRING, ACL_INT4, ACL_UINT1, ACL_HIFLOAT8, ACL_FLOAT8_E5M2,
                           ACL_FLOAT8_E4M3FN, ACL_FLOAT8_E8M0, ACL_FLOAT6_E3M2, ACL_FLOAT6_E2M3, ACL_FLOAT4_E2M1,
                           ACL_FLOAT4_E1M2, ACL_DT_UNDEFINED, 5, 14, 15, 18, 26, 28, 42, 255, INT_MAX, INT_MIN, -2};

constexpr int kFormats[] = {ACL_FORMAT_ND, ACL_FORMAT_NCHW, ACL_FORMAT_NHWC, ACL_FORMAT_NC1HWC0,
                            ACL_FORMAT_FRACTAL_Z, ACL_FORMAT_NC1HWC0_C04, ACL_FORMAT_HWCN, ACL_FORMAT_NDHWC,
                            ACL_FORMAT_FRACTAL_NZ, ACL_FORMAT_NCDHW, ACL_FORMAT_NDC1HWC0, ACL_FRACTAL_Z_3D,
                            ACL_FORMAT_NC, ACL_FORMAT_NCL, ACL_FORMAT_FRACTAL_NZ_C0_16, ACL_FORMAT_FRACTAL_NZ_C0_32,
                            ACL_FORMAT_FRACTAL_NZ_C0_2, ACL_FORMAT_FRACTAL_NZ_C0_4, ACL_FORMAT_FRACTAL_NZ_C0_8,
                            ACL_FORMAT_UNDEFINED, 5, 100, INT_MAX};

/// Storage and views larger than this stay off the device: phase 2 of them
/// would cost more time than it finds bugs.
constexpr int64_t kMaxDeviceElements = int64_t{1} << 16;
/// A workspace larger than this is not allocated; the executor is destroyed.
constexpr uint64_t kMaxWorkspaceBytes = uint64_t{64} << 20;
/// aclrtMalloc pads every allocation by at least this much (CANN's 32-byte
/// padding); the fuzzers poison it so that ASan catches any access just
/// past a tensor's storage, except the part a view reaches into (an
/// operator may run a view past its storage into the block, see
/// usable_bytes).
constexpr size_t kGuardBytes = 32;

/// The usable bytes of the block aclrtMalloc(size) returns: CANN's rounded
/// size (up to 32, plus 32 of padding), which bounds a view that reaches past
/// its storage (ops/common check_view_in_storage).
int64_t usable_bytes(size_t size) {
    return static_cast<int64_t>((std::max<size_t>(size, 1) + 31) / 32 * 32 + 32);
}

aclrtStream g_stream = nullptr;

int64_t saturating_mul(int64_t a, int64_t b) {
    int64_t product = 0;
    return __builtin_mul_overflow(a, b, &product) ? INT64_MAX : product;
}

int64_t saturating_add(int64_t a, int64_t b) {
    int64_t sum = 0;
    return __builtin_add_overflow(a, b, &sum) ? INT64_MAX : sum;
}

/// Elements of dims (all non-negative), saturating at INT64_MAX; 0 when any dim is 0.
int64_t element_count(const std::vector<int64_t>& dims) {
    if (std::find(dims.begin(), dims.end(), 0) != dims.end()) return 0;
    int64_t count = 1;
    for (int64_t dim : dims) count = saturating_mul(count, dim);
    return count;
}

/// The strides of a dense layout of shape, row-major (last dim innermost) or
/// column-major (first dim innermost); saturating, size-0 dims counted as 1.
std::vector<int64_t> dense_strides(const std::vector<int64_t>& shape, bool rowMajor) {
    std::vector<int64_t> strides(shape.size());
    int64_t step = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
        const size_t d = rowMajor ? shape.size() - 1 - i : i;
        strides[d] = step;
        step = saturating_mul(step, std::max<int64_t>(shape[d], 1));
    }
    return strides;
}

std::vector<int64_t> strides_of(const TensorSpec& spec) {
    return spec.hasStrides ? spec.strides : dense_strides(spec.view, true);
}

/// One past the last element a view reaches from its data pointer
/// (saturating; 0 for an empty view or one with a negative dim, which no
/// tensor can have); negative strides count as 0.
int64_t reach_of(const TensorSpec& spec) {
    if (std::any_of(spec.view.begin(), spec.view.end(), [](int64_t d) { return d <= 0; })) return 0;
    const std::vector<int64_t> strides = strides_of(spec);
    int64_t last = spec.offset;
    for (size_t d = 0; d < spec.view.size(); ++d) {
        last = saturating_add(last, saturating_mul(spec.view[d] - 1, std::max<int64_t>(strides[d], 0)));
    }
    return saturating_add(std::max<int64_t>(last, 0), 1);
}

std::string dims_string(const std::vector<int64_t>& dims) {
    std::string text = "[";
    for (size_t d = 0; d < dims.size(); ++d) text += (d != 0 ? "," : "") + std::to_string(dims[d]);
    return text + "]";
}

std::string spec_string(const TensorSpec& spec) {
    if (spec.null) return "null";
    return "view " + dims_string(spec.view) + " strides " + (spec.hasStrides ? dims_string(spec.strides) : "null") +
           " offset " + std::to_string(spec.offset) + " storage " + dims_string(spec.storage) + " dtype " +
           std::to_string(spec.dtype) + " format " + std::to_string(spec.format);
}

bool is_documented_aclnn_status(aclnnStatus status) {
    return status == ACLNN_SUCCESS || status == ACLNN_ERR_PARAM_NULLPTR || status == ACLNN_ERR_PARAM_INVALID ||
           (status >= 561000 && status <= 561999);
}

uint64_t splitmix64(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void expect_acl_success(const char* api, aclError status) {
    if (status != ACL_SUCCESS) fail("%s failed with %d", api, status);
}

/// The guard bytes past a buffer of `size` a view reaching `reach` bytes
/// from its start leaves poisoned: [max(size, reach), size + kGuardBytes).
struct Guard {
    Guard(size_t size, size_t reach) : from(std::max(size, reach)), bytes(size + kGuardBytes - std::min(from, size + kGuardBytes)) {}
    size_t from;
    size_t bytes;
};

/// Memory from aclrtMalloc whose guard bytes are poisoned.
void* device_alloc(size_t size, size_t reach = 0) {
    void* memory = nullptr;
    expect_acl_success("aclrtMalloc", aclrtMalloc(&memory, std::max<size_t>(size, 1), ACL_MEM_MALLOC_HUGE_FIRST));
    const Guard guard(size, reach);
    ASAN_POISON_MEMORY_REGION(static_cast<char*>(memory) + guard.from, guard.bytes);
    return memory;
}

void device_free(void* memory, size_t size, size_t reach = 0) {
    if (memory == nullptr) return;
    const Guard guard(size, reach);
    ASAN_UNPOISON_MEMORY_REGION(static_cast<char*>(memory) + guard.from, guard.bytes);
    expect_acl_success("aclrtFree", aclrtFree(memory));
}

std::vector<unsigned char> read_device(const void* memory, size_t size) {
    std::vector<unsigned char> host(size);
    if (size != 0) {
        expect_acl_success("aclrtMemcpy", aclrtMemcpy(host.data(), size, memory, size, ACL_MEMCPY_DEVICE_TO_HOST));
    }
    return host;
}

}  // namespace

TensorSpec TensorSpec::contiguous(std::vector<int64_t> shape, aclDataType dtype) {
    TensorSpec spec;
    spec.storage = {element_count(shape)};
    spec.view = std::move(shape);
    spec.dtype = dtype;
    return spec;
}

// ---------------------------------------------------------------------------- Decoder

bool Decoder::bit() { return provider_.ConsumeBool(); }

bool Decoder::rare() { return provider_.ConsumeIntegralInRange<uint8_t>(0, 15) == 15; }

double Decoder::real() {
    const uint64_t bits = word();
    double value = 0;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

int64_t Decoder::dim() {
    const uint8_t choice = byte();
    if (choice < kFirstSpecialDim) return choice % 9;
    const size_t special = choice - kFirstSpecialDim;
    if (special + 1 < std::size(kSpecialDims)) return kSpecialDims[special];
    return static_cast<int64_t>(word());
}

aclDataType Decoder::dtype() { return static_cast<aclDataType>(kDtypes[byte() % std::size(kDtypes)]); }

aclFormat Decoder::format() { return static_cast<aclFormat>(kFormats[byte() % std::size(kFormats)]); }

TensorSpec Decoder::tensor() {
    enum Source { fresh, copy, broadcastVariant, null };
    const uint8_t sourceChoice = provider_.ConsumeIntegralInRange<uint8_t>(0, 7);
    Source source = sourceChoice < 2 ? fresh : sourceChoice < 6 ? copy : sourceChoice == 6 ? broadcastVariant : null;
    TensorSpec spec;
    if (source == null) {
        spec.null = true;
        return spec;
    }
    if (made_.empty()) source = fresh;
    if (source == fresh) {
        spec.view.resize(provider_.ConsumeIntegralInRange<uint8_t>(0, 9));
        for (int64_t& d : spec.view) d = dim();
        spec.dtype = dtype();
    } else {
        const TensorSpec& ref = made_[provider_.ConsumeIntegralInRange<size_t>(0, made_.size() - 1)];
        spec.view = ref.view;
        if (source == broadcastVariant) {
            const size_t drop = provider_.ConsumeIntegralInRange<size_t>(0, spec.view.size());
            spec.view.erase(spec.view.begin(), spec.view.begin() + static_cast<std::ptrdiff_t>(drop));
            for (int64_t& d : spec.view) {
                if (bit()) d = 1;
            }
        }
        spec.dtype = bit() ? dtype() : ref.dtype;
    }

    switch (provider_.ConsumeIntegralInRange<uint8_t>(0, 3)) {
        case 0: break;
        case 1: spec.hasStrides = true; spec.strides = dense_strides(spec.view, true); break;
        case 2:
            spec.hasStrides = true;
            spec.strides.resize(spec.view.size());
            for (int64_t& s : spec.strides) s = dim();
            break;
        default: spec.hasStrides = true; spec.strides = dense_strides(spec.view, false); break;
    }
    if (bit()) spec.offset = dim();

    const int64_t reach = reach_of(spec);
    switch (provider_.ConsumeIntegralInRange<uint8_t>(0, 4)) {
        case 0: spec.storage = {reach}; break;
        case 1: spec.storage = {saturating_add(reach, byte())}; break;
        case 2: spec.storage = spec.view; break;
        case 3:
            spec.storage.resize(provider_.ConsumeIntegralInRange<uint8_t>(0, 9));
            for (int64_t& d : spec.storage) d = dim();
            break;
        default: spec.storage = {std::max<int64_t>(reach - 1, 0)}; break;
    }
    const uint8_t formatChoice = provider_.ConsumeIntegralInRange<uint8_t>(0, 7);
    spec.format = formatChoice < 6 ? ACL_FORMAT_ND : formatChoice == 6 ? ACL_FORMAT_FRACTAL_NZ : format();
    made_.push_back(spec);
    return spec;
}

ScalarSpec Decoder::scalar() {
    ScalarSpec spec;
    const uint8_t kind = provider_.ConsumeIntegralInRange<uint8_t>(0, 7);
    if (kind == 7) {
        spec.kind = ScalarSpec::Kind::nullScalar;
        return spec;
    }
    spec.kind = kind == 6 ? ScalarSpec::Kind::nullValue : ScalarSpec::Kind::value;
    spec.dtype = dtype();
    const uint64_t words[2] = {word(), word()};
    std::memcpy(spec.bytes, words, sizeof words);
    return spec;
}

// ---------------------------------------------------------------------------- invariant

void fail(const char* format, ...) {
    std::fprintf(stderr, "acl-cpu fuzz invariant broken: ");
    va_list args;
    va_start(args, format);
    std::vfprintf(stderr, format, args);
    va_end(args);
    std::fprintf(stderr, "\n");
    std::abort();
}

void clear_error_message() { (void)aclGetRecentErrMsg(); }

bool tracing() {
    static const bool enabled = std::getenv("ACLCPU_FUZZ_TRACE") != nullptr;
    return enabled;
}

void expect_failure_message(const char* api) {
    const char* message = aclGetRecentErrMsg();
    if (message == nullptr || message[0] == '\0') fail("%s failed without a message for aclGetRecentErrMsg", api);
}

void expect_aclnn_status(const char* api, aclnnStatus status) {
    if (!is_documented_aclnn_status(status)) fail("%s returned %d, not a documented aclnn status", api, status);
    if (status != ACLNN_SUCCESS) expect_failure_message(api);
}

// ---------------------------------------------------------------------------- Scalar

Scalar::Scalar(const ScalarSpec& spec) {
    if (spec.kind == ScalarSpec::Kind::nullScalar) return;
    // aclCreateScalar copies at most 16 bytes, so a copy of the spec's value is a valid argument.
    unsigned char value[sizeof spec.bytes];
    std::memcpy(value, spec.bytes, sizeof value);
    clear_error_message();
    scalar_ = aclCreateScalar(spec.kind == ScalarSpec::Kind::value ? value : nullptr, spec.dtype);
    if (scalar_ == nullptr) expect_failure_message("aclCreateScalar");
}

Scalar::~Scalar() { aclDestroyScalar(scalar_); }

// ---------------------------------------------------------------------------- OperatorCall

struct OperatorCall::Operand {
    TensorSpec spec;
    aclDataType writtenDtype = ACL_FLOAT;
    bool isOutput = false;
    bool relaid = false;                   ///< Every usable byte of its block may be written.
    aclTensor* tensor = nullptr;           ///< nullptr: a null argument, or refused by aclCreateTensor.
    void* device = nullptr;                ///< nullptr: the tensor has no data (phase 1 only).
    size_t bytes = 0;                      ///< Of the storage on the device.
    size_t reach = 0;                      ///< Bytes its view reaches from the data pointer.
    std::vector<unsigned char> initial;    ///< What the device buffer held before phase 1.

    ~Operand() {
        aclDestroyTensor(tensor);
        device_free(device, bytes, reach);
    }

    /// Bytes a view element of this operand occupies as the operator writes it.
    int64_t written_size() const { return static_cast<int64_t>(aclDataTypeSize(writtenDtype)); }

    /// Bytes the view reaches from the data pointer, as read or as written.
    int64_t reach_bytes() const {
        const int64_t elementBytes = std::max<int64_t>(aclDataTypeSize(spec.dtype), written_size());
        return saturating_mul(reach_of(spec), elementBytes);
    }

    /// For each byte of the storage, whether the operator may write it: the
    /// elements of the view, in the written dtype, that lie in the storage.
    std::vector<bool> writable_bytes() const {
        std::vector<bool> writable(bytes, relaid);
        if (relaid) return writable;
        const std::vector<int64_t> strides = strides_of(spec);
        const int64_t count = element_count(spec.view);
        std::vector<int64_t> index(spec.view.size(), 0);
        for (int64_t i = 0; i < count; ++i) {
            int64_t position = spec.offset;
            for (size_t d = 0; d < index.size(); ++d) {
                position = saturating_add(position, saturating_mul(index[d], strides[d]));
            }
            const int64_t first = saturating_mul(position, written_size());
            const int64_t end = saturating_add(first, written_size());
            if (end <= static_cast<int64_t>(bytes)) std::fill(writable.begin() + first, writable.begin() + end, true);
            for (size_t d = index.size(); d-- > 0;) {
                if (++index[d] < spec.view[d]) break;
                index[d] = 0;
            }
        }
        return writable;
    }
};

OperatorCall::OperatorCall(Decoder& in) {
    const uint8_t placement = in.byte();
    onDevice_ = (placement & 1) == 0;
    fillSeed_ = placement;
}

OperatorCall::~OperatorCall() = default;

aclTensor* OperatorCall::add(const TensorSpec& spec, aclDataType writtenDtype, bool isOutput, bool relaid) {
    auto operand = std::make_unique<Operand>();
    operand->spec = spec;
    operand->writtenDtype = writtenDtype;
    operand->isOutput = isOutput;
    operand->relaid = relaid;
    if (!spec.null) {
        const int64_t elementSize = static_cast<int64_t>(aclDataTypeSize(spec.dtype));
        const bool valid = std::none_of(spec.storage.begin(), spec.storage.end(), [](int64_t d) { return d < 0; }) &&
                           std::none_of(spec.view.begin(), spec.view.end(), [](int64_t d) { return d < 0; });
        const int64_t storageElements = valid ? element_count(spec.storage) : INT64_MAX;
        if (onDevice_ && elementSize > 0 && storageElements <= kMaxDeviceElements &&
            element_count(spec.view) <= kMaxDeviceElements) {
            operand->bytes = static_cast<size_t>(storageElements * elementSize);
            operand->reach = static_cast<size_t>(relaid ? usable_bytes(operand->bytes)
                                                        : std::min(operand->reach_bytes(), usable_bytes(operand->bytes)));
            operand->device = device_alloc(operand->bytes, operand->reach);
            uint64_t state = fillSeed_ * 0x100000001b3ull + operands_.size();
            operand->initial.resize(operand->bytes);
            for (unsigned char& b : operand->initial) b = static_cast<unsigned char>(splitmix64(state));
            if (operand->bytes != 0) {
                expect_acl_success("aclrtMemcpy", aclrtMemcpy(operand->device, operand->bytes, operand->initial.data(),
                                                              operand->bytes, ACL_MEMCPY_HOST_TO_DEVICE));
            }
        }
        clear_error_message();
        operand->tensor = aclCreateTensor(spec.view.data(), spec.view.size(), spec.dtype,
                                          spec.hasStrides ? spec.strides.data() : nullptr, spec.offset, spec.format,
                                          spec.storage.data(), spec.storage.size(), operand->device);
        if (operand->tensor == nullptr) expect_failure_message("aclCreateTensor");
    }
    aclTensor* tensor = operand->tensor;
    operands_.push_back(std::move(operand));
    return tensor;
}

const aclTensor* OperatorCall::input(const TensorSpec& spec, const std::vector<int64_t>& values) {
    const aclTensor* tensor = input(spec);
    Operand& operand = *operands_.back();
    const bool integers = spec.dtype == ACL_INT32 || spec.dtype == ACL_INT64;
    if (operand.device == nullptr || operand.bytes == 0 || values.empty() || !integers) return tensor;
    const size_t width = spec.dtype == ACL_INT32 ? 4 : 8;
    for (size_t i = 0; i < operand.bytes / width; ++i) {
        const int64_t value = values[i % values.size()];
        const auto narrow = static_cast<int32_t>(value);
        std::memcpy(&operand.initial[i * width], width == 4 ? static_cast<const void*>(&narrow) : &value, width);
    }
    expect_acl_success("aclrtMemcpy", aclrtMemcpy(operand.device, operand.bytes, operand.initial.data(),
                                                  operand.bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    return tensor;
}

bool OperatorCall::all_on_device() const {
    return std::all_of(operands_.begin(), operands_.end(),
                       [](const auto& operand) { return operand->tensor != nullptr && operand->device != nullptr; });
}

void OperatorCall::expect_storage_untouched(const char* api, const char* when) const {
    for (const auto& operand : operands_) {
        if (operand->device == nullptr) continue;
        if (read_device(operand->device, operand->bytes) != operand->initial) {
            fail("%s wrote tensor memory %s: %s", api, when, spec_string(operand->spec).c_str());
        }
    }
}

void OperatorCall::expect_views_in_storage(const char* api) const {
    const bool anyEmpty = std::any_of(operands_.begin(), operands_.end(), [](const auto& operand) {
        return operand->tensor != nullptr && element_count(operand->spec.view) == 0;
    });
    if (anyEmpty) return;  // Phase 1 may hand back an empty executor without looking at the views.
    for (const auto& operand : operands_) {
        if (operand->tensor == nullptr) continue;
        const int64_t ownSize = static_cast<int64_t>(aclDataTypeSize(operand->spec.dtype));
        const int64_t reachBytes = saturating_mul(reach_of(operand->spec), operand->written_size());
        const bool inStorage = reachBytes <= saturating_mul(element_count(operand->spec.storage), ownSize);
        const bool inBlock = operand->device != nullptr && reachBytes <= usable_bytes(operand->bytes);
        if (!inStorage && !inBlock) {
            fail("%s accepted a view reaching outside its storage and its device block: %s", api,
                 spec_string(operand->spec).c_str());
        }
    }
}

void OperatorCall::run(const char* api, Decoder& in, const Phase1& phase1, Phase2 phase2) {
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    const bool nullWorkspaceSize = in.rare();
    const bool nullExecutor = in.rare();
    clear_error_message();
    const aclnnStatus status =
        phase1(nullWorkspaceSize ? nullptr : &workspaceSize, nullExecutor ? nullptr : &executor);
    expect_aclnn_status(api, status);
    expect_storage_untouched(api, "in phase 1");
    const bool runs = status == ACLNN_SUCCESS && all_on_device() && workspaceSize <= kMaxWorkspaceBytes;
    if (tracing()) std::fprintf(stderr, "%s -> %d%s\n", api, status, runs ? " (phase 2)" : "");
    if (status != ACLNN_SUCCESS) return;
    if (executor == nullptr) fail("%s succeeded without an executor", api);
    expect_views_in_storage(api);
    if (runs) {
        run_phase2(api, workspaceSize, executor, phase2);
        return;
    }
    expect_aclnn_status("aclSetAclOpExecutorRepeatable", aclSetAclOpExecutorRepeatable(executor));
    const aclnnStatus destroyed = aclDestroyAclOpExecutor(executor);
    if (destroyed != ACLNN_SUCCESS) fail("aclDestroyAclOpExecutor of %s's executor returned %d", api, destroyed);
}

void OperatorCall::run_phase2(const char* api, uint64_t workspaceSize, aclOpExecutor* executor, Phase2 phase2) {
    void* workspace = workspaceSize > 0 ? device_alloc(workspaceSize) : nullptr;
    clear_error_message();
    const aclnnStatus status = phase2(workspace, workspaceSize, executor, g_stream);
    if (status != ACLNN_SUCCESS) fail("phase 2 of %s returned %d after phase 1 succeeded", api, status);
    const aclError synced = aclrtSynchronizeStream(g_stream);
    if (synced != ACL_SUCCESS) {
        const char* message = aclGetRecentErrMsg();
        fail("the stream reports %d after %s: %s", synced, api, message != nullptr ? message : "(no message)");
    }
    device_free(workspace, workspaceSize);
    for (const auto& operand : operands_) {
        const std::vector<unsigned char> now = read_device(operand->device, operand->bytes);
        if (!operand->isOutput) {
            if (now != operand->initial) fail("%s wrote its input %s", api, spec_string(operand->spec).c_str());
            continue;
        }
        if (now == operand->initial) continue;
        const std::vector<bool> writable = operand->writable_bytes();
        for (size_t b = 0; b < now.size(); ++b) {
            if (!writable[b] && now[b] != operand->initial[b]) {
                fail("%s wrote byte %zu of output %s, outside its view", api, b, spec_string(operand->spec).c_str());
            }
        }
    }
}

}  // namespace aclcpu::fuzz

/// Every target runs on one initialised runtime: device 0 and one stream.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    using aclcpu::fuzz::fail;
    if (aclInit(nullptr) != ACL_SUCCESS) fail("aclInit failed");
    if (aclrtSetDevice(0) != ACL_SUCCESS) fail("aclrtSetDevice(0) failed");
    if (aclrtCreateStream(&aclcpu::fuzz::g_stream) != ACL_SUCCESS) fail("aclrtCreateStream failed");
    return 0;
}
