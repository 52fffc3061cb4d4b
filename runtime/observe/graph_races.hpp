// acl-cpu runtime: the race checker's view of a captured graph.
#pragma once

#include "core/internal.hpp"

#include <string>
#include <vector>

#include "aclcpu/instrumentation.hpp"

namespace aclcpu::detail {

/// The races inside a captured graph: two nodes that touch overlapping bytes,
/// at least one writing, that no captured dependency orders (neither follows
/// the other through the model's edges).  One report text per pair of
/// nodes, naming both nodes, their captured streams and the bytes.
std::vector<std::string> find_graph_races(const void* model, const instrument::GraphNodeInfo* nodes, size_t count);

}  // namespace aclcpu::detail
