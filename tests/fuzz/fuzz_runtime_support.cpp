// acl-cpu fuzzing: the runtime targets' shared invariant and decoders.
#include "fuzz_runtime_support.hpp"

#include <climits>
#include <cstdint>
#include <cstdio>
#include <iterator>

#include "runtime/runtime_test_support.hpp"

namespace aclcpu::fuzz {
namespace {

/// decode_extent's answers beyond the extent itself: size_t's edges and
/// values whose sums and products with small numbers overflow.
constexpr size_t kSpecialExtents[] = {SIZE_MAX,           SIZE_MAX - 1,        SIZE_MAX / 2 + 1, size_t{1} << 32,
                                      size_t{1} << 40,    size_t{1} << 48,     4095,             4096,
                                      4097,               size_t{2} << 20,     (size_t{2} << 20) + 1,
                                      5000001,            size_t{5} << 20};

/// A stream created and destroyed once: its handle is stale from then on.
aclrtStream destroyed_stream() {
    static const aclrtStream stale = [] {
        aclrtStream stream = nullptr;
        if (aclrtCreateStream(&stream) != ACL_SUCCESS) fail("aclrtCreateStream failed");
        if (aclrtDestroyStream(stream) != ACL_SUCCESS) fail("aclrtDestroyStream failed");
        return stream;
    }();
    return stale;
}

}  // namespace

aclError expect_acl_status(const char* api, aclError status) {
    if (status != ACL_SUCCESS && !aclcpu::test::is_cann_error(status)) {
        fail("%s returned %d, not a documented aclError code", api, status);
    }
    if (status != ACL_SUCCESS) expect_failure_message(api);
    if (tracing()) std::fprintf(stderr, "%s -> %d\n", api, status);
    return status;
}

aclError synchronize_bounded(aclrtStream stream) {
    clear_error_message();
    const aclError status = aclrtSynchronizeStreamWithTimeout(stream, kSettleTimeoutMs);
    if (status == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) fail("stream %p did not finish within %d ms", stream, kSettleTimeoutMs);
    return expect_acl_status("aclrtSynchronizeStreamWithTimeout", status);
}

size_t decode_extent(Decoder& in, size_t extent) {
    switch (in.byte() % 8) {
        case 0: return 0;
        case 1:
        case 2: return extent == SIZE_MAX ? in.word() : in.word() % (extent + 1);
        case 3: return extent;
        case 4: return extent + 1;
        case 5: return extent == 0 ? 1 : extent - 1;
        case 6: {
            const size_t pick = in.byte() % (std::size(kSpecialExtents) + 1);
            return pick < std::size(kSpecialExtents) ? kSpecialExtents[pick] : in.word();
        }
        default: return in.byte() % 64;
    }
}

int32_t decode_code(Decoder& in, int32_t first, int32_t last) {
    const uint8_t choice = in.byte();
    if (choice < 192) return first + static_cast<int32_t>(choice % (static_cast<uint32_t>(last - first) + 1));
    switch (choice % 4) {
        case 0: return first - 1;
        case 1: return last + 1;
        case 2: return (choice & 4) != 0 ? INT32_MAX : INT32_MIN;
        default: return static_cast<int32_t>(in.word());
    }
}

aclrtStream decode_stream(Decoder& in, const aclrtStream* live, size_t count) {
    const uint8_t choice = in.byte();
    if (choice < 200 && count != 0) return live[choice % count];
    switch (choice % 4) {
        case 0: return destroyed_stream();
        case 1: return static_cast<aclrtStream>(never_issued_handle());
        default: return nullptr;
    }
}

void* never_issued_handle() {
    static uint64_t notAHandle[8] = {};
    return notAHandle;
}

}  // namespace aclcpu::fuzz
