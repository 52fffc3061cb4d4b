// acl-cpu ops/common: the per-target namespace of the SIMD kernels.
//
// A kernel .cpp that defines HWY_TARGET_INCLUDE as its own path and then
// includes <hwy/foreach_target.h> is compiled once per SIMD target Highway
// dispatches to (SSE4, AVX2, AVX-512, ...).  Each pass defines HWY_NAMESPACE
// as that target's namespace (N_AVX2, ...); the code between
// HWY_BEFORE_NAMESPACE() and HWY_AFTER_NAMESPACE() is compiled with the
// target's instruction set enabled.  The kernels' per-target code, and that
// of the "-inl" headers they include, lives in aclcpu::ops::HWY_NAMESPACE,
// where `hn` names Highway's operations for the target:
//
//     ACLCPU_BEGIN_TARGET_NAMESPACE();
//     ... per-target functions ...
//     ACLCPU_END_TARGET_NAMESPACE();
//     #if HWY_ONCE
//     ... compiled in one pass only: HWY_EXPORT of the per-target functions
//         and the dispatchers calling the best one for the CPU
//         (HWY_DYNAMIC_DISPATCH) ...
//     #endif
//
// Use them in files that include <hwy/highway.h>: they expand to its macros
// of the pass they are used in.
#pragma once

#include "common/internal.hpp"

#define ACLCPU_BEGIN_TARGET_NAMESPACE()    \
    HWY_BEFORE_NAMESPACE();                \
    namespace aclcpu::ops::HWY_NAMESPACE { \
    namespace hn = hwy::HWY_NAMESPACE

#define ACLCPU_END_TARGET_NAMESPACE() \
    }                                 \
    HWY_AFTER_NAMESPACE()
