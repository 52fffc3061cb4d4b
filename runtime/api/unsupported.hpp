// acl-cpu runtime API: the answer of an entry point that has no meaning
// without Ascend hardware (device kernel binaries, DVPP, hardware queues,
// .om models, ...).
#pragma once

#include "core/internal.hpp"

#include "acl/acl_base.h"
#include "core/errors.hpp"

namespace aclcpu::api {

/// What an unsupported entry point returns, whatever its result type:
/// ACL_ERROR_RT_FEATURE_NOT_SUPPORT as an aclError, otherwise the
/// value-initialised result (0, nullptr), CANN's "nothing" for a getter.
struct UnsupportedResult {
    operator aclError() const noexcept { return ACL_ERROR_RT_FEATURE_NOT_SUPPORT; }
    template <typename T>
    operator T() const noexcept {
        return T{};
    }
};

/// Reports ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000), with a message from
/// aclGetRecentErrMsg naming the function and why.  An unsupported entry
/// point's whole body is `return not_supported(__func__, kWhy);` with kWhy
/// a string literal or a `constexpr char kWhy[] = "...";` of the same file:
/// scripts/api_coverage.py reads that shape to list the function, with its
/// reason, in the README's API coverage.
inline UnsupportedResult not_supported(const char* function, const char* why) {
    detail::runtime_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s is not supported by acl-cpu: %s", function, why);
    return UnsupportedResult{};
}

}  // namespace aclcpu::api
