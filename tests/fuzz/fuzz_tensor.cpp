// Fuzzes aclCreateTensor, aclInitTensor, the tensor getters and the raw
// address accessors with any descriptor, null arrays with non-zero counts
// included.  Beyond the shared invariant it checks CANN's contract: a
// descriptor is refused exactly when an array is null with a non-zero
// count or a view dim, stride or offset is negative (storage dims are kept
// as given, as CANN's aclTensor constructor keeps them); an accepted one reads back
// as given; a refused aclInitTensor leaves the tensor as it was.
#include <cstring>

#include "fuzz_support.hpp"

using namespace aclcpu::fuzz;

namespace {

/// A data address no call may dereference: describing a tensor touches no
/// tensor memory.
void* const kUntouchableData = reinterpret_cast<void*>(0x40);

/// aclCreateTensor's arguments, with the arrays possibly null.
struct TensorArgs {
    TensorSpec spec;
    bool nullView = false;
    bool nullStorage = false;
    uint64_t viewCount = 0;
    uint64_t storageCount = 0;
    void* data = nullptr;

    const int64_t* view() const { return nullView ? nullptr : spec.view.data(); }
    const int64_t* strides() const { return spec.hasStrides ? spec.strides.data() : nullptr; }
    const int64_t* storage() const { return nullStorage ? nullptr : spec.storage.data(); }

