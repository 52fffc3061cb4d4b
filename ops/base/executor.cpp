// acl-cpu: aclOpExecutor, the result of an operator's phase 1, and phase 2
// (run_executor), which turns it into one DeviceTask on a stream.
//
// A stale executor handle (a second phase 2 on a single-use executor, or any
// call after aclDestroyAclOpExecutor) must fail with a status, not crash, so
// every executor entry point first checks that the handle is a live slot of
// the executor pool.
#include <algorithm>
#include <array>
#include <iterator>
#include <cstdint>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "aclcpu/device_task.hpp"
#include "aclcpu/instrumentation.hpp"
#include "aclcpu/memcheck.hpp"
#include "aclcpu/nnopbase.hpp"

namespace {

/// The bytes a tensor's strided view spans, relative to its data pointer:
/// what the kernel may touch, fixed at phase 1 whatever address phase 2 uses.
struct TensorExtent {
    uint64_t offset = 0;  ///< Of the first element.
    uint64_t bytes = 0;   ///< From the first to the end of the last element; 0 for an empty tensor.
};

TensorExtent extent_of(const aclTensor* tensor) {
    const aclcpu::TensorView& view = aclcpu::view_of(tensor);
    uint64_t lastStep = 0;
    for (size_t i = 0; i < view.shape.size(); ++i) {
        if (view.shape[i] == 0) return TensorExtent{};
        lastStep += static_cast<uint64_t>(view.shape[i] - 1) * static_cast<uint64_t>(view.strides[i]);
    }
    if (view.dtype == ACL_INT4) {  // two elements a byte: offset and strides count nibbles
        const auto first = static_cast<uint64_t>(view.offset);
        return TensorExtent{first / 2, (first % 2 + lastStep + 2) / 2};
    }
    const uint64_t element = std::max<size_t>(aclDataTypeSize(view.dtype), 1);
    return TensorExtent{static_cast<uint64_t>(view.offset) * element, (lastStep + 1) * element};
}

/// `"dtypes":[...],"shapes":[[...],...]` of an operator's tensors, inputs
/// first: what a timeline trace shows of them.
std::string describe_tensors(aclcpu::TensorSpan inputs, aclcpu::TensorSpan outputs) {
    std::string dtypes;
    std::string shapes;
    for (auto group : {inputs, outputs}) {
        for (const aclTensor* tensor : group) {
            const aclcpu::TensorView& view = aclcpu::view_of(tensor);
            dtypes += dtypes.empty() ? "\"" : ",\"";
            dtypes += aclcpu::dtype_name(view.dtype);
            dtypes += '"';
            shapes += shapes.empty() ? "[" : ",[";
            for (size_t d = 0; d < view.shape.size(); ++d) {
                if (d > 0) shapes += ',';
                shapes += std::to_string(view.shape[d]);
            }
            shapes += ']';
        }
    }
    return "\"dtypes\":[" + dtypes + "],\"shapes\":[" + shapes + "]";
}

/// Static names of the tensor roles an observer sees ("input 0", "output 1"):
/// the first 8 of each kind numbered, the rest of a tensor list not.
const char* role_name(bool input, size_t index) noexcept {
    static const char* const kInputs[] = {"input 0", "input 1", "input 2", "input 3",
                                          "input 4", "input 5", "input 6", "input 7"};
    static const char* const kOutputs[] = {"output 0", "output 1", "output 2", "output 3",
                                           "output 4", "output 5", "output 6", "output 7"};
    if (index >= std::size(kInputs)) return input ? "input" : "output";
    return input ? kInputs[index] : kOutputs[index];
}

/// Calls fn(room) with room for count DeviceAccess entries: on the stack for
/// an operator of a few tensors, on the heap for tensor lists (foreach).
/// Host memory exhausted -> ACL_ERROR_RT_INTERNAL_ERROR, reported for api.
template <class Fn>
aclError with_access_room(const char* api, size_t count, Fn&& fn) noexcept {
    // Eight tensors and the workspace: every operator but the foreach lists.
    constexpr size_t kOnStack = 9;
    if (count <= kOnStack) {
        std::array<aclcpu::DeviceAccess, kOnStack> room{};
        return fn(room.data());
    }
    std::vector<aclcpu::DeviceAccess> room;
    try {
        room.resize(count);
    } catch (const std::bad_alloc&) {
        aclcpu::report_error(ACL_ERROR_RT_INTERNAL_ERROR, aclcpu::kRuntimeInnerTag,
                             "%s: out of host memory checking its tensors.", api);
        return ACL_ERROR_RT_INTERNAL_ERROR;
    }
    return fn(room.data());
}

}  // namespace

