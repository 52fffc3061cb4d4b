// acl-cpu runtime interface: the emulated SoC, as operators' tilings see it.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
#include "aclcpu/export.hpp"

namespace aclcpu {

/// The figures of an emulated SoC that the operators' tilings depend on.
struct SocProfile {
    const char* name;           ///< CANN's SoC name, e.g. "Ascend910B2".
    int64_t aiCoreCount;        ///< Cube cores (ACL_DEVICE_INFO_AI_CORE_NUM).
    int64_t vectorCoreCount;    ///< Vector cores: the upper bound of an operator's blockDim.
    int64_t ubSize;             ///< Unified Buffer bytes per vector core.
    int64_t l2Size;             ///< L2 cache bytes.
    uint64_t hbmBytes;          ///< Default capacity of the device-memory pool.
};

/// The SoC profile of the device that owns stream (nullptr: the current
/// context's device).  Falls back to the configured profile when no device
/// is set, so phase 1 of an operator can tile before aclrtSetDevice.
/// Thread-safe; the reference stays valid until aclFinalize.
ACLCPU_EXPORT const SocProfile& soc_profile(aclrtStream stream = nullptr);

}  // namespace aclcpu
