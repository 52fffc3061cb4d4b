// acl-cpu fuzzing: what every fuzz target shares -- the decoder that turns
// fuzz input into API arguments, the objects built from them, and the
// invariant every public entry point must keep:
//
//   no crash, no hang, and only CANN status codes (0, 161001, 161002,
//   561xxx); every failure leaves a message for aclGetRecentErrMsg; a
//   successful phase 1 hands back an executor and writes no tensor memory;
//   phase 2 of such an executor runs without a stream error, leaves inputs
//   alone and writes outputs only through their views.
//
// A broken invariant is reported on stderr and aborts the process, which
// libFuzzer records as a crash.  Setting ACLCPU_FUZZ_TRACE=1 prints one line
// per call (API, status, whether phase 2 ran), to see what a corpus reaches.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

namespace aclcpu::fuzz {

/// The arguments of one aclCreateTensor call except tensorData.
struct TensorSpec {
    bool null = false;              ///< The argument is a null aclTensor*.
    std::vector<int64_t> view;
    bool hasStrides = false;        ///< false: stride == nullptr (contiguous).
    std::vector<int64_t> strides;
    int64_t offset = 0;
    aclDataType dtype = ACL_FLOAT;
    aclFormat format = ACL_FORMAT_ND;
    std::vector<int64_t> storage;

    /// A contiguous view of shape over exactly its elements, format ND.
    static TensorSpec contiguous(std::vector<int64_t> shape, aclDataType dtype);
};

/// The arguments of one aclCreateScalar call, or a null aclScalar*.
struct ScalarSpec {
    enum class Kind { value, nullValue, nullScalar };
    Kind kind = Kind::value;
    aclDataType dtype = ACL_FLOAT;
    unsigned char bytes[16] = {};   ///< The value, of which dtype reads the first bytes.
};

/// Decodes fuzz input into arguments.  Every choice is one byte unless said
/// otherwise (FuzzedDataProvider reads integers from the end of the input);
/// exhausted input reads as zero bytes, the plainest choice.  The seed
/// generator tests/fuzz/make_seeds.py encodes exactly this grammar:
///
///   tensor:  source%8 (0-1 fresh, 2-5 copy, 6 broadcast variant, 7 null)
///            [ref%count, when copying and earlier tensors exist]
///            fresh: rank%10, dim x rank, dtype
///            copy:  keep-dtype bit (0 keeps, 1 reads dtype)
///            broadcast variant: drop%(rank+1) leading dims, then per dim a
///                   bit (1 makes it 1), then as copy
///            strides%4 (0 null, 1 row-major, 2 dim each, 3 column-major)
///            offset bit (1 reads a dim)
///            storage%5 (0 the view's reach, 1 reach + byte, 2 the view's
///                   shape, 3 rank%10 + dims, 4 reach - 1)
///            format%8 (0-5 ND, 6 FRACTAL_NZ, 7 format)
///   dim:     b < 224: b%9; otherwise kSpecialDims[b-224], the last of which
///            reads a raw 8-byte value
///   dtype, format: b % table size (kDtypes / kFormats in fuzz_support.cpp)
///   scalar:  kind%8 (7 null scalar, 6 null value, else value), then dtype
///            and two 8-byte words (the value's 16 bytes, little-endian)
///   rare:    b%16 == 15
class Decoder {
public:
    Decoder(const uint8_t* data, size_t size) : provider_(data, size) {}

    /// A tensor; copies refer to the non-null tensors this decoder made before.
    TensorSpec tensor();
    ScalarSpec scalar();
    int64_t dim();
    aclDataType dtype();
    aclFormat format();
    bool bit();
    /// True for one byte value in 16: for null out-pointers and the like.
    bool rare();
    /// Any double, NaN and infinities included (8 bytes).
    double real();
    uint8_t byte() { return provider_.ConsumeIntegral<uint8_t>(); }
    uint64_t word() { return provider_.ConsumeIntegral<uint64_t>(); }

private:
    FuzzedDataProvider provider_;
    std::vector<TensorSpec> made_;
};

/// Aborts, after printing the formatted reason, so libFuzzer records a crash.
[[noreturn]] void fail(const char* format, ...) __attribute__((format(printf, 1, 2)));

/// Drops any pending aclGetRecentErrMsg text, so the next check sees only
/// what the next call reports.
void clear_error_message();

/// The invariant for a status from api: 0 or a documented aclnn code, and a
/// non-empty aclGetRecentErrMsg after a failure.
void expect_aclnn_status(const char* api, aclnnStatus status);

/// The invariant for an object-returning api that returned nullptr: a
/// non-empty aclGetRecentErrMsg.
void expect_failure_message(const char* api);

/// True when ACLCPU_FUZZ_TRACE is set.
bool tracing();

/// A scalar made from a spec (nullptr for kind nullScalar, and when
/// aclCreateScalar refuses it, which must then leave a message).
class Scalar {
public:
    explicit Scalar(const ScalarSpec& spec);
    ~Scalar();
    Scalar(const Scalar&) = delete;
    Scalar& operator=(const Scalar&) = delete;
    const aclScalar* get() const noexcept { return scalar_; }

private:
    aclScalar* scalar_ = nullptr;
};

/// The tensors of one operator call and the two phases run over them.
///
/// Each tensor gets a device buffer (aclrtMalloc) holding its storage when
/// the call is placed on the device and its storage and view are small
/// enough to run; otherwise it points at nullptr, for phase 1 only.  Phase 2
/// runs when every tensor of the call is on the device.
class OperatorCall {
public:
    /// Reads one byte from in: bit 0 clear places the call on the device,
    /// and the byte seeds the contents of its buffers.
    explicit OperatorCall(Decoder& in);
    ~OperatorCall();
    OperatorCall(const OperatorCall&) = delete;
    OperatorCall& operator=(const OperatorCall&) = delete;

