// acl-cpu runtime: unified (managed) memory (aclrtMemAllocManaged and its advice).
#pragma once

#include "core/internal.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "acl/acl_rt.h"

namespace aclcpu::detail {

/// Allocations of aclrtMemAllocManaged and the advice given for their pages.
///
/// Host and emulated devices share one coherent memory, so managed memory
/// never migrates or faults: an allocation is device memory that the host may
/// use too, and advice and prefetches change no placement.  What they leave
/// is what CANN reports back through aclrtMemManagedGetAttr(s): per 2 MiB
/// page, the read-mostly flag, the preferred location, the locations that
/// access it and the location of the last prefetch.
class ManagedMemory {
public:
    static constexpr size_t kPageBytes = size_t{2} << 20;
    /// aclrtMemManagedGetAttr's answer for "no single location".
    static constexpr int32_t kNoLocation = -2;

    /// A location as the attributes report it: its type, and its id (-1 for the host).
    using Location = std::pair<int64_t, int32_t>;

    static ManagedMemory& instance();

    void add(void* base, size_t size);
    /// Forgets an allocation freed by aclrtFree (no-op for other memory).
    void forget(const void* base);
    /// True when [ptr, ptr + size) lies in one managed allocation.
    bool contains(const void* ptr, size_t size) const;

    void advise(const void* ptr, size_t size, int64_t advice, const Location& location);
    void record_prefetch(const void* ptr, size_t size, const Location& location);

    bool read_mostly(const void* ptr, size_t size) const;
    /// The preferred (or last prefetch) location every page shares, or {INVALID, kNoLocation}.
    Location preferred(const void* ptr, size_t size) const;
    Location last_prefetch(const void* ptr, size_t size) const;
    /// The locations set as accessing every page of the range.
    std::vector<Location> accessed_by(const void* ptr, size_t size) const;

private:
    struct Page {
        bool readMostly = false;
        Location preferred{ACL_MEM_LOCATIONTYPE_INVALID, kNoLocation};
        Location lastPrefetch{ACL_MEM_LOCATIONTYPE_INVALID, kNoLocation};
        std::set<Location> accessedBy;
    };
    ManagedMemory() = default;
    /// Visits the pages [ptr, ptr + size) covers (a range contains() accepted).
    template <typename Allocations, typename Visit>
    static void for_pages(Allocations& allocations, const void* ptr, size_t size, Visit visit);
    /// The value every page of the range shares, or `mixed`.
    template <typename Field>
    Location common(const void* ptr, size_t size, Field field) const;

    mutable std::mutex mutex_;
    std::map<uintptr_t, std::vector<Page>> allocations_;  ///< Keyed by base address.
};

}  // namespace aclcpu::detail
