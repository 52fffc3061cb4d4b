// acl-cpu runtime: the stream race checker (ACLCPU_CHECK=race).
#pragma once

#include "core/internal.hpp"

#include <memory>

#include "aclcpu/instrumentation.hpp"

namespace aclcpu::detail {

/// Creates the stream race checker: an observer that keeps a vector clock per
/// stream and per host thread, records the byte ranges every submitted item
/// and every host copy touches, and reports on stderr (first line
/// "acl-cpu: data race", or "acl-cpu: free of memory in use") two accesses to
/// overlapping bytes from different agents, at least one a write, that no
/// synchronisation orders.  With `fatal` the first report aborts the process.
std::shared_ptr<instrument::Observer> make_race_checker(bool fatal);

}  // namespace aclcpu::detail
