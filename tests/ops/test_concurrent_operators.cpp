// All five operators in flight at once: four streams, each running all five
// operators in its own order, submitted by two host threads and released
// together from behind one gate; three calls read another stream's output,
// ordered by events.  Every output must equal, bit for bit, the same call
// made alone on one stream beforehand: concurrency must change nothing.  The
// numbers themselves are each operator's own tests' business.
#include <array>
#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "aclnnop/aclnn_hardshrink_backward.h"
#include "aclnnop/aclnn_logit_grad.h"
#include "aclnnop/aclnn_prelu_backward.h"
#include "aclnnop/aclnn_scaled_masked_softmax_backward.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

// --- the operators ------------------------------------------------------------

enum class Op { softplus, hardshrink, softmax, prelu, logit };
/// Every operator, in the enumeration's order: index(op) is op's place here.
constexpr std::array<Op, 5> kOps{Op::softplus, Op::hardshrink, Op::softmax, Op::prelu, Op::logit};
constexpr size_t index(Op op) { return static_cast<size_t>(op); }

// 131072 elements per tensor: every operator splits them over many blocks.
const Shape kShape{16, 32, 256};  // PreluBackward's channels: dim 1
const Shape kWeightShape{32};
const Shape kSoftmaxShape{2, 8, 32, 256};
const Shape kMaskShape{1, 8, 32, 256};

size_t count(const Shape& shape) { return static_cast<size_t>(numel(shape)); }

/// The inputs and scalars every call of an operator reads unless a join
/// feeds it another stream's output; read-only, shared by all streams.
class Operands {
public:
    Operands() {
        add(Op::softplus, kShape, ACL_FLOAT, uniform(count(kShape), -2, 2, 1));                   // gradOutput
        add(Op::softplus, kShape, ACL_FLOAT, uniform(count(kShape), -3, 3, 2));                   // self
        add(Op::hardshrink, kShape, ACL_BF16, uniform(count(kShape), -2, 2, 3));                  // gradOutput
        add(Op::hardshrink, kShape, ACL_BF16, uniform(count(kShape), -1, 1, 4));                  // self
        add(Op::softmax, kSoftmaxShape, ACL_FLOAT16, uniform(count(kSoftmaxShape), -2, 2, 5));    // gradOutput
        add(Op::softmax, kSoftmaxShape, ACL_FLOAT16, uniform(count(kSoftmaxShape), 0, 0.01, 6));  // y
        add(Op::softmax, kMaskShape, ACL_BOOL, mask_values());                                    // mask
        add(Op::prelu, kShape, ACL_BF16, uniform(count(kShape), -2, 2, 8));                       // gradOutput
        add(Op::prelu, kShape, ACL_BF16, uniform(count(kShape), -3, 3, 9));                       // self
        add(Op::prelu, kWeightShape, ACL_BF16, uniform(count(kWeightShape), -1, 1, 10));          // weight
        add(Op::logit, kShape, ACL_FLOAT, uniform(count(kShape), 0.01, 0.99, 11));                // x
        add(Op::logit, kShape, ACL_FLOAT, uniform(count(kShape), -1, 1, 12));                     // dy
    }

    /// op's inputs in the API's order.
    std::vector<const DeviceTensor*> inputs(Op op) const {
        std::vector<const DeviceTensor*> raw;
        for (const auto& tensor : inputs_[index(op)]) raw.push_back(tensor.get());
        return raw;
    }

    const Scalar beta{2.0f};
    const Scalar threshold{3.0f};
    const Scalar lambd{0.5f};

private:
    void add(Op op, const Shape& shape, aclDataType dtype, const std::vector<double>& values) {
        inputs_[index(op)].push_back(std::make_unique<DeviceTensor>(TensorSpec{shape, dtype}, values));
    }
    static std::vector<double> mask_values() {
        std::vector<double> mask = uniform(count(kMaskShape), 0, 1, 7);
        for (double& m : mask) m = m < 0.3 ? 1.0 : 0.0;
        return mask;
    }

    std::array<std::vector<std::unique_ptr<DeviceTensor>>, kOps.size()> inputs_;
};

