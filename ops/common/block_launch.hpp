// acl-cpu ops/common: running an operator's blocks on the device's workers,
// and the UB staging memory each block works in.
#pragma once

#include "common/internal.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "acl/acl_base.h"
#include "aclcpu/nnopbase.hpp"
#include "common/tiling.hpp"

namespace aclcpu::ops {

/// One launch of a kernel as each of its blocks sees it: the tiling, the
/// operands' layouts and the launch's addresses, all borrowed for the
/// launch's duration.
template <class Tiling, class Operands>
struct KernelJob {
    const Tiling& tiling;
    const Operands& operands;
    const LaunchArgs& args;
};

/// What a kernel launching the blocks of a Tiling (its `blocks`, a
/// BlockSplit) over Operands shares: its name, tiling and operands, and the
/// blockDim it reports to the trace (describe).  The kernel adds launch().
template <class Tiling, class Operands = void>
class TiledKernelOf : public TiledKernelOf<Tiling> {
public:
    /// What each block of a launch reads.
    using Job = KernelJob<Tiling, Operands>;

    TiledKernelOf(const char* name, Tiling tiling, Operands operands) noexcept
        : TiledKernelOf<Tiling>(name, std::move(tiling)), operands_(std::move(operands)) {}

protected:
    Operands operands_;
};

/// A kernel whose operands are its own business (void Operands).
template <class Tiling>
class TiledKernelOf<Tiling, void> : public OpKernel {
public:
    TiledKernelOf(const char* name, Tiling tiling) noexcept : name_(name), tiling_(std::move(tiling)) {}

    const char* name() const noexcept override { return name_; }
    void describe(std::string& details) const override {
        append_trace_arg(details, "blockDim", tiling_.blocks.count());
    }

protected:
    const char* name_;
    Tiling tiling_;
};

/// Alignment of every block's staging buffer (a cache line; more than the
/// 32-byte UB block).
inline constexpr int64_t kStagingAlignment = 64;

/// Where each block's UB staging buffer lives during one launch: carved out
/// of the phase-2 workspace (operators with a workspace, as LogitGrad's
/// kernel uses its own), or private to the worker thread running the block
/// (operators whose workspace is 0).
class UbStaging {
public:
    /// Each block stages in a buffer of the worker thread that runs it.
    static UbStaging per_worker(int64_t bytesPerBlock) noexcept { return UbStaging(nullptr, bytesPerBlock); }
    /// Block b stages at workspace + b * workspace_stride(bytesPerBlock).
    /// Precondition: workspace holds workspace_bytes(blockDim, bytesPerBlock)
    /// and is kStagingAlignment-aligned.
    static UbStaging in_workspace(void* workspace, int64_t bytesPerBlock) noexcept {
        return UbStaging(static_cast<std::byte*>(workspace), bytesPerBlock);
    }
    /// Whether blocks stage in the workspace: one slot per block, which the
    /// slices of a block would share (see launch_block_slices).
    bool in_workspace() const noexcept { return workspace_ != nullptr; }
    static constexpr int64_t workspace_stride(int64_t bytesPerBlock) noexcept {
        return (bytesPerBlock + kStagingAlignment - 1) / kStagingAlignment * kStagingAlignment;
    }
    static constexpr int64_t workspace_bytes(int64_t blockDim, int64_t bytesPerBlock) noexcept {
        return blockDim * workspace_stride(bytesPerBlock);
    }

    /// The staging of block blockIdx: bytesPerBlock bytes, aligned to
    /// kStagingAlignment.  Call it from the block's body; the buffer is the
    /// block's until the body returns.  Per-worker buffers are allocated on
    /// a thread's first use and may throw std::bad_alloc.
    std::byte* for_block(int64_t blockIdx) const;

private:
    UbStaging(std::byte* workspace, int64_t bytesPerBlock) noexcept
        : workspace_(workspace), bytesPerBlock_(bytesPerBlock) {}

    std::byte* workspace_;
    int64_t bytesPerBlock_;
};

/// A borrowed callable of signature Signature, for the launchers below.
/// Unlike std::function it never allocates: a kernel's lambda capturing
/// more than two references would cost a heap allocation per launch.
/// Refers to the callable it was made from, which must outlive it (a lambda
/// written in the launcher's call does).
template <class Signature>
class BorrowedCall;

template <class... Args>
class BorrowedCall<void(Args...)> {
public:
    // Implicit, so that a launcher call takes its lambda as written.
    template <class Body, class = std::enable_if_t<!std::is_same_v<std::decay_t<Body>, BorrowedCall>>>
    BorrowedCall(const Body& body) noexcept
        : body_(&body), run_([](const void* b, Args... args) { (*static_cast<const Body*>(b))(args...); }) {}

