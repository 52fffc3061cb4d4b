// acl-cpu runtime: OpRecord.
#include "observe/op_record.hpp"

#include <algorithm>

namespace aclcpu::observe {
namespace {

/// FNV-1a over the record's bytes after its seal.
uint32_t checksum_of(const OpRecord& record) noexcept {
    const auto* bytes = reinterpret_cast<const unsigned char*>(&record);
    uint32_t hash = 2166136261u;
    for (size_t i = sizeof(record.seal); i < sizeof(OpRecord); ++i) {
        hash ^= bytes[i];
        hash *= 16777619u;
    }
    return hash;
}

/// Copies text into field, cut to leave room for the terminator.
template <size_t N>
void copy_cut(char (&field)[N], const std::string& text) {
    const size_t length = std::min(text.size(), N - 1);
    std::copy_n(text.data(), length, field);
    field[length] = '\0';
}

}  // namespace

OpRecord::OpRecord(uint32_t model, const std::string& opType, const std::string& opName, uint64_t start,
                   uint64_t end)
    : modelId(model), startNs(start), endNs(end) {
    copy_cut(type, opType);
    copy_cut(name, opName);
    seal = checksum_of(*this);
}

bool OpRecord::sealed() const noexcept { return seal == checksum_of(*this); }

}  // namespace aclcpu::observe