/// One call of an operator: the tensors it reads (borrowed), the outputs it
/// writes (its own, starting at DeviceTensor::output's fill) and the
/// workspace phase 1 asks for.
class Call {
public:
    Call(Op op, std::vector<const DeviceTensor*> inputs) : op_(op), inputs_(std::move(inputs)) {
        const auto add = [this](const Shape& shape, aclDataType dtype) {
            outputs_.push_back(DeviceTensor::output({shape, dtype}));
        };
        switch (op) {
            case Op::softplus: add(kShape, ACL_FLOAT); break;
            case Op::hardshrink: add(kShape, ACL_BF16); break;
            case Op::softmax: add(kSoftmaxShape, ACL_FLOAT16); break;
            case Op::prelu:
                add(kShape, ACL_BF16);
                add(kWeightShape, ACL_BF16);
                break;
            case Op::logit: add(kShape, ACL_FLOAT); break;
        }
    }

    /// Phase 1, the workspace, then phase 2 on stream; returns the first
    /// status that is not success.
    aclnnStatus enqueue(const Operands& operands, aclrtStream stream) {
        uint64_t workspaceSize = 0;
        aclOpExecutor* executor = nullptr;
        const aclnnStatus planned = plan(operands, &workspaceSize, &executor);
        if (planned != ACLNN_SUCCESS) return planned;
        if (workspaceSize > 0) workspace_ = std::make_unique<DeviceBuffer>(workspaceSize);
        return phase2()(workspace_ ? workspace_->get() : nullptr, workspaceSize, executor, stream);
    }

    Op op() const { return op_; }
    const DeviceTensor& output(size_t i) const { return *outputs_[i]; }
    /// Every output's storage, byte for byte.
    std::vector<std::vector<uint8_t>> results() const {
        std::vector<std::vector<uint8_t>> bytes;
        for (const auto& out : outputs_) bytes.push_back(out->bytes());
        return bytes;
    }

private:
    aclnnStatus plan(const Operands& operands, uint64_t* workspaceSize, aclOpExecutor** executor) const {
        const std::vector<const DeviceTensor*>& in = inputs_;
        switch (op_) {
            case Op::softplus:
                return aclnnSoftplusBackwardGetWorkspaceSize(in[0]->get(), in[1]->get(), operands.beta.get(),
                                                             operands.threshold.get(), outputs_[0]->get(),
                                                             workspaceSize, executor);
            case Op::hardshrink:
                return aclnnHardshrinkBackwardGetWorkspaceSize(in[0]->get(), in[1]->get(), operands.lambd.get(),
                                                               outputs_[0]->get(), workspaceSize, executor);
            case Op::softmax:
                return aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(
                    in[0]->get(), in[1]->get(), in[2]->get(), 0.5, false, outputs_[0]->get(), workspaceSize, executor);
            case Op::prelu:
                return aclnnPreluBackwardGetWorkspaceSize(in[0]->get(), in[1]->get(), in[2]->get(), outputs_[0]->get(),
                                                          outputs_[1]->get(), workspaceSize, executor);
            case Op::logit:
                return aclnnLogitGradGetWorkspaceSize(in[0]->get(), in[1]->get(), -1.0, outputs_[0]->get(),
                                                      workspaceSize, executor);
        }
        return ACLNN_ERR_PARAM_INVALID;
    }
    Phase2 phase2() const {
        switch (op_) {
            case Op::softplus: return aclnnSoftplusBackward;
            case Op::hardshrink: return aclnnHardshrinkBackward;
            case Op::softmax: return aclnnScaledMaskedSoftmaxBackward;
            case Op::prelu: return aclnnPreluBackward;
            case Op::logit: return aclnnLogitGrad;
        }
        return nullptr;
    }

    Op op_;
    std::vector<const DeviceTensor*> inputs_;
    std::vector<std::unique_ptr<DeviceTensor>> outputs_;
    std::unique_ptr<DeviceBuffer> workspace_;
};

// --- the plan -----------------------------------------------------------------

constexpr int kStreams = 4;
constexpr int kThreads = 2;
constexpr int kCallsPerStream = 5;

/// The order in which each stream runs the five operators.
constexpr Op kMixes[kStreams][kCallsPerStream] = {
    {Op::logit, Op::hardshrink, Op::softmax, Op::softplus, Op::prelu},
    {Op::logit, Op::softmax, Op::prelu, Op::hardshrink, Op::softplus},
    {Op::softmax, Op::softplus, Op::logit, Op::prelu, Op::hardshrink},
    {Op::logit, Op::hardshrink, Op::prelu, Op::softplus, Op::softmax},
};