struct aclOpExecutor {
    std::shared_ptr<const aclcpu::OpKernel> kernel;  ///< nullptr: an empty executor.
    /// Inputs, then outputs: a few tensors, or the tensors of lists.  A
    /// released slot keeps the capacity (ExecutorPool::release), so phase 1
    /// allocates only the first time a slot sees that many tensors.
    std::vector<void*> addresses;
    std::vector<TensorExtent> extents;
    size_t inputCount = 0;
    size_t tensorCount = 0;
    uint64_t workspaceSize = 0;
    bool repeatable = false;
    bool live = false;
    std::string traceTensors;  ///< describe_tensors(), made in phase 1 only while instrumented.
};

namespace {

using aclcpu::report_error;

/// Where executors live.  Slots come from slabs that are never given back
/// to the system, so phase 1 reuses a slot instead of allocating, and a
/// stale handle (a second phase 2 of a single-use executor, any call after
/// aclDestroyAclOpExecutor) is recognised by reading its slot rather than
/// by touching freed memory.
class ExecutorPool {
public:
    /// A fresh live slot; throws std::bad_alloc when a new slab cannot be had.
    aclOpExecutor* acquire() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (free_.empty()) add_slab();
        aclOpExecutor* executor = free_.back();
        free_.pop_back();
        executor->live = true;
        return executor;
    }

    /// Runs action(executor) under the pool lock if executor is a live slot
    /// and returns its status; otherwise reports that api got a stale or
    /// foreign handle and returns 161002.  The lock keeps a concurrent
    /// destroy from recycling the slot while action uses it.
    template <typename Action>
    aclnnStatus with_live(const char* api, aclOpExecutor* executor, Action&& action) {
        std::unique_lock<std::mutex> lock(mutex_);
        if (!is_slot(executor) || !executor->live) {
            lock.unlock();
            report_error(ACLNN_ERR_PARAM_INVALID, aclcpu::kAclnnParamTag,
                         "%s: the executor is not valid: it was destroyed, or it is not repeatable and its "
                         "phase-2 call was already made.",
                         api);
            return ACLNN_ERR_PARAM_INVALID;
        }
        return action(*executor);
    }

    /// Returns a live slot to the pool, its tables emptied but their
    /// capacity kept; call under with_live.
    void release(aclOpExecutor* executor) {
        std::vector<void*> addresses = std::move(executor->addresses);
        std::vector<TensorExtent> extents = std::move(executor->extents);
        addresses.clear();
        extents.clear();
        *executor = aclOpExecutor{};
        executor->addresses = std::move(addresses);
        executor->extents = std::move(extents);
        free_.push_back(executor);
    }

private:
    static constexpr size_t kSlabSlots = 256;

    void add_slab() {
        slabs_.push_back(std::make_unique<aclOpExecutor[]>(kSlabSlots));
        aclOpExecutor* slab = slabs_.back().get();
        for (size_t i = kSlabSlots; i-- > 0;) free_.push_back(slab + i);
    }

    bool is_slot(const aclOpExecutor* executor) const {
        const auto address = reinterpret_cast<uintptr_t>(executor);
        for (const auto& slab : slabs_) {
            const auto begin = reinterpret_cast<uintptr_t>(slab.get());
            if (address >= begin && address < begin + kSlabSlots * sizeof(aclOpExecutor)) {
                return (address - begin) % sizeof(aclOpExecutor) == 0;
            }
        }
        return false;
    }

    std::mutex mutex_;
    std::vector<std::unique_ptr<aclOpExecutor[]>> slabs_;
    std::vector<aclOpExecutor*> free_;
};

ExecutorPool& executor_pool() {
    // Leaked on purpose: host programs may destroy executors from static
    // destructors that run after ours, and stale handles must stay readable.
    static auto* pool = new ExecutorPool;
    return *pool;
}

