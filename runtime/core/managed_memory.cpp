// acl-cpu runtime: ManagedMemory.
#include <algorithm>
#include <iterator>

#include "core/managed_memory.hpp"

namespace aclcpu::detail {

ManagedMemory& ManagedMemory::instance() {
    static ManagedMemory memory;
    return memory;
}

void ManagedMemory::add(void* base, size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    allocations_[reinterpret_cast<uintptr_t>(base)] = std::vector<Page>(size / kPageBytes);
}

void ManagedMemory::forget(const void* base) {
    std::lock_guard<std::mutex> lock(mutex_);
    allocations_.erase(reinterpret_cast<uintptr_t>(base));
}

bool ManagedMemory::contains(const void* ptr, size_t size) const {
    const auto address = reinterpret_cast<uintptr_t>(ptr);
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = allocations_.upper_bound(address);
    if (it == allocations_.begin()) return false;
    --it;
    const size_t bytes = it->second.size() * kPageBytes;
    const uintptr_t offset = address - it->first;
    return offset < bytes && size <= bytes - offset;
}

template <typename Allocations, typename Visit>
void ManagedMemory::for_pages(Allocations& allocations, const void* ptr, size_t size, Visit visit) {
    const auto address = reinterpret_cast<uintptr_t>(ptr);
    auto it = std::prev(allocations.upper_bound(address));
    const size_t first = (address - it->first) / kPageBytes;
    const size_t last = (address - it->first + size - 1) / kPageBytes;
    for (size_t page = first; page <= last; ++page) visit(it->second[page]);
}

void ManagedMemory::advise(const void* ptr, size_t size, int64_t advice, const Location& location) {
    std::lock_guard<std::mutex> lock(mutex_);
    for_pages(allocations_, ptr, size, [&](Page& page) {
        switch (advice) {
            case ACL_MEM_ADVISE_SET_READ_MOSTLY:
                page.readMostly = true;
                break;
            case ACL_MEM_ADVISE_UNSET_READ_MOSTLY:
                page.readMostly = false;
                break;
            case ACL_MEM_ADVISE_SET_PREFERRED_LOCATION:
                page.preferred = location;
                break;
            case ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
                page.preferred = Page{}.preferred;
                break;
            case ACL_MEM_ADVISE_SET_ACCESSED_BY:
                page.accessedBy.insert(location);
                break;
            default:
                page.accessedBy.erase(location);
                break;
        }
    });
}

void ManagedMemory::record_prefetch(const void* ptr, size_t size, const Location& location) {
    std::lock_guard<std::mutex> lock(mutex_);
    // The allocation may have been freed before the stream reached the prefetch.
    if (allocations_.empty() || reinterpret_cast<uintptr_t>(ptr) < allocations_.begin()->first) return;
    auto it = std::prev(allocations_.upper_bound(reinterpret_cast<uintptr_t>(ptr)));
    if (reinterpret_cast<uintptr_t>(ptr) - it->first + size > it->second.size() * kPageBytes) return;
    for_pages(allocations_, ptr, size, [&](Page& page) { page.lastPrefetch = location; });
}

bool ManagedMemory::read_mostly(const void* ptr, size_t size) const {
    std::lock_guard<std::mutex> lock(mutex_);
    bool all = true;
    for_pages(allocations_, ptr, size, [&](const Page& page) { all = all && page.readMostly; });
    return all;
}

template <typename Field>
ManagedMemory::Location ManagedMemory::common(const void* ptr, size_t size, Field field) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const Location mixed{ACL_MEM_LOCATIONTYPE_INVALID, kNoLocation};
    bool first = true;
    Location shared = mixed;
    for_pages(allocations_, ptr, size, [&](const Page& page) {
        const Location& value = page.*field;
        if (first) shared = value;
        if (!first && value != shared) shared = mixed;
        first = false;
    });
    return shared;
}

ManagedMemory::Location ManagedMemory::preferred(const void* ptr, size_t size) const {
    return common(ptr, size, &Page::preferred);
}

ManagedMemory::Location ManagedMemory::last_prefetch(const void* ptr, size_t size) const {
    return common(ptr, size, &Page::lastPrefetch);
}

std::vector<ManagedMemory::Location> ManagedMemory::accessed_by(const void* ptr, size_t size) const {
    std::lock_guard<std::mutex> lock(mutex_);
    bool first = true;
    std::set<Location> shared;
    for_pages(allocations_, ptr, size, [&](const Page& page) {
        if (first) {
            shared = page.accessedBy;
        } else {
            std::set<Location> both;
            std::set_intersection(shared.begin(), shared.end(), page.accessedBy.begin(), page.accessedBy.end(),
                                  std::inserter(both, both.begin()));
            shared.swap(both);
        }
        first = false;
    });
    return std::vector<Location>(shared.begin(), shared.end());
}

}  // namespace aclcpu::detail
