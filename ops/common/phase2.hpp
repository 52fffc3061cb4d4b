// acl-cpu ops/common: every operator's phase 2 -- the executor phase 1
// handed back, run on the caller's stream by libnnopbase.
#pragma once

#include "common/internal.hpp"

#include "aclcpu/nnopbase.hpp"

/// Defines aclnn operator `op`'s phase 2 with CANN's signature, extern "C":
/// run_executor checks the executor and the workspace, then enqueues the
/// executor's run on stream (see run_executor for ownership and ordering).
#define ACLCPU_DEFINE_PHASE2(op)                                                                      \
    extern "C" aclnnStatus op(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,       \
                              aclrtStream stream) {                                                   \
        return aclcpu::run_executor(#op, workspace, workspaceSize, executor, stream);                 \
    }
