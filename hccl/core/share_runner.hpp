// acl-cpu HCCL: run_share, how a rank's task moves its share of a collective.
#pragma once

#include "core/internal.hpp"

#include "acl/acl_base.h"
#include "core/algorithms.hpp"

namespace aclcpu::hccl::detail {

/// Moves share's pieces on the calling device worker's arena, cut into
/// blocks of at most kBlockBytes per destination that run in parallel (observers
/// see them as blocks of `api`).  Deterministic: a block computes the same
/// bits whichever worker runs it.  With memcheck on, every range the share
/// touches is checked first (and nothing moved if one is not device memory)
/// and the guard zones after: ACL_ERROR_RT_AICORE_EXCEPTION, as for an
/// operator's kernel.
aclError run_share(const char* api, const Share& share);

inline constexpr uint64_t kBlockBytes = 256 * 1024;

}  // namespace aclcpu::hccl::detail
