// acl-cpu ops/common: block launcher and UB staging.
#include "common/block_launch.hpp"
#include "common/tiling.hpp"

#include <algorithm>
#include <exception>
#include <memory>
#include <new>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "acl/error_codes/rt_error_codes.h"
#include "aclcpu/instrumentation.hpp"
#include "aclcpu/error_report.hpp"

namespace aclcpu::ops {

namespace {

/// Bytes a TBB task should move at least: scheduling a task costs about a
/// microsecond, moving 128 KiB about five.
constexpr int64_t kMinTaskBytes = 128 * 1024;

struct AlignedDelete {
    void operator()(std::byte* p) const noexcept { ::operator delete[](p, std::align_val_t{kStagingAlignment}); }
};

/// The calling thread's staging buffer, grown to at least bytes.
std::byte* worker_buffer(int64_t bytes) {
    thread_local std::unique_ptr<std::byte[], AlignedDelete> buffer;
    thread_local int64_t capacity = 0;
    if (capacity < bytes) {
        buffer.reset(static_cast<std::byte*>(::operator new[](static_cast<size_t>(bytes),
                                                              std::align_val_t{kStagingAlignment})));
        capacity = bytes;
    }
    return buffer.get();
}

}  // namespace

std::byte* UbStaging::for_block(int64_t blockIdx) const {
    if (workspace_ != nullptr) return workspace_ + blockIdx * workspace_stride(bytesPerBlock_);
    return worker_buffer(bytesPerBlock_);
}

aclError launch_blocks(const char* opName, int64_t blockDim, int64_t bytesMoved, BlockBody body) noexcept {
    const int64_t blocksPerTask = std::clamp<int64_t>(
        ceil_div(blockDim * kMinTaskBytes, std::max<int64_t>(bytesMoved, 1)), 1, std::max<int64_t>(blockDim, 1));
    using instrument::Observer;
    const auto run_block = [&](int64_t b) {
        if (instrument::active()) instrument::notify([&](Observer& o) { o.on_block_begin(opName, b, blockDim); });
        body(b);
        if (instrument::active()) instrument::notify([&](Observer& o) { o.on_block_end(opName, b, blockDim); });
    };
    try {
        if (blocksPerTask >= blockDim) {
            for (int64_t b = 0; b < blockDim; ++b) run_block(b);
            return ACL_SUCCESS;
        }
        tbb::this_task_arena::isolate([&] {
            tbb::parallel_for(
                tbb::blocked_range<int64_t>(0, blockDim, static_cast<size_t>(blocksPerTask)),
                [&](const tbb::blocked_range<int64_t>& blocks) {
                    for (int64_t b = blocks.begin(); b != blocks.end(); ++b) run_block(b);
                },
                tbb::simple_partitioner());
        });
        return ACL_SUCCESS;
    } catch (const std::exception& e) {
        report_error(ACL_ERROR_RT_INTERNAL_ERROR, kRuntimeInnerTag, "%s failed on the device: %s", opName, e.what());
    } catch (...) {
        report_error(ACL_ERROR_RT_INTERNAL_ERROR, kRuntimeInnerTag, "%s failed on the device.", opName);
    }
    return ACL_ERROR_RT_INTERNAL_ERROR;
}

aclError check_tensor_addresses(const char* opName, const LaunchArgs& args, size_t inputs, size_t outputs) noexcept {
    const auto isNull = [](const void* address) { return address == nullptr; };
    if (std::none_of(args.inputs, args.inputs + inputs, isNull) &&
        std::none_of(args.outputs, args.outputs + outputs, isNull)) {
        return ACL_SUCCESS;
    }
    report_error(ACL_ERROR_RT_AICORE_EXCEPTION, kRuntimeInnerTag,
                 "%s: a tensor's device address is null; the kernel cannot access it.", opName);
    return ACL_ERROR_RT_AICORE_EXCEPTION;
}

}  // namespace aclcpu::ops