    void operator()(Args... args) const { run_(body_, args...); }

private:
    const void* body_;
    void (*run_)(const void*, Args...);
};

/// Runs body(blockIdx) for every blockIdx in [0, blockDim), the blocks as
/// TBB tasks of the calling thread's arena (launch() runs on a device
/// worker).  A task takes several consecutive blocks when the launch moves
/// few bytes (bytesMoved, the operator's bytes read + written), so that a
/// task is worth scheduling; a small launch runs on the calling worker
/// alone.  The wait is isolated: while it waits, the calling worker runs
/// only this launch's blocks, never another stream's task (which could block
/// on this one, or reuse its staging buffer).  Which thread runs a block, or
/// which blocks share a task, never changes what a block computes.  An
/// exception escaping a body is reported, with opName, as
/// ACL_ERROR_RT_INTERNAL_ERROR; otherwise returns ACL_SUCCESS.
///
/// A block is one task at most: a worker that runs it takes another
/// stream's ready item only after it.  Kernels whose blocks may be cut use
/// launch_block_slices instead.
aclError launch_blocks(const char* opName, int64_t blockDim, int64_t bytesMoved,
                       BorrowedCall<void(int64_t blockIdx)> body) noexcept;

/// A piece of one block: the units [units.begin, units.end) of block
/// `block`, a sub-range of BlockSplit::block(block).
struct BlockSlice {
    int64_t block = 0;
    Range units;
};

/// How launch_block_slices cuts each block of a split: from the block's
/// first unit, slices of sliceUnits units (the block's last slice the rest);
/// slicesPerBlock is the most any block has.
struct SlicePlan {
    int64_t sliceUnits = 0;
    int64_t slicesPerBlock = 0;
};

/// Bytes a slice should move at most: a worker takes another stream's ready
/// item only between tasks, so a task bounds how long a long operator makes
/// a small one wait -- 20-40 us of DRAM traffic for one of two busy cores.
/// Measured (bench Launch/RoundTrip/beside_long_job, 2 workers): with whole
/// 4 MiB blocks the small operator's p99 round trip was 510-600 us, with
/// 512 KiB slices 58-87 us; 128 and 256 KiB slices did no better, and the
/// 16 Mi-element Op/ figures did not move beyond the machine's noise.
inline constexpr int64_t kMaxSliceBytes = 512 * 1024;

/// The granule of blocks that must stay whole: each is one slice.
inline constexpr int64_t kUncutBlocks = INT64_MAX;

/// The plan for blocks whose units move bytesPerUnit bytes each, cut only
/// at multiples of granule units from a block's start: slices of at most
/// kMaxSliceBytes (but at least one granule), and never more than 2^20 per
/// block.  A block no longer than a slice stays whole.  Precondition:
/// granule > 0 (bytesPerUnit below 1 counts as 1).
SlicePlan plan_slices(const BlockSplit& blocks, int64_t bytesPerUnit, int64_t granule) noexcept;

/// Runs body(slice) for every slice of every block of `blocks` as planned
/// by plan_slices(blocks, bytesPerUnit, granule), as launch_blocks runs
/// blocks: several small slices per task, one slice per task once a slice
/// is worth a task, isolated, exceptions reported with opName.  Slices of
/// one block may run at once on different workers, so a body must not
/// share anything per block (a workspace staging slot: stage per worker, or
/// keep such blocks whole with granule kUncutBlocks).  Observers see each slice as a
/// block begin/end of its block.
aclError launch_block_slices(const char* opName, const BlockSplit& blocks, int64_t bytesPerUnit, int64_t granule,
                             BorrowedCall<void(const BlockSlice& slice)> body) noexcept;

/// ACL_SUCCESS when the first `inputs` input and `outputs` output addresses
/// of args are non-null; otherwise reports, for opName, the fault the device
/// would raise (ACL_ERROR_RT_AICORE_EXCEPTION) and returns it.  Kernels call
/// it before touching memory.
aclError check_tensor_addresses(const char* opName, const LaunchArgs& args, size_t inputs, size_t outputs) noexcept;

}  // namespace aclcpu::ops