/// One run of a kernel with a snapshot of its executor's address table,
/// stored inline after the task so that enqueuing a run costs a single
/// allocation, of handover memory: the run is freed on the device worker
/// that ran it.
///
/// With memory checking on (decided when the run is enqueued) every tensor's
/// extent and the workspace phase 1 asked for must lie in live device
/// blocks when the stream reaches the run, or the kernel does not run and
/// the stream gets ACL_ERROR_RT_AICORE_EXCEPTION; after it, the guard zones
/// of those blocks are verified.
class KernelRun final : public aclcpu::DeviceTask {
public:
    /// nullptr when the host is out of memory.
    static std::unique_ptr<KernelRun> snapshot(const aclOpExecutor& executor, void* workspace,
                                               uint64_t workspaceSize) noexcept {
        const size_t count = executor.tensorCount;
        void* memory = aclcpu::handover_allocate(sizeof(KernelRun) + count * kTableEntryBytes);
        if (memory == nullptr) return nullptr;
        auto* run = new (memory) KernelRun(executor, workspace, workspaceSize);
        std::copy_n(executor.addresses.begin(), count, run->addresses());
        std::copy_n(executor.extents.begin(), count, run->extents());
        return std::unique_ptr<KernelRun>(run);
    }

    static void operator delete(void* memory) noexcept { aclcpu::handover_free(memory); }

    aclError run() noexcept override {
        void** table = addresses();
        const aclcpu::LaunchArgs args{table, table + inputCount_, workspace_, workspaceSize_};
        return memcheck_ ? launch_checked(args) : kernel_->launch(args);
    }
    const char* name() const noexcept override { return kernel_->name(); }
    bool is_kernel() const noexcept override { return true; }

    /// What observers see of this run: its tensors' and workspace's byte
    /// ranges, and `tensors` (phase 1's describe_tensors) with the bytes,
    /// workspace size and the kernel's own details.
    class Observed {
    public:
        Observed(const KernelRun& run, std::string tensors) {
            work_.name = run.name();
            work_.category = "op";
            std::vector<aclcpu::DeviceAccess> ranges(run.tensorCount_ + 1);
            const size_t count = run.describe_accesses(ranges.data());
            accesses_.resize(count);
            uint64_t tensorBytes = 0;
            for (size_t i = 0; i < count; ++i) {
                const bool workspace = i == run.tensorCount_;
                const auto kind = workspace || i >= run.inputCount_ ? Kind::kWrite : Kind::kRead;
                const char* role = workspace ? "workspace" : role_name(i < run.inputCount_, ranges[i].index);
                accesses_[i] = aclcpu::instrument::MemoryAccess{ranges[i].address, ranges[i].bytes, kind, role};
                if (!workspace) tensorBytes += ranges[i].bytes;
            }
            work_.accesses = accesses_.data();
            work_.accessCount = count;
            work_.details = std::move(tensors);
            aclcpu::append_trace_arg(work_.details, "bytes", static_cast<int64_t>(tensorBytes));
            aclcpu::append_trace_arg(work_.details, "workspace", static_cast<int64_t>(run.plannedWorkspace_));
            run.kernel_->describe(work_.details);
        }
        Observed(const Observed&) = delete;
        Observed& operator=(const Observed&) = delete;

        const aclcpu::instrument::WorkInfo& work() const noexcept { return work_; }

    private:
        using Kind = aclcpu::instrument::MemoryAccess::Kind;
        std::vector<aclcpu::instrument::MemoryAccess> accesses_;
        aclcpu::instrument::WorkInfo work_;
    };

private:
    static constexpr size_t kTableEntryBytes = sizeof(void*) + sizeof(TensorExtent);

    KernelRun(const aclOpExecutor& executor, void* workspace, uint64_t workspaceSize) noexcept
        : kernel_(executor.kernel),
          tensorCount_(executor.tensorCount),
          inputCount_(executor.inputCount),
          workspace_(workspace),
          workspaceSize_(workspaceSize),
          plannedWorkspace_(executor.workspaceSize),
          memcheck_(aclcpu::memcheck_enabled()) {}

    aclError launch_checked(const aclcpu::LaunchArgs& args) const noexcept {
        return with_access_room(name(), tensorCount_ + 1, [&](aclcpu::DeviceAccess* accesses) {
            const size_t count = describe_accesses(accesses);
            if (aclError fault = aclcpu::check_device_accesses(name(), accesses, count); fault != ACL_SUCCESS) {
                return fault;
            }
            const aclError launched = kernel_->launch(args);
            const aclError guards = aclcpu::check_device_guards(name(), accesses, count);
            return launched != ACL_SUCCESS ? launched : guards;
        });
    }

