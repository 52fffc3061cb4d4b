// acl-cpu private interface of libnnopbase: what the aclnn objects are made
// of, and the executor contract every operator follows.  Not installed.
//
// The two-phase call maps onto the CPU like this:
//   phase 1  aclnnXxxGetWorkspaceSize  checks arguments, computes a tiling and
//            returns an aclOpExecutor holding an immutable OpKernel (tiling +
//            tensor descriptors) and the table of tensor addresses;
//   phase 2  aclnnXxx -> run_executor  enqueues one DeviceTask on the stream
//            that calls OpKernel::launch with the addresses as they are at
//            that moment, then frees a single-use executor.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <initializer_list>
#include <new>
#include <string>
#include <vector>

#include "aclcpu/dims.hpp"
#include "aclcpu/dtype.hpp"
#include "aclcpu/error_report.hpp"
#include "aclcpu/export.hpp"
#include "aclnn/acl_meta.h"

namespace aclcpu {

/// Maximum rank of a tensor an operator accepts (CANN's MAX_SUPPORT_DIMS_NUMS).
inline constexpr size_t kMaxDims = 8;

/// A tensor's view: what an operator needs to address its elements.  Strides
/// and offset count elements; offset is relative to the data pointer.
struct ACLCPU_EXPORT TensorView {
    Dims shape;
    Dims strides;
    int64_t offset = 0;
    aclDataType dtype = ACL_DT_UNDEFINED;

    int64_t numel() const noexcept;
    bool is_contiguous() const noexcept;
};

/// The addresses a kernel reads and writes in one run.  inputs/outputs are
/// tensor data pointers (before the view offset) in the operator's
/// declaration order.
struct LaunchArgs {
    const void* const* inputs;
    void* const* outputs;
    void* workspace;
    uint64_t workspaceSize;
};

/// A planned operator: the result of phase 1, immutable afterwards, shared by
/// every run of a repeatable executor.
class OpKernel {
public:
    virtual ~OpKernel() = default;
    /// The aclnn API name, e.g. "aclnnSoftplusBackward".
    virtual const char* name() const noexcept = 0;
    /// Runs the operator on a device worker.  Returns ACL_SUCCESS or a runtime
    /// code (507015 for a fault), which becomes the stream's sticky error.
    virtual aclError launch(const LaunchArgs& args) const noexcept = 0;
    /// Appends what a timeline trace shows of the launch beyond its tensors
    /// (blockDim, ...) with append_trace_arg.  Called on the submitting
    /// thread, only while an observer is installed (aclcpu/instrumentation.hpp).
    virtual void describe(std::string& /*details*/) const {}
};

/// Memory for objects made on the submitting thread and freed on a device
/// worker: an operator's kernel, each run of it.  oneTBB's scalable
/// allocator, which takes a block freed by another thread back in one
/// atomic operation, where the C library's allocator takes a locked trip
/// through its arena -- on every small operator.  A sanitized build uses
/// operator new, so that the sanitizers see every block.  Any thread;
/// handover_allocate returns nullptr when the host is out of memory.
ACLCPU_EXPORT void* handover_allocate(size_t bytes) noexcept;
ACLCPU_EXPORT void handover_free(void* memory) noexcept;

/// A standard allocator over handover_allocate, for std::allocate_shared.
template <class T>
struct HandoverAllocator {
    using value_type = T;

    HandoverAllocator() noexcept = default;
    template <class U>
    HandoverAllocator(const HandoverAllocator<U>&) noexcept {}

    T* allocate(size_t count) {
        void* memory = count <= SIZE_MAX / sizeof(T) ? handover_allocate(count * sizeof(T)) : nullptr;
        if (memory == nullptr) throw std::bad_alloc();
        return static_cast<T*>(memory);
    }
    void deallocate(T* memory, size_t) noexcept { handover_free(memory); }

