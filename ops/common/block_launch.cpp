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

/// A bound on the slices of one block, so that a block of a view spanning
/// INT64_MAX elements still has a count of slices a task index can hold.
constexpr int64_t kMaxSlicesPerBlock = int64_t{1} << 20;

/// Runs body() between the observers' block begin and end of block b.
template <class Body>
void run_observed(const char* opName, int64_t b, int64_t blockDim, const Body& body) {
    using instrument::Observer;
    if (instrument::active()) instrument::notify([&](Observer& o) { o.on_block_begin(opName, b, blockDim); });
    body();
    if (instrument::active()) instrument::notify([&](Observer& o) { o.on_block_end(opName, b, blockDim); });
}

/// Runs piece(p) for every p in [0, pieces) as launch_blocks runs blocks: a
/// task takes consecutive pieces that move at least kMinTaskBytes together
/// (the launch moves bytesMoved), all of them on the calling worker when
/// one task takes everything.
template <class Piece>
aclError run_pieces(const char* opName, int64_t pieces, int64_t bytesMoved, const Piece& piece) noexcept {
    const int64_t bytesPerPiece = std::max<int64_t>(bytesMoved / std::max<int64_t>(pieces, 1), 1);
    const int64_t piecesPerTask = std::clamp<int64_t>(ceil_div(kMinTaskBytes, bytesPerPiece), 1,
                                                      std::max<int64_t>(pieces, 1));
    try {
        if (piecesPerTask >= pieces) {
            for (int64_t p = 0; p < pieces; ++p) piece(p);
            return ACL_SUCCESS;
        }
        tbb::this_task_arena::isolate([&] {
            tbb::parallel_for(
                tbb::blocked_range<int64_t>(0, pieces, static_cast<size_t>(piecesPerTask)),
                [&](const tbb::blocked_range<int64_t>& range) {
                    for (int64_t p = range.begin(); p != range.end(); ++p) piece(p);
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

}  // namespace

std::byte* UbStaging::for_block(int64_t blockIdx) const {
    if (workspace_ != nullptr) return workspace_ + blockIdx * workspace_stride(bytesPerBlock_);
    return worker_buffer(bytesPerBlock_);
}

aclError launch_blocks(const char* opName, int64_t blockDim, int64_t bytesMoved,
                       BorrowedCall<void(int64_t blockIdx)> body) noexcept {
    return run_pieces(opName, blockDim, bytesMoved,
                      [&](int64_t b) { run_observed(opName, b, blockDim, [&] { body(b); }); });
}

SlicePlan plan_slices(const BlockSplit& blocks, int64_t bytesPerUnit, int64_t granule) noexcept {
    bytesPerUnit = std::max<int64_t>(bytesPerUnit, 1);
    int64_t longest = 0;
    for (int64_t b = 0; b < blocks.count(); ++b) longest = std::max(longest, blocks.block(b).size());
    const int64_t granulesPerSlice =
        granule > kMaxSliceBytes / bytesPerUnit ? 1 : kMaxSliceBytes / (granule * bytesPerUnit);
    const int64_t sliceUnits =
        std::max(granulesPerSlice * granule, align_up(ceil_div(longest, kMaxSlicesPerBlock), granule));
    if (blocks.count() == 0) return {sliceUnits, 0};
    return {sliceUnits, longest <= sliceUnits ? 1 : ceil_div(longest, sliceUnits)};
}

aclError launch_block_slices(const char* opName, const BlockSplit& blocks, int64_t bytesPerUnit, int64_t granule,
                             BorrowedCall<void(const BlockSlice& slice)> body) noexcept {
    const SlicePlan plan = plan_slices(blocks, bytesPerUnit, granule);
    const int64_t blockDim = blocks.count();
    const int64_t total = blocks.total();
    const int64_t bytesMoved = total > INT64_MAX / std::max<int64_t>(bytesPerUnit, 1) ? INT64_MAX : total * bytesPerUnit;
    return run_pieces(opName, blockDim * plan.slicesPerBlock, bytesMoved, [&](int64_t p) {
        const int64_t b = p / plan.slicesPerBlock;
        const Range block = blocks.block(b);
        const int64_t offset = (p % plan.slicesPerBlock) * plan.sliceUnits;
        // A block shorter than the longest has fewer slices; its first always runs.
        if (offset > 0 && offset >= block.size()) return;
        const int64_t end = block.begin + offset + std::min(block.size() - offset, plan.sliceUnits);
        const BlockSlice slice{b, Range{block.begin + offset, end}};
        run_observed(opName, b, blockDim, [&] { body(slice); });
    });
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