    /// The tensors' extents, then the workspace; returns how many.
    size_t describe_accesses(aclcpu::DeviceAccess* accesses) const noexcept {
        void* const* table = addresses();
        const TensorExtent* extent = extents();
        for (size_t i = 0; i < tensorCount_; ++i) {
            const bool input = i < inputCount_;
            const auto* data = static_cast<const unsigned char*>(table[i]);
            accesses[i] = aclcpu::DeviceAccess{data + extent[i].offset, extent[i].bytes, input ? "input" : "output",
                                               static_cast<int>(input ? i : i - inputCount_)};
        }
        accesses[tensorCount_] = aclcpu::DeviceAccess{workspace_, plannedWorkspace_, "workspace", -1};
        return tensorCount_ + 1;
    }

    void** addresses() noexcept { return reinterpret_cast<void**>(this + 1); }
    void* const* addresses() const noexcept { return reinterpret_cast<void* const*>(this + 1); }
    TensorExtent* extents() noexcept { return reinterpret_cast<TensorExtent*>(addresses() + tensorCount_); }
    const TensorExtent* extents() const noexcept {
        return reinterpret_cast<const TensorExtent*>(addresses() + tensorCount_);
    }

    std::shared_ptr<const aclcpu::OpKernel> kernel_;
    size_t tensorCount_;
    size_t inputCount_;
    void* workspace_;
    uint64_t workspaceSize_;
    uint64_t plannedWorkspace_;
    bool memcheck_;
};

static_assert(alignof(KernelRun) % alignof(void*) == 0 && sizeof(KernelRun) % alignof(void*) == 0,
              "the address table must follow KernelRun aligned");
static_assert(alignof(TensorExtent) <= alignof(void*) && sizeof(void*) % alignof(TensorExtent) == 0,
              "the extents must follow the address table aligned");

