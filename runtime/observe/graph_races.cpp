// acl-cpu runtime: races inside a captured graph.
#include "observe/graph_races.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace aclcpu::detail {

namespace {

using instrument::GraphNodeInfo;
using instrument::MemoryAccess;

/// Which nodes each node follows, directly or not, as bit sets.  Nodes are
/// numbered in capture order, so a node's predecessors come before it.
class Ancestry {
public:
    Ancestry(const GraphNodeInfo* nodes, size_t count) : words_((count + 63) / 64), bits_(count * words_, 0) {
        for (size_t node = 0; node < count; ++node) {
            for (size_t i = 0; i < nodes[node].afterCount; ++i) {
                const uint32_t before = nodes[node].after[i];
                set(node, before);
                for (size_t w = 0; w < words_; ++w) bits_[node * words_ + w] |= bits_[before * words_ + w];
            }
        }
    }
    bool follows(size_t node, size_t earlier) const {
        return (bits_[node * words_ + earlier / 64] >> (earlier % 64)) & 1u;
    }

private:
    void set(size_t node, size_t earlier) { bits_[node * words_ + earlier / 64] |= uint64_t{1} << (earlier % 64); }

    size_t words_;
    std::vector<uint64_t> bits_;
};

bool conflict(const MemoryAccess& a, const MemoryAccess& b) {
    if (a.kind != MemoryAccess::Kind::kWrite && b.kind != MemoryAccess::Kind::kWrite) return false;
    const auto* aBegin = static_cast<const unsigned char*>(a.begin);
    const auto* bBegin = static_cast<const unsigned char*>(b.begin);
    return aBegin < bBegin + b.bytes && bBegin < aBegin + a.bytes;
}

std::string describe(const GraphNodeInfo& node, size_t index, const MemoryAccess& access) {
    char text[256];
    std::snprintf(text, sizeof(text), "%s by node %zu, %s (%s), captured on stream %d",
                  access.kind == MemoryAccess::Kind::kWrite ? "write" : "read", index, node.work.name, access.role,
                  node.stream);
    return text;
}

std::string report(const void* model, const GraphNodeInfo* nodes, size_t earlier, const MemoryAccess& a,
                   size_t later, const MemoryAccess& b) {
    const auto begin = std::max(reinterpret_cast<uintptr_t>(a.begin), reinterpret_cast<uintptr_t>(b.begin));
    const auto end = std::min(reinterpret_cast<uintptr_t>(a.begin) + a.bytes, reinterpret_cast<uintptr_t>(b.begin) + b.bytes);
    char header[192];
    std::snprintf(header, sizeof(header),
                  "acl-cpu: data race on device memory bytes [0x%" PRIxPTR ", 0x%" PRIxPTR ") (%" PRIuPTR
                  " bytes) inside captured graph %p\n",
                  begin, end, end - begin, model);
    return std::string(header) + "  one:   " + describe(nodes[earlier], earlier, a) + "\n" +
           "  other: " + describe(nodes[later], later, b) + "\n" +
           "  no captured dependency (stream order or event wait in the capture) orders them, so every replay "
           "may run them in either order or at once\n";
}

/// Nodes behind different choices of one control node (a built model's
/// branches) never run in the same replay.
bool exclusive(const GraphNodeInfo& a, const GraphNodeInfo& b) {
    return a.choiceNode >= 0 && a.choiceNode == b.choiceNode && a.choice != b.choice;
}

}  // namespace

std::vector<std::string> find_graph_races(const void* model, const GraphNodeInfo* nodes, size_t count) {
    const Ancestry ancestry(nodes, count);
    std::vector<std::string> reports;
    for (size_t later = 0; later < count; ++later) {
        const GraphNodeInfo& node = nodes[later];
        for (size_t earlier = 0; earlier < later; ++earlier) {
            const GraphNodeInfo& other = nodes[earlier];
            if (ancestry.follows(later, earlier) || exclusive(node, other)) continue;
            bool found = false;
            for (size_t i = 0; i < other.work.accessCount && !found; ++i) {
                for (size_t j = 0; j < node.work.accessCount && !found; ++j) {
                    if (!conflict(other.work.accesses[i], node.work.accesses[j])) continue;
                    reports.push_back(report(model, nodes, earlier, other.work.accesses[i], later, node.work.accesses[j]));
                    found = true;
                }
            }
        }
    }
    return reports;
}

}  // namespace aclcpu::detail