    bool valid() const {
        const auto negative = [](const std::vector<int64_t>& values) {
            for (int64_t v : values) {
                if (v < 0) return true;
            }
            return false;
        };
        if ((nullView && viewCount > 0) || (nullStorage && storageCount > 0)) return false;
        // A null view has count 0, so no stride is read either.
        const bool badView = !nullView && (negative(spec.view) || (spec.hasStrides && negative(spec.strides)));
        return !badView && spec.offset >= 0;
    }
};

TensorArgs decode_args(Decoder& in) {
    TensorArgs args{in.tensor()};
    args.nullView = in.rare();
    args.nullStorage = in.rare();
    // A null array comes with its own count: zero, or any count at all.
    args.viewCount = !args.nullView ? args.spec.view.size() : in.bit() ? in.word() : 0;
    args.storageCount = !args.nullStorage ? args.spec.storage.size() : in.bit() ? in.word() : 0;
    args.data = in.bit() ? kUntouchableData : nullptr;
    return args;
}

/// Reads back an array getter's result, freeing it as CANN's doc asks.
std::vector<int64_t> take(int64_t* values, uint64_t count) {
    std::vector<int64_t> copy(values, values + count);
    delete[] values;
    return copy;
}

using ArrayGetter = aclnnStatus (*)(const aclTensor*, int64_t**, uint64_t*);

std::vector<int64_t> get_array(const char* api, ArrayGetter getter, const aclTensor* tensor) {
    int64_t* values = nullptr;
    uint64_t count = 0;
    const aclnnStatus status = getter(tensor, &values, &count);
    if (status != ACLNN_SUCCESS) fail("%s of a valid tensor returned %d", api, status);
    return take(values, count);
}

/// Every getter reports what args described.
void expect_described_as(const aclTensor* tensor, const TensorArgs& args) {
    const std::vector<int64_t> noDims;
    if (get_array("aclGetViewShape", aclGetViewShape, tensor) != (args.nullView ? noDims : args.spec.view)) {
        fail("aclGetViewShape differs from the view given");
    }
    const std::vector<int64_t> strides = get_array("aclGetViewStrides", aclGetViewStrides, tensor);
    const std::vector<int64_t>& givenStrides = args.nullView ? noDims : args.spec.strides;
    if (args.spec.hasStrides ? strides != givenStrides : strides.size() != args.viewCount) {
        fail("aclGetViewStrides differs from the strides given");
    }
    const std::vector<int64_t>& givenStorage = args.nullStorage ? noDims : args.spec.storage;
    if (get_array("aclGetStorageShape", aclGetStorageShape, tensor) != givenStorage) {
        fail("aclGetStorageShape differs from the storage given");
    }
    int64_t offset = -1;
    aclFormat format = ACL_FORMAT_UNDEFINED;
    aclDataType dtype = ACL_DT_UNDEFINED;
    void* data = nullptr;
    if (aclGetViewOffset(tensor, &offset) != ACLNN_SUCCESS || offset != args.spec.offset) fail("aclGetViewOffset");
    if (aclGetFormat(tensor, &format) != ACLNN_SUCCESS || format != args.spec.format) fail("aclGetFormat");
    if (aclGetDataType(tensor, &dtype) != ACLNN_SUCCESS || dtype != args.spec.dtype) fail("aclGetDataType");
    if (aclGetRawTensorAddr(tensor, &data) != ACLNN_SUCCESS || data != args.data) fail("aclGetRawTensorAddr");
}

/// A getter called with a null tensor or a null out-pointer (which, from in).
void call_getter_with_null(Decoder& in, const aclTensor* tensor) {
    const uint8_t getter = in.byte() % 7;
    const bool nullTensor = in.bit();
    const aclTensor* target = nullTensor ? nullptr : tensor;
    int64_t* values = nullptr;
    uint64_t count = 0;
    int64_t offset = 0;
    aclFormat format = ACL_FORMAT_ND;
    aclDataType dtype = ACL_FLOAT;
    void* data = nullptr;
    // With a live tensor the out-pointer is null; otherwise both are valid.
    const bool nullOut = !nullTensor;
    aclnnStatus status = ACLNN_SUCCESS;
    switch (getter) {
        case 0: status = aclGetViewShape(target, nullOut ? nullptr : &values, &count); break;
        case 1: status = aclGetViewStrides(target, &values, nullOut ? nullptr : &count); break;
        case 2: status = aclGetStorageShape(target, nullOut ? nullptr : &values, &count); break;
        case 3: status = aclGetViewOffset(target, nullOut ? nullptr : &offset); break;
        case 4: status = aclGetFormat(target, nullOut ? nullptr : &format); break;
        case 5: status = aclGetDataType(target, nullOut ? nullptr : &dtype); break;
        default: status = aclGetRawTensorAddr(target, nullOut ? nullptr : &data); break;
    }
    delete[] values;
    if (status != ACLNN_ERR_PARAM_NULLPTR) fail("tensor getter %u with a null argument returned %d", getter, status);
    expect_failure_message("a tensor getter");
}

aclTensor* create(const TensorArgs& args) {
    clear_error_message();
    aclTensor* tensor = aclCreateTensor(args.view(), args.viewCount, args.spec.dtype, args.strides(), args.spec.offset,
                                        args.spec.format, args.storage(), args.storageCount, args.data);
    if (tensor == nullptr) {
        expect_failure_message("aclCreateTensor");
        if (args.valid()) fail("aclCreateTensor refused a valid descriptor");
    } else if (!args.valid()) {
        fail("aclCreateTensor accepted an invalid descriptor");
    }
    return tensor;
}

aclnnStatus init(aclTensor* tensor, const TensorArgs& args) {
    clear_error_message();
    const aclnnStatus status =
        aclInitTensor(tensor, args.view(), args.viewCount, args.spec.dtype, args.strides(), args.spec.offset,
                      args.spec.format, args.storage(), args.storageCount, args.data);
    expect_aclnn_status("aclInitTensor", status);
    return status;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Decoder in(data, size);
    const TensorArgs args = decode_args(in);
    aclTensor* tensor = create(args);
    if (tensor == nullptr) {
        call_getter_with_null(in, nullptr);
        if (init(nullptr, args) != ACLNN_ERR_PARAM_NULLPTR) fail("aclInitTensor(nullptr, ...) did not return 161001");
        return 0;
    }
    expect_described_as(tensor, args);
    call_getter_with_null(in, tensor);

    const TensorArgs reinit = decode_args(in);
    const aclnnStatus status = init(tensor, reinit);
    if ((status == ACLNN_SUCCESS) != reinit.valid()) fail("aclInitTensor answered %d for a descriptor", status);
    expect_described_as(tensor, status == ACLNN_SUCCESS ? reinit : args);

    if (aclDestroyTensor(tensor) != ACLNN_SUCCESS) fail("aclDestroyTensor failed");
    if (aclDestroyTensor(nullptr) != ACLNN_SUCCESS) fail("aclDestroyTensor(nullptr) failed");
    return 0;
}