    template <class U>
    bool operator==(const HandoverAllocator<U>&) const noexcept { return true; }
    template <class U>
    bool operator!=(const HandoverAllocator<U>&) const noexcept { return false; }
};

/// Appends `,"key":value` to a trace's details (a JSON object body).
ACLCPU_EXPORT void append_trace_arg(std::string& details, const char* key, int64_t value);

/// The tensors of an operator's inputs or outputs, as a call passes them: a
/// braced list (alive for the call's full expression) or a vector (the
/// tensors of an aclTensorList).  Never stored: a view for one call.
class TensorSpan {
public:
    TensorSpan() noexcept = default;
    // Assigned in the body: the list outlives the call, as the class comment says.
    TensorSpan(std::initializer_list<const aclTensor*> list) noexcept {
        data_ = list.begin();
        size_ = list.size();
    }
    TensorSpan(const std::vector<const aclTensor*>& list) noexcept : data_(list.data()), size_(list.size()) {}
    const aclTensor* const* begin() const noexcept { return data_; }
    const aclTensor* const* end() const noexcept { return data_ + size_; }
    size_t size() const noexcept { return size_; }

private:
    const aclTensor* const* data_ = nullptr;
    size_t size_ = 0;
};

/// Builds the executor phase 1 returns.  kernel == nullptr makes an empty
/// executor (CANN's pattern for empty tensors): phase 2 launches nothing.
/// inputs/outputs are the user's tensors, in the operator's declaration
/// order; their current data pointers seed the address table.
ACLCPU_EXPORT aclOpExecutor* make_executor(std::shared_ptr<const OpKernel> kernel, TensorSpan inputs,
                                           TensorSpan outputs, uint64_t workspaceSize);

/// Phase 2 common to every operator (CANN's CommonOpExecutorRun): validates
/// executor and workspace, enqueues the run on stream, and frees a
/// single-use executor.  apiName names the caller in error messages.
ACLCPU_EXPORT aclnnStatus run_executor(const char* apiName, void* workspace, uint64_t workspaceSize,
                                       aclOpExecutor* executor, aclrtStream stream);

/// The view of a tensor made with aclCreateTensor.
ACLCPU_EXPORT const TensorView& view_of(const aclTensor* tensor) noexcept;
ACLCPU_EXPORT aclFormat format_of(const aclTensor* tensor) noexcept;
ACLCPU_EXPORT void* data_of(const aclTensor* tensor) noexcept;
ACLCPU_EXPORT const Dims& storage_shape_of(const aclTensor* tensor) noexcept;
/// Records, in phase 1, that an operator lays a tensor's storage out anew
/// (aclnnTransMatmulWeight: ND -> FRACTAL_NZ), as CANN's op_api sets the
/// caller's tensor's storage format and shape; aclGetFormat and
/// aclGetStorageShape report it from then on.  Not thread-safe against
/// other uses of the tensor, as in CANN.
ACLCPU_EXPORT void set_storage_layout(aclTensor* tensor, aclFormat format, Dims storageShape);

/// The values of an aclIntArray as given to aclCreateIntArray.
ACLCPU_EXPORT const std::vector<int64_t>& values_of(const aclIntArray* array) noexcept;

/// The tensors of an aclTensorList as given to aclCreateTensorList (null ones kept).
ACLCPU_EXPORT std::vector<const aclTensor*> tensors_of(const aclTensorList* list);

/// A scalar's value and dtype as given to aclCreateScalar.
ACLCPU_EXPORT aclDataType dtype_of(const aclScalar* scalar) noexcept;
/// The value converted as CANN's aclScalar::ToFloat / ToDouble convert it.
ACLCPU_EXPORT float to_float(const aclScalar* scalar) noexcept;
ACLCPU_EXPORT double to_double(const aclScalar* scalar) noexcept;
/// The value as a 64-bit integer: exact for integer dtypes, floating values
/// truncated toward zero and saturated (NaN gives 0), a complex's real part.
ACLCPU_EXPORT int64_t to_int64(const aclScalar* scalar) noexcept;
/// The value as a complex number: (value, 0) for a real dtype.
ACLCPU_EXPORT std::complex<double> to_complex(const aclScalar* scalar) noexcept;

}  // namespace aclcpu
