// acl-cpu runtime: OpSubscriptions, CANN's operator subscription
// (aclprofModelSubscribe .. aclprofModelUnSubscribe) on the models of
// acl-cpu, the aclmdlRI model runtime instances.
#pragma once

#include "core/internal.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "acl/acl_base.h"
#include "aclcpu/instrumentation.hpp"
#include "core/handle_registry.hpp"

namespace aclcpu::observe {

/// What aclprofCreateSubscribeConfig describes.
struct SubscribeConfig {
    int8_t timeInfo = 1;         ///< 1: records carry start and end times; 0: they carry zeros.
    int64_t aicoreMetrics = 0;   ///< An aclprofAicoreMetrics (CANN collects none for subscriptions either).
    const int* writeFd = nullptr;  ///< The user's pipe write end, read when a model is subscribed.
};

/// The subscriptions of the process.  While a model is subscribed, each
/// replay of it writes one OpRecord per operator node it runs (an aclnn
/// kernel: copies, memsets, events, host functions and control tasks are no
/// operators, as in CANN's subscription, which reports a model's operators)
/// into the subscription's pipe, when the node ends.  A writer thread per
/// pipe does the writing, so a device worker never blocks on a full pipe.
///
/// Several models may share one pipe; the pipe's write end is closed, after
/// its last record, when the last model writing to it is unsubscribed --
/// which ends a reader blocked in read().  While any model is subscribed an
/// observer watches the replays; the last unsubscription waits for the open
/// devices' work and removes it (as aclprofStop removes its trace, and with
/// the same rule: no other host thread may be inside an API call meanwhile).
///
/// Thread-safety: every member may be called from any thread; subscribe and
/// unsubscribe are serialised, the replay hooks take a short lock.
class OpSubscriptions {
public:
    static OpSubscriptions& instance();

    /// aclprofCreateSubscribeConfig's handles.
    detail::HandleRegistry<SubscribeConfig>& configs() noexcept { return configs_; }

    /// MsprofSetDeviceIdByGeModelIdx: model id `model` runs on `device`, so
    /// it may be subscribed before any aclmdlRI has that id.  A model keeps
    /// its first registration, as in CANN.
    void register_model(uint32_t model, uint32_t device);
    /// aclprofModelSubscribe, with CANN's codes (reported): an unknown model
    /// ACL_ERROR_INVALID_MODEL_ID, no config ACL_ERROR_INVALID_PARAM, a
    /// running aclprofInit session ACL_ERROR_PROF_API_CONFLICT, a config
    /// asking for nothing ACL_ERROR_INVALID_PARAM, a model subscribed
    /// already ACL_ERROR_PROF_REPEAT_SUBSCRIBE, a config unlike that of
    /// another subscribed model of the device ACL_ERROR_INVALID_PROFILING_CONFIG.
    aclError subscribe(uint32_t model, const SubscribeConfig* config);
    /// aclprofModelUnSubscribe: ACL_ERROR_INVALID_MODEL_ID (reported) for a
    /// model not subscribed.  No record of the model is posted after it;
    /// when no other model writes to the pipe, it returns once the records
    /// posted before are written and the write end is closed.
    aclError unsubscribe(uint32_t model);
    /// True while a model is subscribed (aclprofInit then conflicts).
    bool any() const;

    /// The replay hooks (device workers).
    void node_began(const void* model, uint32_t node);
    void node_ended(const void* model, uint32_t node);

private:
    class RecordPipe;
    struct Subscription;

    OpSubscriptions();
    /// The device model `model` runs on (a live aclmdlRI's, else its
    /// registration's), or -1 for an unknown model.  controlMutex_ held.
    int32_t device_of(uint32_t model) const;
    /// Why model, on device, may not be subscribed with config (CANN's
    /// rules, in CANN's order; reported), or ACL_SUCCESS.  controlMutex_ held.
    aclError check_subscription(uint32_t model, const SubscribeConfig* config, int32_t device) const;
    /// Why `config` may not join the subscriptions of `device` (reported),
    /// or ACL_SUCCESS.  controlMutex_ held.
    aclError check_like_device_peers(int32_t device, const SubscribeConfig& config) const;
    /// The pipe writing to fd, made if none does yet.  controlMutex_ held.
    std::shared_ptr<RecordPipe> pipe_for(int fd);
    /// Stops, flushes and forgets pipe once no subscription writes to it.  controlMutex_ held.
    void release_if_unused(const std::shared_ptr<RecordPipe>& pipe);
    std::shared_ptr<Subscription> find(uint32_t model) const;

    detail::HandleRegistry<SubscribeConfig> configs_;
    std::shared_ptr<instrument::Observer> observer_;
    /// Serialises subscribe and unsubscribe; guards registered_ and pipes_.
    std::mutex controlMutex_;
    std::map<uint32_t, uint32_t> registered_;  ///< MsprofSetDeviceIdByGeModelIdx: model -> device.
    std::map<int, std::shared_ptr<RecordPipe>> pipes_;  ///< By write fd.
    /// Guards subscriptions_ (and what they hold); the replay hooks take it.
    mutable std::mutex mutex_;
    std::unordered_map<uint32_t, std::shared_ptr<Subscription>> subscriptions_;
};

}  // namespace aclcpu::observe
