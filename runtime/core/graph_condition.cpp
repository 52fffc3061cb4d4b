// acl-cpu runtime: conditional tasks of captured models.
#include "core/graph_condition.hpp"

#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/graph_model.hpp"
#include "core/memory_pool.hpp"

namespace aclcpu::detail {

namespace {

/// A WHILE task's step: when a run of the body ends, the word is read again
/// (the body's last task may have changed it); a failed run ends the loop.
class LoopStep final : public NodeGate {
public:
    LoopStep(std::shared_ptr<CondHandle> handle, LateDelivery done)
        : handle_(std::move(handle)), done_(std::move(done)) {}
    void open() override {
        if (failed_) {
            done_.deliver();
        } else {
            handle_->run(done_);
        }
    }
    void fail(aclError code, const char* task, const std::string& detail) override {
        failed_ = true;
        done_.fail(code, task, detail);
    }

private:
    std::shared_ptr<CondHandle> handle_;
    LateDelivery done_;
    bool failed_ = false;  ///< fail() comes before open(), from the same run.
};

}  // namespace

aclError CondHandle::create(Device& device, const std::shared_ptr<GraphModel>& parent, uint32_t defaultValue,
                            bool assignDefault, std::shared_ptr<CondHandle>& handle) {
    void* word = nullptr;
    if (device.pool().allocate(DevicePool::rounded_size(sizeof(uint64_t), false), &word) != ACL_SUCCESS) {
        return runtime_error(ACL_ERROR_RT_MEMORY_ALLOCATION,
                             "aclmdlRICondHandleCreate: device %d has no room for the condition word", device.id());
    }
    // CANN clears the word when it makes the handle (CondHandle::Setup).
    __atomic_store_n(static_cast<uint64_t*>(word), uint64_t{0}, __ATOMIC_RELEASE);
    handle.reset(new CondHandle(device, parent, static_cast<uint64_t*>(word), defaultValue, assignDefault));
    return ACL_SUCCESS;
}

CondHandle::CondHandle(Device& device, const std::shared_ptr<GraphModel>& parent, uint64_t* word,
                       uint32_t defaultValue, bool assignDefault)
    : device_(device), parent_(parent), word_(word), defaultValue_(defaultValue), assignDefault_(assignDefault) {}

CondHandle::~CondHandle() { device_.pool().release(word_); }

void CondHandle::assign_default() const noexcept {
    if (assignDefault_) __atomic_store_n(word_, uint64_t{defaultValue_}, __ATOMIC_RELEASE);
}

bool CondHandle::set_task(aclmdlRICondTaskType type, std::vector<std::shared_ptr<GraphModel>> branches) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (hasTask_) return false;
    hasTask_ = true;
    type_ = type;
    branches_ = std::move(branches);
    return true;
}

bool CondHandle::has_task() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return hasTask_;
}

std::vector<std::shared_ptr<GraphModel>> CondHandle::branches() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return branches_;
}

GraphModel* CondHandle::choose() const noexcept {
    const uint64_t word = __atomic_load_n(word_, __ATOMIC_ACQUIRE);
    switch (type_) {
        case ACL_MODEL_RI_COND_TYPE_SWITCH:
            return word < branches_.size() ? branches_[word].get() : nullptr;
        case ACL_MODEL_RI_COND_TYPE_IF:
            if (word == 0) return branches_.size() > 1 ? branches_[1].get() : nullptr;
            return branches_[0].get();
        default:  // WHILE
            return word != 0 ? branches_[0].get() : nullptr;
    }
}

void CondHandle::run(LateDelivery done) {
    GraphModel* branch = choose();
    if (branch == nullptr) {
        done.deliver();
    } else if (type_ != ACL_MODEL_RI_COND_TYPE_WHILE) {
        branch->run_branch(std::move(done));
    } else if (!branch->is_runnable()) {
        // On the device the loop would spin for ever on a word nothing changes.
        done.fail(ACL_ERROR_RT_MODEL_EXECUTE, "aclmdlRIAddCondTask",
                  "the condition of a WHILE task is not 0 and its body was never captured "
                  "(aclmdlRICaptureToModelRIBegin .. aclmdlRICaptureEnd): the loop would never end");
        done.deliver();
    } else {
        branch->run_branch(LateDelivery{nullptr, 0, std::make_shared<LoopStep>(shared_from_this(), done)});
    }
}

}  // namespace aclcpu::detail
