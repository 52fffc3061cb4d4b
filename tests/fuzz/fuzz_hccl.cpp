// Fuzzes libhccl's entry points on an in-process group of two ranks: the
// collectives and point-to-point calls with any type, op, root, peer and
// count codes, null buffers and live, destroyed, never-issued or null
// communicators; the queries; communicator creation with garbage root info,
// rank counts and device lists.
//
// Invariants: every call returns one of HcclResult's codes, with a message
// for aclGetRecentErrMsg when it fails; nothing crashes or hangs.  A
// collective rank 0 was allowed to enqueue is mirrored on rank 1 -- the same
// call, or (when the input says so) one with another count -- and both
// streams must then end with ACL_SUCCESS, or with ACL_ERROR_RT_PARAM_INVALID
// for the mismatch.  Counts are small (within the buffers) or so large that
// their byte size overflows: HCCL, like CANN, cannot check that a non-null
// buffer is as long as its count says.
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fuzz_runtime_support.hpp"
#include "hccl/hccl.h"

using namespace aclcpu::fuzz;

namespace {

constexpr uint32_t kRanks = 2;
constexpr int kMaxCalls = 16;
constexpr uint64_t kMaxCount = 64;  ///< Elements per rank block.
/// Every buffer holds kRanks blocks of kMaxCount of the widest type.
constexpr size_t kBufferBytes = kRanks * kMaxCount * sizeof(double);

/// The group every input uses, made once: two ranks on devices 0 and 1, a
/// stream and a pair of buffers each, and the handle of a destroyed
/// communicator.
struct Group {
    HcclComm comms[kRanks] = {};
    aclrtStream streams[kRanks] = {};
    void* send[kRanks] = {};
    void* recv[kRanks] = {};
    HcclComm destroyed = nullptr;
};

Group make_group() {
    // The shared initialisation (LLVMFuzzerInitialize) opened a span of one
    // device; this target's span has two.
    aclFinalize();
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    setenv("HCCL_EXEC_TIMEOUT", "1", 1);  // A lone collective fails in a second.
    if (aclInit(nullptr) != ACL_SUCCESS) fail("aclInit failed");
    Group group;
    int32_t devices[kRanks] = {0, 1};
    if (HcclCommInitAll(kRanks, devices, group.comms) != HCCL_SUCCESS) {
        fail("HcclCommInitAll failed: %s", aclGetRecentErrMsg());
    }
    if (HcclCommInitAll(1, devices, &group.destroyed) != HCCL_SUCCESS) fail("HcclCommInitAll of one failed");
    HcclCommDestroy(group.destroyed);
    for (uint32_t r = 0; r < kRanks; ++r) {
        aclrtSetDevice(devices[r]);
        if (aclrtCreateStream(&group.streams[r]) != ACL_SUCCESS) fail("aclrtCreateStream failed");
        aclrtMalloc(&group.send[r], kBufferBytes, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMalloc(&group.recv[r], kBufferBytes, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemset(group.send[r], kBufferBytes, 0, kBufferBytes);
    }
    aclrtSetDevice(0);
    return group;
}

Group& group() {
    static Group made = make_group();
    return made;
}

bool is_hccl_result(int code) { return (code >= HCCL_SUCCESS && code <= HCCL_E_OOM) || code == HCCL_E_IN_STATUS; }

/// The invariant for an HcclResult from api; returns it.
HcclResult expect_hccl_status(const char* api, HcclResult status) {
    if (!is_hccl_result(status)) fail("%s returned %d, which is not an HcclResult", api, static_cast<int>(status));
    if (status != HCCL_SUCCESS) expect_failure_message(api);
    return status;
}

template <class Call>
HcclResult checked_hccl(const char* api, Call&& call) {
    clear_error_message();
    return expect_hccl_status(api, call());
}

/// A communicator argument: mostly rank 0's, else null, destroyed or never issued.
HcclComm decode_comm(Decoder& in) {
    const uint8_t choice = in.byte();
    if (choice < 220) return group().comms[0];
    switch (choice % 3) {
        case 0: return nullptr;
        case 1: return group().destroyed;
        default: return never_issued_handle();
    }
}

/// A count: within a block, or one whose byte size overflows.
uint64_t decode_count(Decoder& in) {
    const uint8_t choice = in.byte();
    if (choice < 240) return choice % (kMaxCount + 1);
    return choice % 2 == 0 ? UINT64_MAX : UINT64_MAX / 2 + 1;
}

/// One collective or transfer of the fuzzed kind, with its arguments.
struct Call {
    uint8_t kind = 0;
    uint64_t count = 0;
    HcclDataType dtype = HCCL_DATA_TYPE_FP32;
    HcclReduceOp op = HCCL_REDUCE_SUM;
    uint32_t root = 0;
    bool nullSend = false;
    bool nullRecv = false;
};

constexpr uint8_t kKinds = 13;
const char* const kKindNames[kKinds] = {
    "HcclAllReduce", "HcclBroadcast", "HcclAllGather", "HcclReduceScatter",  "HcclReduce",
    "HcclScatter",   "HcclAlltoAll",  "HcclAlltoAllV", "HcclBarrier",        "HcclSend",
    "HcclRecv",      "HcclReduceScatterV", "HcclAllGatherV"};

/// Makes `call` as rank `rank` on comm; rank 1 mirrors a send with a
/// receive and the other way round.
HcclResult issue(const Call& call, uint32_t rank, HcclComm comm) {
    Group& g = group();
    void* send = call.nullSend ? nullptr : g.send[rank];
    void* recv = call.nullRecv ? nullptr : g.recv[rank];
    aclrtStream stream = g.streams[rank];
    const uint32_t peer = rank == 0 ? call.root : 0;
    std::vector<uint64_t> counts(kRanks, call.count), displs = {0, call.count};
    switch (call.kind) {
        case 0: return HcclAllReduce(send, recv, call.count, call.dtype, call.op, comm, stream);
        case 1: return HcclBroadcast(send, call.count, call.dtype, call.root, comm, stream);
        case 2: return HcclAllGather(send, recv, call.count, call.dtype, comm, stream);
        case 3: return HcclReduceScatter(send, recv, call.count, call.dtype, call.op, comm, stream);
        case 4: return HcclReduce(send, recv, call.count, call.dtype, call.op, call.root, comm, stream);
        case 5: return HcclScatter(send, recv, call.count, call.dtype, call.root, comm, stream);
        case 6: return HcclAlltoAll(send, call.count, call.dtype, recv, call.count, call.dtype, comm, stream);
        case 7:
            return HcclAlltoAllV(send, counts.data(), displs.data(), call.dtype, recv, counts.data(), displs.data(),
                                 call.dtype, comm, stream);
        case 8: return HcclBarrier(comm, stream);
        case 9:
            return rank == 0 ? HcclSend(send, call.count, call.dtype, peer, comm, stream)
                             : HcclRecv(recv, call.count, call.dtype, peer, comm, stream);
        case 10:
            return rank == 0 ? HcclRecv(recv, call.count, call.dtype, peer, comm, stream)
                             : HcclSend(send, call.count, call.dtype, peer, comm, stream);
        case 11:
            return HcclReduceScatterV(send, counts.data(), displs.data(), recv, call.count, call.dtype, call.op, comm,
                                      stream);
        default:
            return HcclAllGatherV(send, call.count, recv, counts.data(), displs.data(), call.dtype, comm, stream);
    }
}

/// Synchronises rank's stream; its status must be `expected`.
void expect_stream(uint32_t rank, aclError expected, const char* api) {
    const aclError status = aclrtSynchronizeStreamWithTimeout(group().streams[rank], kSettleTimeoutMs);
    if (status != expected) fail("%s: rank %u's stream ended with %d, expected %d", api, rank, status, expected);
}

void fuzz_collective(Decoder& in) {
    Call call;
    call.kind = in.byte() % kKinds;
    call.count = decode_count(in);
    call.dtype = static_cast<HcclDataType>(decode_code(in, HCCL_DATA_TYPE_INT8, HCCL_DATA_TYPE_FP8E8M0));
    call.op = static_cast<HcclReduceOp>(decode_code(in, HCCL_REDUCE_SUM, HCCL_REDUCE_MIN));
    call.root = in.byte() % (kRanks + 1);
    call.nullSend = in.rare();
    call.nullRecv = in.rare();
    const bool mismatch = in.rare() && call.kind != 8;
    const char* api = kKindNames[call.kind];
    HcclComm comm = decode_comm(in);
    if (checked_hccl(api, [&] { return issue(call, 0, comm); }) != HCCL_SUCCESS) return;
    if (comm != group().comms[0]) fail("%s succeeded on a communicator that is not live", api);
    Call mirrored = call;
    // The root and buffers of rank 1's call are its own; a mismatch changes the count.
    mirrored.nullSend = mirrored.nullRecv = false;
    if (mismatch) mirrored.count = call.count == kMaxCount ? 0 : call.count + 1;
    if (checked_hccl(api, [&] { return issue(mirrored, 1, group().comms[1]); }) != HCCL_SUCCESS) {
        fail("%s: rank 1's mirror of rank 0's accepted call was refused", api);
    }
    const aclError expected = mismatch ? ACL_ERROR_RT_PARAM_INVALID : ACL_SUCCESS;
    for (uint32_t r = 0; r < kRanks; ++r) expect_stream(r, expected, api);
}

void fuzz_queries(Decoder& in) {
    HcclComm comm = decode_comm(in);
    const bool nullOut = in.rare();
    uint32_t value = 0;
    char name[COMM_NAME_MAX_LENGTH];
    HcclResult asyncError = HCCL_SUCCESS;
    switch (in.byte() % 4) {
        case 0:
            checked_hccl("HcclGetRankSize", [&] { return HcclGetRankSize(comm, nullOut ? nullptr : &value); });
            break;
        case 1: checked_hccl("HcclGetRankId", [&] { return HcclGetRankId(comm, nullOut ? nullptr : &value); }); break;
        case 2: checked_hccl("HcclGetCommName", [&] { return HcclGetCommName(comm, nullOut ? nullptr : name); }); break;
        default:
            checked_hccl("HcclGetCommAsyncError",
                         [&] { return HcclGetCommAsyncError(comm, nullOut ? nullptr : &asyncError); });
            if (!is_hccl_result(asyncError)) fail("HcclGetCommAsyncError gave %d", static_cast<int>(asyncError));
    }
}

void fuzz_settings(Decoder& in) {
    const auto code = static_cast<int32_t>(in.word());
    if (HcclGetErrorString(static_cast<HcclResult>(code)) == nullptr) fail("HcclGetErrorString(%d) is null", code);
    const auto config = static_cast<HcclConfig>(decode_code(in, HCCL_DETERMINISTIC, HCCL_DETERMINISTIC));
    HcclConfigValue value;
    value.value = decode_code(in, 0, 2);
    checked_hccl("HcclSetConfig", [&] { return HcclSetConfig(config, value); });
    checked_hccl("HcclGetConfig", [&] { return HcclGetConfig(config, in.rare() ? nullptr : &value); });
}

/// Creation that cannot block: garbage root info, or rank counts that fail
/// the checks, or a group of one; device lists for HcclCommInitAll; a rank
/// table that does not exist.
void fuzz_creation(Decoder& in) {
    HcclRootInfo root;
    if (in.bit()) {
        HcclGetRootInfo(&root);
    } else {
        for (size_t i = 0; i < sizeof root.internal; i += 8) root.internal[i] = static_cast<char>(in.byte());
    }
    uint32_t ranks = in.byte() % 4;
    uint32_t rank = in.byte() % 4;
    if (ranks > 1 && rank < ranks) rank = ranks;  // A valid rank of several would wait for its peers.
    HcclComm comm = nullptr;
    if (checked_hccl("HcclCommInitRootInfo",
                     [&] { return HcclCommInitRootInfo(ranks, in.rare() ? nullptr : &root, rank, &comm); }) ==
        HCCL_SUCCESS) {
        HcclCommDestroy(comm);
    }
    const uint32_t ndev = in.byte() % 4;
    std::vector<int32_t> devices(ndev);
    for (int32_t& device : devices) device = static_cast<int32_t>(in.byte() % 4) - 1;
    std::vector<HcclComm> comms(ndev);
    if (checked_hccl("HcclCommInitAll", [&] { return HcclCommInitAll(ndev, devices.data(), comms.data()); }) ==
        HCCL_SUCCESS) {
        for (HcclComm made : comms) HcclCommDestroy(made);
    }
    checked_hccl("HcclCommInitClusterInfo",
                 [&] { return HcclCommInitClusterInfo("/nonexistent/rank_table.json", 0, &comm); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Decoder in(data, size);
    group();
    const int calls = 1 + in.byte() % kMaxCalls;
    for (int i = 0; i < calls; ++i) {
        switch (in.byte() % 8) {
            case 0: fuzz_queries(in); break;
            case 1: fuzz_settings(in); break;
            case 2: fuzz_creation(in); break;
            default: fuzz_collective(in); break;
        }
    }
    return 0;
}