/// CANN frees the executor when the workspace is missing; a workspace smaller
/// than phase 1 asked for is refused too, since the kernel would write past it.
aclnnStatus check_workspace(const char* api, const aclOpExecutor& executor, const void* workspace,
                            uint64_t workspaceSize) {
    if (workspaceSize > 0 && workspace == nullptr) {
        report_error(ACLNN_ERR_PARAM_NULLPTR, aclcpu::kAclnnParamTag, "%s: workspace is nullptr.", api);
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    if (workspaceSize < executor.workspaceSize) {
        report_error(ACLNN_ERR_PARAM_INVALID, aclcpu::kAclnnParamTag,
                     "%s: workspaceSize %llu is smaller than the %llu bytes phase 1 asked for.", api,
                     static_cast<unsigned long long>(workspaceSize),
                     static_cast<unsigned long long>(executor.workspaceSize));
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

/// Which part of the address table an aclSet*TensorAddr index counts over.
enum class TensorGroup { inputs, outputs, all };

aclnnStatus set_tensor_addr(const char* api, TensorGroup group, aclOpExecutor* executor, size_t index,
                            aclTensor* tensor, void* addr) {
    if (executor == nullptr) {
        report_error(ACLNN_ERR_INNER_NULLPTR, aclcpu::kAclnnInnerTag, "%s: executor is nullptr.", api);
        return ACLNN_ERR_INNER_NULLPTR;
    }
    return executor_pool().with_live(api, executor, [&](aclOpExecutor& live) {
        const size_t first = group == TensorGroup::outputs ? live.inputCount : 0;
        const size_t count = group == TensorGroup::inputs    ? live.inputCount
                             : group == TensorGroup::outputs ? live.tensorCount - live.inputCount
                                                             : live.tensorCount;
        if (index >= count) {
            report_error(ACLNN_ERR_PARAM_INVALID, aclcpu::kAclnnParamTag,
                         "%s: index %zu is out of range: the executor of %s has %zu such tensors.", api, index,
                         live.kernel != nullptr ? live.kernel->name() : "an empty operator", count);
            return ACLNN_ERR_PARAM_INVALID;
        }
        live.addresses[first + index] = addr;
        if (tensor != nullptr) aclSetRawTensorAddr(tensor, addr);
        return ACLNN_SUCCESS;
    });
}

}  // namespace

namespace aclcpu {

aclOpExecutor* make_executor(std::shared_ptr<const OpKernel> kernel, TensorSpan inputs, TensorSpan outputs,
                             uint64_t workspaceSize) {
    aclOpExecutor* executor = nullptr;
    try {
        executor = executor_pool().acquire();
        for (auto group : {inputs, outputs}) {
            for (const aclTensor* tensor : group) {
                executor->addresses.push_back(data_of(tensor));
                executor->extents.push_back(extent_of(tensor));
            }
        }
    } catch (const std::bad_alloc&) {
        if (executor != nullptr) executor_pool().with_live("make_executor", executor, [&](aclOpExecutor& live) {
            executor_pool().release(&live);
            return ACLNN_SUCCESS;
        });
        report_error(ACLNN_ERR_INNER_CREATE_EXECUTOR, kAclnnInnerTag, "Create executor failed: out of host memory.");
        return nullptr;
    }
    executor->kernel = std::move(kernel);
    executor->tensorCount = executor->addresses.size();
    executor->inputCount = inputs.size();
    executor->workspaceSize = workspaceSize;
    if (instrument::active()) executor->traceTensors = describe_tensors(inputs, outputs);
    return executor;
}

void append_trace_arg(std::string& details, const char* key, int64_t value) {
    if (!details.empty()) details += ',';
    details += '"';
    details += key;
    details += "\":";
    details += std::to_string(value);
}

aclnnStatus run_executor(const char* apiName, void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                         aclrtStream stream) {
    if (executor == nullptr) {
        report_error(ACLNN_ERR_PARAM_NULLPTR, kAclnnParamTag, "%s: executor is nullptr.", apiName);
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    const instrument::ApiScope scope(apiName);
    // The run is snapshotted under the pool lock and enqueued after it.
    std::unique_ptr<KernelRun> run;
    std::string traceTensors;
    const aclnnStatus status = executor_pool().with_live(apiName, executor, [&](aclOpExecutor& live) {
        const aclnnStatus workspaceStatus = check_workspace(apiName, live, workspace, workspaceSize);
        aclnnStatus result = workspaceStatus;
        if (result == ACLNN_SUCCESS && live.kernel != nullptr) {
            run = KernelRun::snapshot(live, workspace, workspaceSize);
            if (instrument::active()) traceTensors = live.traceTensors;
            if (run == nullptr) {
                report_error(ACLNN_ERR_INNER, kAclnnInnerTag, "%s: out of host memory.", apiName);
                result = ACLNN_ERR_INNER;
            }
        }
        // CANN frees a single-use executor once run, and any executor whose workspace is refused.
        if (!live.repeatable || workspaceStatus != ACLNN_SUCCESS) executor_pool().release(executor);
        return result;
    });
    if (status != ACLNN_SUCCESS || run == nullptr) return status;
    if (!instrument::active()) return enqueue(stream, std::move(run));
    const KernelRun::Observed observed(*run, std::move(traceTensors));
    return instrument::enqueue(stream, std::move(run), observed.work());
}

}  // namespace aclcpu

extern "C" {

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
    if (executor == nullptr) {
        report_error(ACLNN_ERR_INNER_NULLPTR, aclcpu::kAclnnInnerTag,
                     "aclSetAclOpExecutorRepeatable: executor is nullptr.");
        return ACLNN_ERR_INNER_NULLPTR;
    }
    return executor_pool().with_live("aclSetAclOpExecutorRepeatable", executor, [](aclOpExecutor& live) {
        live.repeatable = true;
        return ACLNN_SUCCESS;
    });
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
    if (executor == nullptr) {
        report_error(ACLNN_ERR_INNER_NULLPTR, aclcpu::kAclnnInnerTag, "aclDestroyAclOpExecutor: executor is nullptr.");
        return ACLNN_ERR_INNER_NULLPTR;
    }
    return executor_pool().with_live("aclDestroyAclOpExecutor", executor, [&](aclOpExecutor&) {
        executor_pool().release(executor);
        return ACLNN_SUCCESS;
    });
}

// The six spellings CANN exports of "re-point tensor `index` of a
// repeatable executor": inputs, outputs, or both counted together.
#define ACLCPU_DEFINE_SET_TENSOR_ADDR(name, group)                                                 \
    aclnnStatus name(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) { \
        return set_tensor_addr(#name, TensorGroup::group, executor, index, tensor, addr);          \
    }
ACLCPU_DEFINE_SET_TENSOR_ADDR(aclSetInputTensorAddr, inputs)
ACLCPU_DEFINE_SET_TENSOR_ADDR(aclSetOutputTensorAddr, outputs)
ACLCPU_DEFINE_SET_TENSOR_ADDR(aclSetTensorAddr, all)
ACLCPU_DEFINE_SET_TENSOR_ADDR(AclSetInputTensorAddr, inputs)
ACLCPU_DEFINE_SET_TENSOR_ADDR(AclSetOutputTensorAddr, outputs)
ACLCPU_DEFINE_SET_TENSOR_ADDR(AclSetTensorAddr, all)

}  // extern "C"
