// Fuzzes the runtime's memory entry points: plain, 2-D and batch copies
// (synchronous and on a stream), aclrtMemset(D32)(Async), allocation with a
// configuration, host registration and the virtual-memory API.  Each input
// is a short sequence of calls over a few regions -- device buffers, a
// virtual-memory mapping, pinned and pageable host memory -- with any
// sizes, pitches, offsets, kinds and flags, and stale or never-issued
// pointers and handles.
//
// Beyond the shared invariant (fuzz_runtime_support.hpp) the target keeps a
// reference copy of every region: a successful call must have changed the
// regions exactly as a reference loop over the reference copies does, a
// failed call must have changed nothing, and a call may only succeed on
// ranges that lie inside live memory.
//
// A C caller owns the correctness of host pointers: the target never lets a
// call reach host memory (a side the copy kind does not name as device
// memory) past the end of a region, and passes stale pointers only where
// the runtime must check them as device memory.
#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <vector>

#include "fuzz_runtime_support.hpp"

using namespace aclcpu::fuzz;

/// A failed host allocation must be a status, as glibc's null is, not an
/// abort: sanitizer allocators return null instead of reporting.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }

namespace {

constexpr size_t kDeviceRegions = 3;
constexpr size_t kHostBytes = 4 * 4096;
/// A mapping larger than this is not used as a copy region (its reference
/// copy would cost more time than it finds bugs).
constexpr size_t kMaxMappedRegionBytes = size_t{4} << 20;
/// Any allocation that succeeds at this size or above is a bug: no host has
/// that much address space.
constexpr uint64_t kImpossibleBytes = uint64_t{1} << 48;
/// Allocations between kLargestTry and kImpossibleBytes are not tried: they
/// could succeed (a device holds 64 GiB) and would trip libFuzzer's malloc limit.
constexpr uint64_t kLargestTry = uint64_t{64} << 20;
constexpr int kMaxCalls = 24;

/// A range the target hands out as addresses, with the bytes it must hold.
struct Region {
    const char* name = "";
    unsigned char* base = nullptr;
    size_t size = 0;
    std::vector<unsigned char> expected;

    void reset(const char* regionName, void* memory, size_t bytes) {
        name = regionName;
        base = static_cast<unsigned char*>(memory);
        size = bytes;
        expected.assign(base, base + size);
    }
    void clear() { *this = Region{}; }
    bool live() const { return base != nullptr; }
    bool holds(size_t offset, size_t bytes) const { return offset <= size && bytes <= size - offset; }
};

/// An address argument and what the target knows of it.
struct Address {
    unsigned char* ptr = nullptr;
    /// The region ptr lies in (up to its end), or nullptr: null, stale, never
    /// issued, or past a region's end -- where another block may begin.
    Region* region = nullptr;
    size_t offset = 0;

    /// Only memory the target owns may be reached as host memory.
    void keep_for_host(size_t& bytes) {
        if (region == nullptr) {
            ptr = nullptr;
            return;
        }
        bytes = std::min(bytes, region->size - offset);
    }
    /// What is left of the region from ptr (64 for addresses outside one).
    size_t room() const { return region != nullptr ? region->size - offset : 64; }
};

/// The rows of a 2-D copy (a plain copy is one row).
struct Rows {
    size_t width;
    size_t height;
    size_t dpitch;
    size_t spitch;
    /// Bytes from the first to the end of the last row with pitch, or SIZE_MAX on overflow.
    size_t extent(size_t pitch) const {
        if (height == 0 || width == 0) return 0;
        size_t rows = 0;
        size_t total = 0;
        if (__builtin_mul_overflow(height - 1, pitch, &rows) || __builtin_add_overflow(rows, width, &total)) {
            return SIZE_MAX;
        }
        return total;
    }
};

/// Shrinks rows so that they stay inside what address owns (host memory).
void keep_rows_for_host(Address& address, Rows& rows, size_t pitch) {
    if (address.region == nullptr) {
        address.ptr = nullptr;
        return;
    }
    const size_t room = address.room();
    rows.width = std::min(rows.width, room);
    if (pitch != 0 && rows.height != 0) rows.height = std::min(rows.height, (room - rows.width) / pitch + 1);
}

bool names_device_dst(int32_t kind) {
    return kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE ||
           kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE;
}

bool names_device_src(int32_t kind) { return kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE; }

/// Streams shared by every input: aclrtCreateStream is no part of what this target fuzzes.
const std::array<aclrtStream, 2>& live_streams() {
    static const std::array<aclrtStream, 2> streams = [] {
        std::array<aclrtStream, 2> created{};
        for (aclrtStream& stream : created) {
            if (aclrtCreateStream(&stream) != ACL_SUCCESS) fail("aclrtCreateStream failed");
        }
        return created;
    }();
    return streams;
}

/// Pinned memory shared by every input.
unsigned char* pinned_memory() {
    static unsigned char* const memory = [] {
        void* allocated = nullptr;
        if (aclrtMallocHost(&allocated, kHostBytes) != ACL_SUCCESS) fail("aclrtMallocHost failed");
        return static_cast<unsigned char*>(allocated);
    }();
    return memory;
}

/// Page-aligned pageable memory shared by every input (host registration takes whole pages).
unsigned char* pageable_memory() {
    alignas(4096) static unsigned char memory[kHostBytes];
    return memory;
}

/// The state of one input: its regions, allocations, registrations and mappings.
class MemoryFuzz {
public:
    explicit MemoryFuzz(Decoder& in);
    ~MemoryFuzz();
    MemoryFuzz(const MemoryFuzz&) = delete;
    MemoryFuzz& operator=(const MemoryFuzz&) = delete;

