// acl-cpu runtime: the conditional tasks of captured models
// (aclmdlRICondHandleCreate, aclmdlRIAddCondTask): a condition word in
// device memory, read when a replay reaches the task, chooses which of the
// task's sub-models (its branches) runs.
#pragma once

#include "core/internal.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "acl/acl_rt.h"
#include "core/lane.hpp"

namespace aclcpu::detail {

class Device;
class GraphModel;

/// An aclmdlRICondHandle.  Its word is device memory (8 bytes, 0 when made)
/// that the program or the model's own work writes; CANN's conditional task
/// reads it on the device when control reaches the task
/// (src/runtime/core/src/task/stars_cond_isa_helper.cc):
///   IF      word != 0 runs branch 0; word == 0 runs branch 1, if there is one;
///   WHILE   runs branch 0 as long as the word, read before each run, is not 0;
///   SWITCH  runs branch `word` when word < the number of branches, else none.
/// With ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT the word is set to the
/// default value whenever the root model is executed
/// (CaptureModel::InitAllSubCaptureModelCondTaskByDefValue, called by
/// aclmdlRIExecuteAsync before the run is queued).
///
/// Thread-safety: any thread.  The branches are set once, before any replay
/// can run the task; a replay reads the word with an atomic load.
class CondHandle : public std::enable_shared_from_this<CondHandle> {
public:
    /// A handle of parent with its word allocated on device;
    /// ACL_ERROR_RT_MEMORY_ALLOCATION (reported) when the device is full.
    static aclError create(Device& device, const std::shared_ptr<GraphModel>& parent, uint32_t defaultValue,
                           bool assignDefault, std::shared_ptr<CondHandle>& handle);
    ~CondHandle();
    CondHandle(const CondHandle&) = delete;
    CondHandle& operator=(const CondHandle&) = delete;

    uint64_t* word() const noexcept { return word_; }
    /// The model the handle was made for (nullptr once destroyed).
    std::shared_ptr<GraphModel> parent() const { return parent_.lock(); }
    /// Sets the word to the default value if the handle asks for it.
    void assign_default() const noexcept;

    /// Gives the handle its task (aclmdlRIAddCondTask): false if it has one.
    bool set_task(aclmdlRICondTaskType type, std::vector<std::shared_ptr<GraphModel>> branches);
    bool has_task() const;
    /// The task's branches (empty before set_task).
    std::vector<std::shared_ptr<GraphModel>> branches() const;

    /// The task reached in a replay: runs what the word chooses, then
    /// delivers done (or fails it with the failure of a branch's run).
    void run(LateDelivery done);

private:
    CondHandle(Device& device, const std::shared_ptr<GraphModel>& parent, uint64_t* word, uint32_t defaultValue,
               bool assignDefault);
    /// The branch the word chooses now (nullptr: none).
    GraphModel* choose() const noexcept;

    Device& device_;
    const std::weak_ptr<GraphModel> parent_;
    uint64_t* const word_;
    const uint32_t defaultValue_;
    const bool assignDefault_;
    mutable std::mutex mutex_;
    bool hasTask_ = false;  ///< Guarded by mutex_; the fields below are fixed once it is set.
    aclmdlRICondTaskType type_ = ACL_MODEL_RI_COND_TYPE_IF;
    std::vector<std::shared_ptr<GraphModel>> branches_;
};

}  // namespace aclcpu::detail
