// acl-cpu ops/common: running an operator's blocks on the device's workers,
// and the UB staging memory each block works in.
#pragma once

#include "common/internal.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "acl/acl_base.h"
#include "aclcpu/nnopbase.hpp"

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

/// A borrowed callable run as body(blockIdx), for launch_blocks.  Unlike
/// std::function it never allocates: a kernel's lambda capturing more than
/// two references would cost a heap allocation per launch.  Refers to the
/// callable it was made from, which must outlive it (a lambda written in
/// the launch_blocks call does).
class BlockBody {
public:
    // Implicit, so that a launch_blocks call takes its lambda as written.
    template <class Body, class = std::enable_if_t<!std::is_same_v<std::decay_t<Body>, BlockBody>>>
    BlockBody(const Body& body) noexcept
        : body_(&body), run_([](const void* b, int64_t blockIdx) { (*static_cast<const Body*>(b))(blockIdx); }) {}

    void operator()(int64_t blockIdx) const { run_(body_, blockIdx); }

private:
    const void* body_;
    void (*run_)(const void*, int64_t);
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
aclError launch_blocks(const char* opName, int64_t blockDim, int64_t bytesMoved, BlockBody body) noexcept;

/// ACL_SUCCESS when the first `inputs` input and `outputs` output addresses
/// of args are non-null; otherwise reports, for opName, the fault the device
/// would raise (ACL_ERROR_RT_AICORE_EXCEPTION) and returns it.  Kernels call
/// it before touching memory.
aclError check_tensor_addresses(const char* opName, const LaunchArgs& args, size_t inputs, size_t outputs) noexcept;

}  // namespace aclcpu::ops