    void call_next();

private:
    Address decode_address();
    aclrtStream decode_live_stream() { return decode_stream(in_, live_streams().data(), live_streams().size()); }
    void expect_regions_hold(const char* api) const;
    /// The reference bytes of [ptr, +bytes), which a successful call reached: one region must hold them.
    unsigned char* expected_bytes(const char* api, const void* ptr, size_t bytes);
    void copy_rows(const char* api, void* dst, const void* src, const Rows& rows);
    /// Whether a call is asynchronous, and on which stream.
    struct Async {
        bool on;
        aclrtStream stream;
    };
    Async decode_async(bool async) { return Async{async, async ? decode_live_stream() : nullptr}; }
    void finish(const char* api, aclError status, const Async& async, const std::function<void()>& effect);

    void memcpy_1d(bool async);
    void memcpy_2d(bool async);
    void memcpy_batch(bool async);
    void memset_bytes(bool async);
    void memset_words(bool async);
    void malloc_with_config();
    void malloc_host_with_config();
    void host_register();
    void host_unregister();
    void vmm_reserve();
    void vmm_physical();
    void vmm_map();
    void vmm_set_access();
    void vmm_unmap();
    void vmm_release();
    void vmm_granularity();

    Decoder& in_;
    std::array<Region, kDeviceRegions> device_;
    Region pinned_;
    Region pageable_;
    Region mapped_;             ///< The accessible part of the current mapping, if small enough.
    unsigned char* freed_ = nullptr;  ///< A device block already given back.
    std::vector<void*> registered_;
    void* reservation_ = nullptr;
    size_t reservationBytes_ = 0;
    aclrtDrvMemHandle physical_ = nullptr;
    void* mapping_ = nullptr;
    size_t mappingBytes_ = 0;
};

MemoryFuzz::MemoryFuzz(Decoder& in) : in_(in) {
    uint64_t fill = in_.byte();
    for (Region& region : device_) {
        void* memory = nullptr;
        const size_t requested = 1 + in_.byte() * size_t{16};
        if (aclrtMalloc(&memory, requested, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) fail("aclrtMalloc failed");
        void* base = nullptr;
        size_t blockBytes = 0;
        if (aclrtMemGetAddressRange(memory, &base, &blockBytes) != ACL_SUCCESS || base != memory) {
            fail("aclrtMemGetAddressRange of a fresh block failed");
        }
        // CANN rounds a block up: every byte of the block is the caller's.
        for (size_t b = 0; b < blockBytes; ++b) static_cast<unsigned char*>(memory)[b] = static_cast<unsigned char>(fill++ * 131);
        region.reset("device", memory, blockBytes);
    }
    std::memset(pinned_memory(), 0x11, kHostBytes);
    pinned_.reset("pinned", pinned_memory(), kHostBytes);
    std::memset(pageable_memory(), 0x22, kHostBytes);
    pageable_.reset("pageable", pageable_memory(), kHostBytes);
    void* block = nullptr;
    if (aclrtMalloc(&block, 256, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS || aclrtFree(block) != ACL_SUCCESS) {
        fail("aclrtMalloc / aclrtFree of a block to forget failed");
    }
    freed_ = static_cast<unsigned char*>(block);
}

MemoryFuzz::~MemoryFuzz() {
    for (aclrtStream stream : live_streams()) synchronize_bounded(stream);
    for (void* ptr : registered_) checked("aclrtHostUnregister", [&] { return aclrtHostUnregister(ptr); });
    if (mapping_ != nullptr) checked("aclrtUnmapMem", [&] { return aclrtUnmapMem(mapping_); });
    if (physical_ != nullptr) checked("aclrtFreePhysical", [&] { return aclrtFreePhysical(physical_); });
    if (reservation_ != nullptr) checked("aclrtReleaseMemAddress", [&] { return aclrtReleaseMemAddress(reservation_); });
    for (Region& region : device_) {
        if (aclrtFree(region.base) != ACL_SUCCESS) fail("aclrtFree of a live region failed");
    }
}

Address MemoryFuzz::decode_address() {
    Address address;
    switch (in_.byte() % 9) {
        case 0: case 1: case 2: address.region = &device_[in_.byte() % kDeviceRegions]; break;
        case 3: address.region = mapped_.live() ? &mapped_ : nullptr; break;
        case 4: address.region = &pinned_; break;
        case 5: address.region = &pageable_; break;
        case 6: return address;  // null
        case 7: address.ptr = freed_ + in_.byte() % 64; return address;
        default: address.ptr = static_cast<unsigned char*>(never_issued_handle()); return address;
    }
    if (address.region == nullptr) return address;
    const size_t offset = decode_extent(in_, address.region->size);
    address.ptr = address.region->base + offset % (address.region->size + 64);
    address.offset = static_cast<size_t>(address.ptr - address.region->base);
    // Past its end a region's pointer is somebody else's memory: the target
    // never passes it as host memory.
    if (address.offset > address.region->size) address.region = nullptr;
    return address;
}

void MemoryFuzz::expect_regions_hold(const char* api) const {
    auto check = [api](const Region& region) {
        if (!region.live()) return;
        const auto mismatch = std::mismatch(region.expected.begin(), region.expected.end(), region.base);
        if (mismatch.first != region.expected.end()) {
            fail("after %s, byte %zu of the %s region is %u, the reference says %u", api,
                 static_cast<size_t>(mismatch.first - region.expected.begin()), region.name, *mismatch.second,
                 *mismatch.first);
        }
    };
    for (const Region& region : device_) check(region);
    check(pinned_);
    check(pageable_);
    check(mapped_);
}

unsigned char* MemoryFuzz::expected_bytes(const char* api, const void* ptr, size_t bytes) {
    // Found by address: a pointer past one region's end may be the start of the next block.
    const auto* address = static_cast<const unsigned char*>(ptr);
    for (Region* region : {&device_[0], &device_[1], &device_[2], &pinned_, &pageable_, &mapped_}) {
        if (region->live() && address >= region->base && region->holds(address - region->base, bytes)) {
            return region->expected.data() + (address - region->base);
        }
    }
    fail("%s succeeded on [%p, +%zu), which lies in no live region", api, ptr, bytes);
}

void MemoryFuzz::copy_rows(const char* api, void* dst, const void* src, const Rows& rows) {
    if (rows.width == 0 || rows.height == 0) return;
    unsigned char* to = expected_bytes(api, dst, rows.extent(rows.dpitch));
    const unsigned char* from = expected_bytes(api, src, rows.extent(rows.spitch));
    // Row by row with memmove, as the copy is defined: overlapping rows read what earlier rows wrote.
    for (size_t row = 0; row < rows.height; ++row) {
        std::memmove(to + row * rows.dpitch, from + row * rows.spitch, rows.width);
    }
}

/// Ends a call that returned status: after a success its work must finish
/// without a stream error (stream synchronised when the call was
/// asynchronous) and `effect` applies it to the reference copies; either
/// way every region must then hold its reference.
void MemoryFuzz::finish(const char* api, aclError status, const Async& async, const std::function<void()>& effect) {
    if (status == ACL_SUCCESS) {
        if (async.on && synchronize_bounded(async.stream) != ACL_SUCCESS) fail("the stream failed after %s", api);
        effect();
    }
    expect_regions_hold(api);
}

void MemoryFuzz::call_next() {
    switch (in_.byte() % 20) {
        case 0: memcpy_1d(false); break;
        case 1: memcpy_1d(true); break;
        case 2: memcpy_2d(false); break;
        case 3: memcpy_2d(true); break;
        case 4: memcpy_batch(false); break;
        case 5: memcpy_batch(true); break;
        case 6: memset_bytes(false); break;
        case 7: memset_bytes(true); break;
        case 8: memset_words(false); break;
        case 9: memset_words(true); break;
        case 10: malloc_with_config(); break;
        case 11: malloc_host_with_config(); break;
        case 12: host_register(); break;
        case 13: host_unregister(); break;
        case 14: vmm_reserve(); break;
        case 15: vmm_physical(); break;
        case 16: vmm_map(); break;
        case 17: vmm_set_access(); break;
        case 18: vmm_unmap(); break;
        default: in_.bit() ? vmm_release() : vmm_granularity(); break;
    }
}

void MemoryFuzz::memcpy_1d(bool async) {
    Address dst = decode_address();
    Address src = decode_address();
    const int32_t kind = decode_code(in_, ACL_MEMCPY_HOST_TO_HOST, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE);
    size_t count = decode_extent(in_, dst.room());
    const size_t destMax = in_.bit() ? count : decode_extent(in_, count);
    if (!names_device_dst(kind)) dst.keep_for_host(count);
    if (!names_device_src(kind)) src.keep_for_host(count);
    const Async call = decode_async(async);
    const char* api = async ? "aclrtMemcpyAsync" : "aclrtMemcpy";
    const auto memcpyKind = static_cast<aclrtMemcpyKind>(kind);
    const aclError status = checked(api, [&] {
        return async ? aclrtMemcpyAsync(dst.ptr, destMax, src.ptr, count, memcpyKind, call.stream)
                     : aclrtMemcpy(dst.ptr, destMax, src.ptr, count, memcpyKind);
    });
    finish(api, status, call, [&] { copy_rows(api, dst.ptr, src.ptr, Rows{count, 1, count, count}); });
}

void MemoryFuzz::memcpy_2d(bool async) {
    Address dst = decode_address();
    Address src = decode_address();
    const int32_t kind = decode_code(in_, ACL_MEMCPY_HOST_TO_HOST, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE);
    Rows rows{};
    rows.width = decode_extent(in_, 64);
    rows.height = decode_extent(in_, 16);
    // Pitches are mostly at or a little above the width, as callers pass them.
    rows.dpitch = in_.bit() ? rows.width + in_.byte() % 32 : decode_extent(in_, rows.width + 32);
    rows.spitch = in_.bit() ? rows.width + in_.byte() % 32 : decode_extent(in_, rows.width + 32);
    if (!names_device_dst(kind)) keep_rows_for_host(dst, rows, rows.dpitch);
    if (!names_device_src(kind)) keep_rows_for_host(src, rows, rows.spitch);
    const Async call = decode_async(async);
    const char* api = async ? "aclrtMemcpy2dAsync" : "aclrtMemcpy2d";
    const auto memcpyKind = static_cast<aclrtMemcpyKind>(kind);
    const aclError status = checked(api, [&] {
        return async ? aclrtMemcpy2dAsync(dst.ptr, rows.dpitch, src.ptr, rows.spitch, rows.width, rows.height,
                                          memcpyKind, call.stream)
                     : aclrtMemcpy2d(dst.ptr, rows.dpitch, src.ptr, rows.spitch, rows.width, rows.height, memcpyKind);
    });
    finish(api, status, call, [&] { copy_rows(api, dst.ptr, src.ptr, rows); });
}

/// The arguments of one batch copy call: at most kMaxCopies copies.
struct Batch {
    static constexpr size_t kMaxCopies = 4;
    std::array<Address, kMaxCopies> dsts{};
    std::array<Address, kMaxCopies> srcs{};
    std::array<void*, kMaxCopies> dstPtrs{};
    std::array<void*, kMaxCopies> srcPtrs{};
    std::array<size_t, kMaxCopies> sizes{};
    std::array<size_t, kMaxCopies> destMaxs{};
    std::array<aclrtMemcpyBatchAttr, kMaxCopies + 1> attrs{};
    std::array<size_t, kMaxCopies + 1> indexes{};
    size_t count = 0;
    size_t numAttrs = 0;

    /// The copy kind attribute k gives its copies: CANN's batches copy host
    /// to device or device to host only (-1: neither).
    int32_t kind_of_attr(size_t k) const {
        const int32_t dst = attrs[k].dstLoc.type;
        const int32_t src = attrs[k].srcLoc.type;
        if (dst == ACL_MEM_LOCATION_TYPE_DEVICE && src == ACL_MEM_LOCATION_TYPE_HOST) return ACL_MEMCPY_HOST_TO_DEVICE;
        if (dst == ACL_MEM_LOCATION_TYPE_HOST && src == ACL_MEM_LOCATION_TYPE_DEVICE) return ACL_MEMCPY_DEVICE_TO_HOST;
        return -1;
    }
    /// The kind of copy i when the attribute segments are well formed, else -1.
    int32_t kind_of_copy(size_t i) const {
        if (numAttrs == 0 || numAttrs > count || indexes[0] != 0) return -1;
        size_t k = 0;
        for (size_t next = 1; next < numAttrs; ++next) {
            if (indexes[next] <= indexes[next - 1] || indexes[next] >= count) return -1;
            if (indexes[next] <= i) k = next;
        }
        return kind_of_attr(k);
    }
};

void MemoryFuzz::memcpy_batch(bool async) {
    Batch batch;
    batch.count = in_.byte() % (Batch::kMaxCopies + 1);
    batch.numAttrs = in_.byte() % (Batch::kMaxCopies + 2);
    for (size_t k = 0; k < batch.numAttrs; ++k) {
        batch.attrs[k].dstLoc.type = static_cast<aclrtMemLocationType>(decode_code(in_, 0, 4));
        batch.attrs[k].srcLoc.type = static_cast<aclrtMemLocationType>(decode_code(in_, 0, 4));
        batch.indexes[k] = in_.bit() ? k : decode_extent(in_, batch.count);
    }
    for (size_t i = 0; i < batch.count; ++i) {
        batch.dsts[i] = decode_address();
        batch.srcs[i] = decode_address();
        batch.sizes[i] = decode_extent(in_, batch.dsts[i].room());
        batch.destMaxs[i] = in_.bit() ? batch.sizes[i] : decode_extent(in_, batch.sizes[i]);
        const int32_t kind = batch.kind_of_copy(i);
        if (!names_device_dst(kind)) batch.dsts[i].keep_for_host(batch.sizes[i]);
        if (!names_device_src(kind)) batch.srcs[i].keep_for_host(batch.sizes[i]);
        batch.dstPtrs[i] = batch.dsts[i].ptr;
        batch.srcPtrs[i] = batch.srcs[i].ptr;
    }
    size_t failIndex = 0;
    size_t* failIndexArgument = in_.rare() ? nullptr : &failIndex;
    // Any array may be null (each one in 16 inputs).
    auto array = [this](auto& values) { return in_.rare() ? nullptr : values.data(); };
    void** dsts = array(batch.dstPtrs);
    size_t* destMaxs = array(batch.destMaxs);
    void** srcs = array(batch.srcPtrs);
    size_t* sizes = array(batch.sizes);
    aclrtMemcpyBatchAttr* attrs = array(batch.attrs);
    size_t* indexes = array(batch.indexes);
    const Async call = decode_async(async);
    const char* api = async ? "aclrtMemcpyBatchAsync" : "aclrtMemcpyBatch";
    const aclError status = checked(api, [&] {
        return async ? aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, batch.count, attrs, indexes, batch.numAttrs,
                                             failIndexArgument, call.stream)
                     : aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, batch.count, attrs, indexes, batch.numAttrs,
                                        failIndexArgument);
    });
    if (status != ACL_SUCCESS && failIndexArgument != nullptr && failIndex != SIZE_MAX && failIndex >= batch.count) {
        fail("%s failed with failIndex %zu of a batch of %zu", api, failIndex, batch.count);
    }
    // A batch of empty copies succeeds before its stream is looked at
    // (CANN's MemcpyBatchImpl): nothing was queued, whatever the stream.
    bool allEmpty = sizes != nullptr && batch.count != 0;
    for (size_t i = 0; i < batch.count; ++i) allEmpty = allEmpty && batch.sizes[i] == 0;
    finish(api, status, allEmpty ? Async{false, nullptr} : call, [&] {
        for (size_t i = 0; i < batch.count; ++i) {
            const size_t bytes = batch.sizes[i];
            copy_rows(api, batch.dstPtrs[i], batch.srcPtrs[i], Rows{bytes, 1, bytes, bytes});
        }
    });
}

void MemoryFuzz::memset_bytes(bool async) {
    const Address target = decode_address();
    const size_t maxCount = decode_extent(in_, target.room());
    const size_t count = in_.bit() ? maxCount : decode_extent(in_, maxCount);
    const auto value = static_cast<int32_t>(in_.word());
    const Async call = decode_async(async);
    const char* api = async ? "aclrtMemsetAsync" : "aclrtMemset";
    const aclError status = checked(api, [&] {
        return async ? aclrtMemsetAsync(target.ptr, maxCount, value, count, call.stream)
                     : aclrtMemset(target.ptr, maxCount, value, count);
    });
    finish(api, status, call, [&] {
        if (count != 0) std::memset(expected_bytes(api, target.ptr, count), static_cast<unsigned char>(value), count);
    });
}

void MemoryFuzz::memset_words(bool async) {
    const Address target = decode_address();
    const size_t memSize = decode_extent(in_, target.room());
    const size_t words = in_.bit() ? memSize / 4 : decode_extent(in_, memSize / 4);
    const auto value = static_cast<uint32_t>(in_.word());
    const Async call = decode_async(async);
    const char* api = async ? "aclrtMemsetD32Async" : "aclrtMemsetD32";
    const aclError status = checked(api, [&] {
        return async ? aclrtMemsetD32Async(target.ptr, memSize, value, words, call.stream)
                     : aclrtMemsetD32(target.ptr, memSize, value, words);
    });
    finish(api, status, call, [&] {
        if (words == 0) return;
        if (words > SIZE_MAX / 4) fail("%s succeeded on %zu words, more bytes than size_t counts", api, words);
        unsigned char* bytes = expected_bytes(api, target.ptr, words * 4);
        for (size_t i = 0; i < words; ++i) std::memcpy(bytes + i * 4, &value, 4);
    });
}

/// An aclrtMallocConfig with up to three attributes of any type and value.
struct MallocConfig {
    std::array<aclrtMallocAttribute, 3> attrs{};
    aclrtMallocConfig config{};
    aclrtMallocConfig* argument = nullptr;

