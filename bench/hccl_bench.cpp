// HCCL all-reduce on emulated devices in one process: the time per
// collective of all ranks, and the bytes a ring all-reduce would move for it,
// to read against Stream/Triad's bandwidth measured in the same run.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "hccl/hccl.h"

namespace {

using namespace aclcpu::bench;

/// aclInit with `ranks` devices, one communicator, stream and pair of
/// buffers per rank (HcclCommInitAll), all driven from the benchmark thread:
/// enqueueing never blocks, so one thread can submit every rank's call.
class CollectiveSession {
public:
    CollectiveSession(uint32_t ranks, uint64_t bytes)
        : devices_("ACLCPU_DEVICE_COUNT", std::to_string(ranks)),
          ranks_(ranks),
          comms_(ranks),
          streams_(ranks),
          send_(ranks),
          recv_(ranks) {
        aclInit(nullptr);
        std::vector<int32_t> devices(ranks);
        for (uint32_t r = 0; r < ranks; ++r) devices[r] = static_cast<int32_t>(r);
        HcclCommInitAll(ranks, devices.data(), comms_.data());
        for (uint32_t r = 0; r < ranks; ++r) {
            aclrtSetDevice(devices[r]);
            aclrtCreateStream(&streams_[r]);
            aclrtMalloc(&send_[r], bytes, ACL_MEM_MALLOC_HUGE_FIRST);
            aclrtMalloc(&recv_[r], bytes, ACL_MEM_MALLOC_HUGE_FIRST);
            aclrtMemset(send_[r], bytes, 1, bytes);
            // Touched once before timing, as a training step's buffers are:
            // the first write of fresh pages would time the kernel's faults.
            aclrtMemset(recv_[r], bytes, 0, bytes);
        }
    }
    ~CollectiveSession() {
        for (uint32_t r = 0; r < ranks_; ++r) {
            aclrtSynchronizeStream(streams_[r]);
            HcclCommDestroy(comms_[r]);
            aclrtFree(send_[r]);
            aclrtFree(recv_[r]);
            aclrtDestroyStream(streams_[r]);
        }
        aclFinalize();
    }

    /// One all-reduce of every rank; true when all succeeded.
    bool all_reduce(uint64_t count) {
        bool ok = true;
        for (uint32_t r = 0; r < ranks_; ++r) {
            ok &= HcclAllReduce(send_[r], recv_[r], count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms_[r],
                                streams_[r]) == HCCL_SUCCESS;
        }
        for (uint32_t r = 0; r < ranks_; ++r) ok &= aclrtSynchronizeStream(streams_[r]) == ACL_SUCCESS;
        return ok;
    }

private:
    ScopedEnv devices_;  ///< Read by aclInit: first member, set before it.
    uint32_t ranks_;
    std::vector<HcclComm> comms_;
    std::vector<aclrtStream> streams_;
    std::vector<void*> send_, recv_;
};

/// Hccl/AllReduce/<ranks>ranks/<bytes>: fp32 sum of `bytes` per rank.
void all_reduce(benchmark::State& state, uint32_t ranks, uint64_t bytes) {
    CollectiveSession session(ranks, bytes);
    const uint64_t count = bytes / sizeof(float);
    time_each_iteration(state, [&] { return session.all_reduce(count); });
    // A ring all-reduce sends 2 (n - 1) / n of the buffer from every rank.
    const auto ringBytes = static_cast<int64_t>(2 * (ranks - 1) * bytes);
    report_traffic(state, static_cast<int64_t>(count), ringBytes);
    state.counters["ranks"] = ranks;
}

const bool kRegistered = [] {
    for (uint64_t bytes : {uint64_t{4} << 10, uint64_t{1} << 20, uint64_t{64} << 20}) {
        const std::string name = "Hccl/AllReduce/8ranks/" + std::to_string(bytes);
        benchmark::RegisterBenchmark(name.c_str(), all_reduce, 8u, bytes)
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
    }
    return true;
}();

}  // namespace