/// The host thread that submits each stream; a thread submits its streams
/// one after the other.
constexpr int kSubmitter[kStreams] = {0, 0, 1, 1};

struct Slot {
    int stream;
    int position;
    bool operator==(const Slot& other) const { return stream == other.stream && position == other.position; }
};

/// The consumer reads the producer's first output as its input number
/// `input`; the producer's stream records an event after it, the consumer's
/// stream waits for that event before it.
struct Join {
    Slot producer;
    Slot consumer;
    size_t input;
};

// Two consumers come first on their streams and every producer late on its
// own, so that a consumer not held by its event would read the producer's
// output before it was written.  The submitting threads meet each other's
// events without a cycle: thread 0 waits for stream 2's event only after
// submitting stream 0, thread 1 for stream 0's only after stream 2.
constexpr Join kJoins[] = {
    {{0, 3}, {1, 0}, 1},  // SoftplusBackward's gradInput is LogitGrad's dy, same thread
    {{0, 3}, {3, 0}, 1},  // the same, on a stream of the other thread
    {{2, 3}, {1, 3}, 0},  // PreluBackward's gradInput is HardshrinkBackward's gradOutput
};
constexpr size_t kJoinCount = sizeof kJoins / sizeof kJoins[0];

/// The inputs of the call at slot: the shared operands, with a joined input
/// replaced by the first output of call_at(the producer's slot).
template <class CallAt>
std::vector<const DeviceTensor*> inputs_at(const Operands& operands, Slot slot, CallAt&& call_at) {
    std::vector<const DeviceTensor*> in = operands.inputs(kMixes[slot.stream][slot.position]);
    for (const Join& join : kJoins) {
        if (join.consumer == slot) in[join.input] = &call_at(join.producer).output(0);
    }
    return in;
}

/// The streams, events and calls of one concurrent run of the plan.
class ConcurrentRun {
public:
    explicit ConcurrentRun(const Operands& operands) : operands_(operands) {
        EXPECT_EQ(aclrtGetCurrentContext(&context_), ACL_SUCCESS);
        EXPECT_EQ(aclrtCreateStream(&starter_), ACL_SUCCESS);
        EXPECT_EQ(aclrtCreateEventWithFlag(&start_, ACL_EVENT_SYNC), ACL_SUCCESS);
        for (aclrtStream& stream : streams_) EXPECT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
        for (aclrtEvent& event : events_) EXPECT_EQ(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC), ACL_SUCCESS);
        for (size_t j = 0; j < kJoinCount; ++j) announced_[j] = recorded_[j].get_future();  // before the threads
        // Producers first: a joined call's input is its producer's output.
        for (int s : {0, 2, 1, 3}) {
            for (int p = 0; p < kCallsPerStream; ++p) {
                calls_[s][p] = std::make_unique<Call>(
                    kMixes[s][p], inputs_at(operands, {s, p}, [this](Slot at) -> const Call& { return call(at); }));
            }
        }
    }
    ~ConcurrentRun() {
        for (aclrtEvent event : events_) EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
        for (aclrtStream stream : streams_) EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
        EXPECT_EQ(aclrtDestroyEvent(start_), ACL_SUCCESS);
        EXPECT_EQ(aclrtDestroyStream(starter_), ACL_SUCCESS);
    }
    ConcurrentRun(const ConcurrentRun&) = delete;
    ConcurrentRun& operator=(const ConcurrentRun&) = delete;

    /// Submits every call from kThreads host threads behind one gate, then
    /// opens it: all twenty calls are queued before any of them runs.
    void run() {
        StreamGate gate(starter_);
        ASSERT_EQ(aclrtRecordEvent(start_, starter_), ACL_SUCCESS);
        for (aclrtStream stream : streams_) ASSERT_EQ(aclrtStreamWaitEvent(stream, start_), ACL_SUCCESS);
        std::vector<std::thread> submitters;
        for (int t = 0; t < kThreads; ++t) submitters.emplace_back([this, t] { submit_from(t); });
        for (std::thread& submitter : submitters) submitter.join();
        gate.open();
        for (aclrtStream stream : streams_) {
            EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, kBoundMs), ACL_SUCCESS);
        }
        EXPECT_FALSE(gate.expired()) << "the streams started before every call was submitted";
    }

    const Call& call(Slot slot) const { return *calls_[slot.stream][slot.position]; }