    explicit MallocConfig(Decoder& in) {
        switch (in.byte() % 4) {
            case 0: return;  // null
            case 1: config.numAttrs = 1 + in.byte() % 3; break;  // attrs null
            default:
                config.numAttrs = 1 + in.byte() % 3;
                for (size_t i = 0; i < config.numAttrs; ++i) {
                    attrs[i].attr = static_cast<aclrtMallocAttrType>(decode_code(in, 0, 3));
                    const uint64_t value = in.bit() ? in.byte() % 2 : in.word();
                    std::memcpy(&attrs[i].value, &value, sizeof value);
                }
                config.attrs = attrs.data();
        }
        argument = &config;
    }
};

/// An allocation size: any, except those that could succeed above kLargestTry.
uint64_t decode_allocation_size(Decoder& in) {
    const uint64_t size = decode_extent(in, 4096);
    return size > kLargestTry && size < kImpossibleBytes ? size % kLargestTry : size;
}

/// A successful allocation of `size` bytes at ptr must be usable: writable
/// through the runtime over its first bytes.
void expect_usable_allocation(const char* api, void* ptr, uint64_t size, aclrtMemcpyKind kind) {
    if (size >= kImpossibleBytes) fail("%s allocated %llu bytes, more than any host has", api, (unsigned long long)size);
    const size_t touched = static_cast<size_t>(std::min<uint64_t>(size, 4096));
    std::vector<unsigned char> pattern(touched, 0x5a);
    if (aclrtMemcpy(ptr, touched, pattern.data(), touched, kind) != ACL_SUCCESS) {
        fail("%s's memory of %llu bytes refuses a copy of %zu bytes", api, (unsigned long long)size, touched);
    }
}

void MemoryFuzz::malloc_with_config() {
    const size_t size = decode_allocation_size(in_);
    const auto policy = static_cast<aclrtMemMallocPolicy>(decode_code(in_, 0, 6));
    MallocConfig config(in_);
    void* memory = nullptr;
    void** out = in_.rare() ? nullptr : &memory;
    if (checked("aclrtMallocWithCfg", [&] { return aclrtMallocWithCfg(out, size, policy, config.argument); }) !=
        ACL_SUCCESS) {
        return;
    }
    expect_usable_allocation("aclrtMallocWithCfg", memory, size, ACL_MEMCPY_HOST_TO_DEVICE);
    if (aclrtFree(memory) != ACL_SUCCESS) fail("aclrtFree of aclrtMallocWithCfg's memory failed");
}

void MemoryFuzz::malloc_host_with_config() {
    const uint64_t size = decode_allocation_size(in_);
    MallocConfig config(in_);
    void* memory = nullptr;
    void** out = in_.rare() ? nullptr : &memory;
    if (checked("aclrtMallocHostWithCfg", [&] { return aclrtMallocHostWithCfg(out, size, config.argument); }) !=
        ACL_SUCCESS) {
        return;
    }
    expect_usable_allocation("aclrtMallocHostWithCfg", memory, size, ACL_MEMCPY_HOST_TO_HOST);
    if (aclrtFreeHost(memory) != ACL_SUCCESS) fail("aclrtFreeHost of aclrtMallocHostWithCfg's memory failed");
}

void MemoryFuzz::host_register() {
    // Whole pages of the pageable region, or any offset into it.
    const size_t offset = in_.bit() ? (in_.byte() % 4) * 4096 : std::min(decode_extent(in_, kHostBytes), kHostBytes);
    unsigned char* ptr = in_.rare() ? nullptr : pageable_memory() + offset;
    // Registered memory becomes device memory to copies: it must stay inside the region.
    const uint64_t size = std::min<uint64_t>(decode_extent(in_, kHostBytes - offset), kHostBytes - offset);
    aclError status = ACL_SUCCESS;
    if (in_.bit()) {
        const auto type = static_cast<aclrtHostRegisterType>(in_.bit() ? 0 : in_.word());
        void* devPtr = nullptr;
        void** out = in_.rare() ? nullptr : &devPtr;
        status = checked("aclrtHostRegister", [&] { return aclrtHostRegister(ptr, size, type, out); });
        if (status == ACL_SUCCESS && devPtr != ptr) fail("aclrtHostRegister mapped %p at %p", ptr, devPtr);
    } else {
        const auto flag = static_cast<uint32_t>(in_.bit() ? in_.byte() % 16 : in_.word());
        status = checked("aclrtHostRegisterV2", [&] { return aclrtHostRegisterV2(ptr, size, flag); });
    }
    if (status == ACL_SUCCESS) registered_.push_back(ptr);
}

void MemoryFuzz::host_unregister() {
    void* ptr = !registered_.empty() && in_.bit() ? registered_[in_.byte() % registered_.size()]
                                                  : decode_address().ptr;
    if (checked("aclrtHostUnregister", [&] { return aclrtHostUnregister(ptr); }) == ACL_SUCCESS) {
        const auto found = std::find(registered_.begin(), registered_.end(), ptr);
        if (found == registered_.end()) fail("aclrtHostUnregister accepted %p, which is not registered", ptr);
        registered_.erase(found);
    }
}

/// A physical memory description with any field codes, mostly valid ones.
aclrtPhysicalMemProp decode_properties(Decoder& in) {
    aclrtPhysicalMemProp prop{};
    prop.handleType = static_cast<aclrtMemHandleType>(in.bit() ? 0 : decode_code(in, 0, 2));
    prop.allocationType = static_cast<aclrtMemAllocationType>(in.bit() ? 0 : decode_code(in, 0, 0));
    prop.memAttr = static_cast<aclrtMemAttr>(decode_code(in, ACL_DDR_MEM, ACL_MEM_P2P_HUGE1G));
    prop.location.type = static_cast<aclrtMemLocationType>(in.bit() ? 1 : decode_code(in, 0, 4));
    prop.location.id = in.bit() ? 0 : static_cast<uint32_t>(in.word());
    prop.reserve = in.rare() ? in.word() : 0;
    return prop;
}

/// A size for the virtual-memory calls: whole pages mostly, up to 4 MiB.
size_t decode_vmm_size(Decoder& in) {
    return in.bit() ? (1 + in.byte() % 16) * size_t{4096} * (in.bit() ? 1 : 64) : decode_extent(in, 8192);
}

void MemoryFuzz::vmm_reserve() {
    if (reservation_ != nullptr) vmm_release();
    const size_t size = decode_vmm_size(in_);
    const size_t alignment = in_.bit() ? 0 : decode_extent(in_, 4096);
    void* expected = in_.bit() ? nullptr : decode_address().ptr;
    const uint64_t flags = in_.rare() ? in_.word() : 0;
    void* address = nullptr;
    void** out = in_.rare() ? nullptr : &address;
    if (checked("aclrtReserveMemAddress",
                [&] { return aclrtReserveMemAddress(out, size, alignment, expected, flags); }) == ACL_SUCCESS) {
        reservation_ = address;
        reservationBytes_ = size;
    }
}

void MemoryFuzz::vmm_release() {
    void* ptr = reservation_ != nullptr && in_.bit() ? reservation_ : decode_address().ptr;
    if (checked("aclrtReleaseMemAddress", [&] { return aclrtReleaseMemAddress(ptr); }) != ACL_SUCCESS) return;
    if (ptr != reservation_) fail("aclrtReleaseMemAddress released %p, which is no reservation", ptr);
    reservation_ = nullptr;
    if (mapping_ != nullptr) {  // Releasing a reservation drops its mappings.
        mapping_ = nullptr;
        mapped_.clear();
    }
}

void MemoryFuzz::vmm_physical() {
    if (physical_ != nullptr && in_.bit()) {
        checked("aclrtFreePhysical", [&] { return aclrtFreePhysical(physical_); });
        physical_ = nullptr;
        return;
    }
    const size_t size = decode_vmm_size(in_);
    const aclrtPhysicalMemProp prop = decode_properties(in_);
    const uint64_t flags = in_.rare() ? in_.word() : 0;
    aclrtDrvMemHandle handle = nullptr;
    if (checked("aclrtMallocPhysical", [&] { return aclrtMallocPhysical(&handle, size, &prop, flags); }) !=
        ACL_SUCCESS) {
        return;
    }
    if (physical_ != nullptr) checked("aclrtFreePhysical", [&] { return aclrtFreePhysical(physical_); });
    physical_ = handle;
}

void MemoryFuzz::vmm_map() {
    if (mapping_ != nullptr) vmm_unmap();
    void* address = reservation_ != nullptr && in_.bit()
                        ? address_at(reservation_, in_.bit() ? 0 : decode_extent(in_, reservationBytes_))
                        : decode_address().ptr;
    const size_t size = in_.bit() ? reservationBytes_ : decode_vmm_size(in_);
    const size_t offset = in_.bit() ? 0 : decode_extent(in_, 4096);
    aclrtDrvMemHandle handle = in_.bit() ? physical_ : static_cast<aclrtDrvMemHandle>(never_issued_handle());
    const bool accessible = in_.bit();
    const uint64_t flags = in_.rare() ? in_.word() : 0;
    const char* api = accessible ? "aclrtMapMem" : "aclrtMemMapNoAccess";
    const aclError status = checked(api, [&] {
        return accessible ? aclrtMapMem(address, size, offset, handle, flags)
                          : aclrtMemMapNoAccess(address, size, offset, handle, flags);
    });
    if (status != ACL_SUCCESS) return;
    mapping_ = address;
    mappingBytes_ = size;
    if (accessible && size <= kMaxMappedRegionBytes) mapped_.reset("mapped", address, size);
}

void MemoryFuzz::vmm_set_access() {
    void* address = mapping_ != nullptr && in_.bit() ? mapping_ : decode_address().ptr;
    const size_t size = in_.bit() ? mappingBytes_ : decode_vmm_size(in_);
    std::array<aclrtMemAccessDesc, 2> descs{};
    for (aclrtMemAccessDesc& desc : descs) {
        desc.flags = static_cast<aclrtMemAccessFlags>(in_.bit() ? ACL_RT_MEM_ACCESS_FLAGS_READWRITE : decode_code(in_, 0, 3));
        desc.location.type = static_cast<aclrtMemLocationType>(in_.bit() ? 1 : decode_code(in_, 0, 4));
        desc.location.id = in_.bit() ? 0 : static_cast<uint32_t>(in_.word());
    }
    const size_t count = in_.byte() % 3;
    if (checked("aclrtMemSetAccess", [&] { return aclrtMemSetAccess(address, size, descs.data(), count); }) !=
        ACL_SUCCESS) {
        return;
    }
    // Only memory the device may read and write stays a copy region.
    const aclrtMemLocation device{0, ACL_MEM_LOCATION_TYPE_DEVICE};
    uint64_t flags = 0;
    const bool readWrite = aclrtMemGetAccess(mapping_, const_cast<aclrtMemLocation*>(&device), &flags) == ACL_SUCCESS &&
                           flags == ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    if (!readWrite) {
        mapped_.clear();
    } else if (!mapped_.live() && mappingBytes_ <= kMaxMappedRegionBytes) {
        mapped_.reset("mapped", mapping_, mappingBytes_);
    }
}

void MemoryFuzz::vmm_unmap() {
    void* address = mapping_ != nullptr && in_.bit() ? mapping_ : decode_address().ptr;
    if (checked("aclrtUnmapMem", [&] { return aclrtUnmapMem(address); }) != ACL_SUCCESS) return;
    if (address != mapping_) fail("aclrtUnmapMem unmapped %p, which is no mapping", address);
    mapping_ = nullptr;
    mapped_.clear();
}

void MemoryFuzz::vmm_granularity() {
    aclrtPhysicalMemProp prop = decode_properties(in_);
    const auto option = static_cast<aclrtMemGranularityOptions>(decode_code(in_, 0, 1));
    size_t granularity = 0;
    size_t* out = in_.rare() ? nullptr : &granularity;
    aclrtPhysicalMemProp* propArgument = in_.rare() ? nullptr : &prop;
    if (checked("aclrtMemGetAllocationGranularity",
                [&] { return aclrtMemGetAllocationGranularity(propArgument, option, out); }) == ACL_SUCCESS &&
        (granularity == 0 || (granularity & (granularity - 1)) != 0)) {
        fail("aclrtMemGetAllocationGranularity answered %zu, not a power of two", granularity);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Decoder in(data, size);
    const int calls = 1 + in.byte() % kMaxCalls;
    MemoryFuzz fuzz(in);
    for (int i = 0; i < calls; ++i) fuzz.call_next();
    return 0;
}