    const aclTensor* input(const TensorSpec& spec) { return add(spec, spec.dtype, false); }
    /// An input whose storage holds values, cycled, as elements of its
    /// dtype when that is INT32 or INT64 (an index tensor whose values the
    /// input chooses); any other dtype keeps the seeded contents.
    const aclTensor* input(const TensorSpec& spec, const std::vector<int64_t>& values);
    /// An output the operator writes as writtenDtype (its own dtype unless
    /// the operator overrides it, as ScaledMaskedSoftmaxBackward does).
    aclTensor* output(const TensorSpec& spec) { return add(spec, spec.dtype, true); }
    aclTensor* output(const TensorSpec& spec, aclDataType writtenDtype) { return add(spec, writtenDtype, true); }
    /// N tensors decoded in turn as inputs (outputs), for a structured
    /// binding: const auto [x, gamma] = call.inputs<2>(in).
    template <size_t N>
    std::array<const aclTensor*, N> inputs(Decoder& in) {
        std::array<const aclTensor*, N> tensors{};
        for (const aclTensor*& t : tensors) t = input(in.tensor());
        return tensors;
    }
    template <size_t N>
    std::array<aclTensor*, N> outputs(Decoder& in) {
        std::array<aclTensor*, N> tensors{};
        for (aclTensor*& t : tensors) t = output(in.tensor());
        return tensors;
    }
    /// An output the operator lays out anew (aclnnTransMatmulWeight): any
    /// usable byte of its device block may change, not only its view's.
    aclTensor* relaid_output(const TensorSpec& spec) { return add(spec, spec.dtype, true, true); }

    using Phase1 = std::function<aclnnStatus(uint64_t* workspaceSize, aclOpExecutor** executor)>;
    using Phase2 = aclnnStatus (*)(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream);

    /// Runs phase 1 (reading from in whether workspaceSize / executor are
    /// null) and checks the invariant; after a success runs phase 2 when
    /// every tensor is on the device, else destroys the executor.
    void run(const char* api, Decoder& in, const Phase1& phase1, Phase2 phase2);

    /// run() for an aclnn pair whose phase 1 takes args followed by the
    /// workspace size and executor out-parameters; ACLCPU_FUZZ_API(aclnnXxx)
    /// names the pair: call.run(ACLCPU_FUZZ_API(aclnnXxx), in, args...).
    template <class... Params, class... Args>
    void run(const char* api, aclnnStatus (*phase1)(Params...), Phase2 phase2, Decoder& in, Args... args) {
        run(api, in, [&](uint64_t* workspaceSize, aclOpExecutor** executor) {
            return phase1(args..., workspaceSize, executor);
        }, phase2);
    }

private:
    struct Operand;

    aclTensor* add(const TensorSpec& spec, aclDataType writtenDtype, bool isOutput, bool relaid = false);
    bool all_on_device() const;
    void expect_storage_untouched(const char* api, const char* when) const;
    void expect_views_in_storage(const char* api) const;
    void run_phase2(const char* api, uint64_t workspaceSize, aclOpExecutor* executor, Phase2 phase2);

    bool onDevice_ = false;
    uint64_t fillSeed_ = 0;
    std::vector<std::unique_ptr<Operand>> operands_;
};

/// A small int (b % 32 - 10), sometimes (byte 255) a wild 8-byte one.
inline int64_t int_of(Decoder& in) {
    const uint8_t choice = in.byte();
    return choice == 255 ? static_cast<int64_t>(in.word()) : static_cast<int64_t>(choice % 32) - 10;
}

/// An aclIntArray of a few ints (a count byte % 10, then int_of each), or
/// (rare) null; destroyed with the object.
class Ints {
public:
    explicit Ints(Decoder& in) {
        std::vector<int64_t> values(in.byte() % 10);
        for (int64_t& value : values) value = int_of(in);
        if (!in.rare()) array_ = aclCreateIntArray(values.data(), values.size());
    }
    ~Ints() {
        if (array_ != nullptr) aclDestroyIntArray(array_);
    }
    Ints(const Ints&) = delete;
    Ints& operator=(const Ints&) = delete;
    const aclIntArray* get() const { return array_; }

private:
    aclIntArray* array_ = nullptr;
};

/// One input of an operator's fuzz target: builds its arguments from in
/// through call, then call.run()s the operator.  Each operator's
/// tests/fuzz_*.cpp defines it; fuzz_operator_main.cpp is the libFuzzer
/// entry point that makes the Decoder and the OperatorCall around it.
void fuzz_operator(Decoder& in, OperatorCall& call);

}  // namespace aclcpu::fuzz

/// The API name and the two phases of aclnn operator `op`, as OperatorCall::run takes them.
#define ACLCPU_FUZZ_API(op) #op "GetWorkspaceSize", op##GetWorkspaceSize, op