private:
    void submit_from(int thread) {
        ASSERT_EQ(aclrtSetCurrentContext(context_), ACL_SUCCESS);
        for (int s = 0; s < kStreams; ++s) {
            if (kSubmitter[s] != thread) continue;
            for (int p = 0; p < kCallsPerStream; ++p) submit({s, p});
        }
    }

    /// The call at slot with the event waits before it and records after it.
    /// A record is announced even when the call failed, so no thread waits
    /// for it in vain.
    void submit(Slot slot) {
        aclrtStream stream = streams_[slot.stream];
        for (size_t j = 0; j < kJoinCount; ++j) {
            if (!(kJoins[j].consumer == slot)) continue;
            ASSERT_EQ(announced_[j].wait_for(std::chrono::milliseconds(kBoundMs)), std::future_status::ready)
                << "join " << j << " was never recorded";
            EXPECT_EQ(aclrtStreamWaitEvent(stream, events_[j]), ACL_SUCCESS);
        }
        EXPECT_EQ(calls_[slot.stream][slot.position]->enqueue(operands_, stream), ACLNN_SUCCESS)
            << "stream " << slot.stream << " call " << slot.position;
        for (size_t j = 0; j < kJoinCount; ++j) {
            if (!(kJoins[j].producer == slot)) continue;
            EXPECT_EQ(aclrtRecordEvent(events_[j], stream), ACL_SUCCESS);
            recorded_[j].set_value();
        }
    }

    const Operands& operands_;
    aclrtContext context_ = nullptr;
    aclrtStream starter_ = nullptr;
    aclrtEvent start_ = nullptr;
    std::array<aclrtStream, kStreams> streams_{};
    std::array<aclrtEvent, kJoinCount> events_{};
    std::array<std::promise<void>, kJoinCount> recorded_;  ///< set once join j's event is recorded
    std::array<std::future<void>, kJoinCount> announced_;
    std::unique_ptr<Call> calls_[kStreams][kCallsPerStream];
};

class ConcurrentOperators : public AclTest {
protected:
    /// Runs call alone on the fixture's stream.
    void run_alone(Call& call, const Operands& operands) {
        ASSERT_EQ(call.enqueue(operands, stream_), ACLNN_SUCCESS);
        ASSERT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, kBoundMs), ACL_SUCCESS);
    }
};

TEST_F(ConcurrentOperators, FiveOperatorsOnFourStreamsFromTwoThreadsMatchRunningAlone) {
    const Operands operands;

    // References: every operator alone, then every join's consumer alone on
    // its producer's alone output.
    std::vector<std::unique_ptr<Call>> alone;
    for (Op op : kOps) {
        alone.push_back(std::make_unique<Call>(op, operands.inputs(op)));
        run_alone(*alone.back(), operands);
    }
    const auto alone_call = [&](Slot at) -> const Call& { return *alone[index(kMixes[at.stream][at.position])]; };
    std::vector<std::unique_ptr<Call>> aloneJoined;
    for (const Join& join : kJoins) {
        const Op consumer = kMixes[join.consumer.stream][join.consumer.position];
        aloneJoined.push_back(std::make_unique<Call>(consumer, inputs_at(operands, join.consumer, alone_call)));
        run_alone(*aloneJoined.back(), operands);
        // A consumer that ran before its producer would read the fill of an
        // unwritten output, and the comparison below would tell.
        const Call unwritten(kMixes[join.producer.stream][join.producer.position], {});
        Call early(consumer, inputs_at(operands, join.consumer, [&](Slot) -> const Call& { return unwritten; }));
        run_alone(early, operands);
        EXPECT_TRUE(early.results() != aloneJoined.back()->results()) << "the check could not see a stale read";
    }

    ConcurrentRun concurrent(operands);
    concurrent.run();

    for (int s = 0; s < kStreams; ++s) {
        for (int p = 0; p < kCallsPerStream; ++p) {
            const Slot slot{s, p};
            const Call* reference = &alone_call(slot);
            for (size_t j = 0; j < kJoinCount; ++j) {
                if (kJoins[j].consumer == slot) reference = aloneJoined[j].get();
            }
            EXPECT_TRUE(concurrent.call(slot).results() == reference->results())
                << "stream " << s << " call " << p << " differs from the same call made alone";
        }
    }
}

}  // namespace
