// Models built on persistent streams (aclmdlRIBuildBegin .. aclmdlRIBuildEnd)
// and the control flow inside them.  Behaviour and codes are CANN's:
// docs/zh/api_ref/15_model_running_instance__management.md (build, bind,
// end task, execute), 10_label_management.md (labels, aclrtSwitchLabelByIndex),
// 06_stream_management.md (ACL_STREAM_PERSISTENT, aclrtActiveStream,
// aclrtSwitchStream, aclrtPersistentTaskClean) of hicann/runtime, and where
// the docs are silent its runtime source: src/runtime/api/impl/api_error.cc
// (ModelBindStream, ModelExecute), src/runtime/feature/model/model.cc
// (LoadComplete) and src/runtime/core/src/common/errcode_manage.cc (the
// codes behind RT_ERROR_STREAM_MODEL, RT_ERROR_MODEL_NOT_END, ...).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using ModelBuildTest = RuntimeTest;

/// A stream made with ACL_STREAM_PERSISTENT, destroyed at scope end.
class PersistentStream {
public:
    PersistentStream() { EXPECT_ACL_OK(aclrtCreateStreamWithConfig(&stream_, 0, ACL_STREAM_PERSISTENT)); }
    ~PersistentStream() { aclrtDestroyStream(stream_); }
    PersistentStream(const PersistentStream&) = delete;
    PersistentStream& operator=(const PersistentStream&) = delete;
    aclrtStream get() const { return stream_; }

private:
    aclrtStream stream_ = nullptr;
};

/// A model begun by aclmdlRIBuildBegin, destroyed at scope end.
class BuiltModel {
public:
    BuiltModel() { EXPECT_ACL_OK(aclmdlRIBuildBegin(&model_, 0)); }
    ~BuiltModel() { aclmdlRIDestroy(model_); }
    BuiltModel(const BuiltModel&) = delete;
    BuiltModel& operator=(const BuiltModel&) = delete;
    aclmdlRI get() const { return model_; }

private:
    aclmdlRI model_ = nullptr;
};

/// A label and the one-label list holding it, destroyed at scope end.
class Labels {
public:
    explicit Labels(size_t count) : labels_(count, nullptr) {
        for (aclrtLabel& label : labels_) EXPECT_ACL_OK(aclrtCreateLabel(&label));
        EXPECT_ACL_OK(aclrtCreateLabelList(labels_.data(), labels_.size(), &list_));
    }
    ~Labels() {
        aclrtDestroyLabelList(list_);
        for (aclrtLabel label : labels_) aclrtDestroyLabel(label);
    }
    Labels(const Labels&) = delete;
    Labels& operator=(const Labels&) = delete;
    aclrtLabel operator[](size_t i) const { return labels_[i]; }
    aclrtLabelList list() const { return list_; }

private:
    std::vector<aclrtLabel> labels_;
    aclrtLabelList list_ = nullptr;
};

// aclmdlRIBindStream's flags, with the values CANN's API reference gives them
// (15_model_running_instance__management.md): CANN's programs name them
// (example/2_advanced_features/model_ri/2_model_switch).
constexpr uint32_t kHead = ACL_MODEL_STREAM_FLAG_HEAD;
constexpr uint32_t kActivated = ACL_MODEL_STREAM_FLAG_DEFAULT;
static_assert(kHead == 0x00000000U && kActivated == 0x7FFFFFFFU, "CANN's values");

template <typename T>
void store(const DeviceBuffer& buffer, T value) {
    ASSERT_ACL_OK(aclrtMemcpy(buffer.get(), sizeof(T), &value, sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE));
}

/// Sets byte `offset` of buffer to value as a task of stream.
void set_byte(aclrtStream stream, const DeviceBuffer& buffer, size_t offset, uint8_t value) {
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.bytes() + offset, 1, value, 1, stream));
}

/// Executes model on a fresh stream and waits for it.
void execute(aclmdlRI model) {
    Stream stream;
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream.get()));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream.get()));
}

// 15: "all tasks submitted on the bound streams do not run at once; they run
// only when the model is executed" -- at each execution, reading the inputs
// device memory holds then.
TEST_F(ModelBuildTest, BoundStreamWorkRunsAtEachExecutionOnly) {
    DeviceBuffer src(64), dst(64);
    src.fill(1);
    dst.fill(0);
    PersistentStream bound;
    BuiltModel model;
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), bound.get(), kHead));
    ASSERT_ACL_OK(aclrtMemcpyAsync(dst.get(), 64, src.get(), 64, ACL_MEMCPY_DEVICE_TO_DEVICE, bound.get()));
    ASSERT_ACL_OK(aclmdlRIEndTask(model.get(), bound.get()));
    ASSERT_ACL_OK(aclmdlRIBuildEnd(model.get(), nullptr));
    ASSERT_ACL_OK(aclrtSynchronizeStream(bound.get()));
    EXPECT_EQ(std::vector<uint8_t>(64, 0), dst.read());
    execute(model.get());
    EXPECT_EQ(std::vector<uint8_t>(64, 1), dst.read());
    src.fill(2);
    execute(model.get());
    EXPECT_EQ(std::vector<uint8_t>(64, 2), dst.read());
}

// A copy between pageable host memory and the device on a bound stream is not
// part of the model: CANN's ApiErrorDecorator::MemcpyAsync
// (src/runtime/api/impl/api_error.cc) refuses it only on a stream being
// captured (IsCapturing), and otherwise makes it a stream synchronisation and
// a synchronous copy -- done at the call, as CANN's model_ri/2_model_switch
// example relies on.
TEST_F(ModelBuildTest, APageableCopyOnABoundStreamIsMadeAtTheCall) {
    DeviceBuffer dst(64);
    dst.fill(0);
    std::vector<uint8_t> host(64, 7);
    PersistentStream bound;
    BuiltModel model;
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), bound.get(), kHead));
    ASSERT_ACL_OK(aclrtMemcpyAsync(dst.get(), 64, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE, bound.get()));
    EXPECT_EQ(std::vector<uint8_t>(64, 7), dst.read()) << "copied at the call";
    std::vector<uint8_t> back(64, 0);
    ASSERT_ACL_OK(aclrtMemcpyAsync(back.data(), 64, dst.get(), 64, ACL_MEMCPY_DEVICE_TO_HOST, bound.get()));
    EXPECT_EQ(std::vector<uint8_t>(64, 7), back);
    ASSERT_ACL_OK(aclmdlRIEndTask(model.get(), bound.get()));
    ASSERT_ACL_OK(aclmdlRIBuildEnd(model.get(), nullptr));
    dst.fill(0);
    execute(model.get());
    EXPECT_EQ(std::vector<uint8_t>(64, 0), dst.read()) << "and not again at each execution";
}

// 10: aclrtSwitchLabelByIndex jumps to the label the device word picks,
// and "an index past the list jumps to the last label"; control then falls
// through the labelled stream's later tasks.
TEST_F(ModelBuildTest, SwitchByIndexJumpsToTheChosenLabelAtEachExecution) {
    DeviceBuffer index(sizeof(uint32_t)), out(2);
    PersistentStream bound;
    BuiltModel model;
    Labels labels(2);
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), bound.get(), kHead));
    ASSERT_ACL_OK(aclrtSwitchLabelByIndex(index.get(), 2, labels.list(), bound.get()));
    ASSERT_ACL_OK(aclrtSetLabel(labels[0], bound.get()));
    set_byte(bound.get(), out, 0, 0xA0);
    ASSERT_ACL_OK(aclrtSetLabel(labels[1], bound.get()));
    set_byte(bound.get(), out, 1, 0xB1);
    ASSERT_ACL_OK(aclmdlRIEndTask(model.get(), bound.get()));
    ASSERT_ACL_OK(aclmdlRIBuildEnd(model.get(), nullptr));

    const struct {
        uint32_t index;
        std::vector<uint8_t> expected;
    } cases[] = {{0, {0xA0, 0xB1}}, {1, {0x00, 0xB1}}, {7, {0x00, 0xB1}}};
    for (const auto& c : cases) {
        store(index, c.index);
        out.fill(0);
        execute(model.get());
        EXPECT_EQ(c.expected, out.read()) << "index " << c.index;
    }
}

// 10: "jump to the label, run the tasks of the stream the label is on; the
// current stream's tasks stop".
TEST_F(ModelBuildTest, SwitchByIndexLeavesItsStreamForTheLabelsStream) {
    DeviceBuffer index(sizeof(uint32_t)), out(3);
    PersistentStream head, first, second;
    BuiltModel model;
    Labels labels(2);
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), head.get(), kHead));
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), first.get(), kActivated));
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), second.get(), kActivated));
    ASSERT_ACL_OK(aclrtSwitchLabelByIndex(index.get(), 2, labels.list(), head.get()));
    set_byte(head.get(), out, 2, 0xEE);  // Never reached: the switch always leaves.
    ASSERT_ACL_OK(aclrtSetLabel(labels[0], first.get()));
    set_byte(first.get(), out, 0, 0x10);
    ASSERT_ACL_OK(aclmdlRIEndTask(model.get(), first.get()));
    ASSERT_ACL_OK(aclrtSetLabel(labels[1], second.get()));
    set_byte(second.get(), out, 1, 0x20);
    ASSERT_ACL_OK(aclmdlRIEndTask(model.get(), second.get()));
    ASSERT_ACL_OK(aclmdlRIBuildEnd(model.get(), nullptr));

    store(index, 1u);
    out.fill(0);
    execute(model.get());
    EXPECT_EQ((std::vector<uint8_t>{0x00, 0x20, 0x00}), out.read());
    store(index, 0u);
    out.fill(0);
    execute(model.get());
    EXPECT_EQ((std::vector<uint8_t>{0x10, 0x00, 0x00}), out.read());
}

// 15 aclmdlRIBindStream: a stream bound without ACL_MODEL_STREAM_FLAG_HEAD
// runs only once activated (06 aclrtActiveStream: "the activated stream's
// tasks run beside the current stream's").
TEST_F(ModelBuildTest, ANonHeadStreamRunsOnlyWhenActivated) {
    DeviceBuffer out(2);
    PersistentStream head, activated;
    BuiltModel model;
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), head.get(), kHead));
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), activated.get(), kActivated));
    ASSERT_ACL_OK(aclrtActiveStream(activated.get(), head.get()));
    set_byte(head.get(), out, 0, 1);
    ASSERT_ACL_OK(aclmdlRIEndTask(model.get(), head.get()));
    set_byte(activated.get(), out, 1, 2);
    ASSERT_ACL_OK(aclmdlRIBuildEnd(model.get(), nullptr));
    out.fill(0);
    execute(model.get());
    EXPECT_EQ((std::vector<uint8_t>{1, 2}), out.read());

    PersistentStream lonely, idle;
    BuiltModel unactivated;
    ASSERT_ACL_OK(aclmdlRIBindStream(unactivated.get(), lonely.get(), kHead));
    ASSERT_ACL_OK(aclmdlRIBindStream(unactivated.get(), idle.get(), kActivated));
    set_byte(lonely.get(), out, 0, 3);
    ASSERT_ACL_OK(aclmdlRIEndTask(unactivated.get(), lonely.get()));
    set_byte(idle.get(), out, 1, 4);
    ASSERT_ACL_OK(aclmdlRIBuildEnd(unactivated.get(), nullptr));
    out.fill(0);
    execute(unactivated.get());
    EXPECT_EQ((std::vector<uint8_t>{3, 0}), out.read());
}

// 06 aclrtSwitchStream: when the condition holds, "only the tasks of the
// stream switched to run; the current stream's stop"; otherwise it goes on.
TEST_F(ModelBuildTest, SwitchStreamLeavesForTrueStreamWhenTheConditionHolds) {
    DeviceBuffer left(sizeof(int64_t)), right(sizeof(int64_t)), out(2);
    PersistentStream head, taken;
    BuiltModel model;
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), head.get(), kHead));
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), taken.get(), kActivated));
    ASSERT_ACL_OK(aclrtSwitchStream(left.get(), ACL_RT_GREATER, right.get(), ACL_RT_SWITCH_INT64, taken.get(), nullptr,
                                    head.get()));
    set_byte(head.get(), out, 0, 1);
    ASSERT_ACL_OK(aclmdlRIEndTask(model.get(), head.get()));
    set_byte(taken.get(), out, 1, 1);
    ASSERT_ACL_OK(aclmdlRIEndTask(model.get(), taken.get()));
    ASSERT_ACL_OK(aclmdlRIBuildEnd(model.get(), nullptr));

    const struct {
        int64_t left, right;
        std::vector<uint8_t> expected;
    } cases[] = {{5, -3, {0, 1}}, {-3, 5, {1, 0}}, {4, 4, {1, 0}}};
    for (const auto& c : cases) {
        store(left, c.left);
        store(right, c.right);
        out.fill(0);
        execute(model.get());
        EXPECT_EQ(c.expected, out.read()) << c.left << " > " << c.right;
    }
}

// An event recorded on one bound stream and waited for on another orders
// them inside every execution; any event may be used (the capture-only
// rule of aclrtCreateEventExWithFlag does not apply to built models).
TEST_F(ModelBuildTest, EventsOrderTheBoundStreams) {
    constexpr size_t kBytes = 1 << 16;
    DeviceBuffer buffer(kBytes), copy(kBytes);
    PersistentStream producer, consumer;
    BuiltModel model;
    Event event;
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), producer.get(), kHead));
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), consumer.get(), kHead));
    ASSERT_ACL_OK(aclrtMemsetAsync(buffer.get(), kBytes, 0x5A, kBytes, producer.get()));
    ASSERT_ACL_OK(aclrtRecordEvent(event.get(), producer.get()));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(consumer.get(), event.get()));
    ASSERT_ACL_OK(aclrtMemcpyAsync(copy.get(), kBytes, buffer.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE,
                                   consumer.get()));
    ASSERT_ACL_OK(aclmdlRIEndTask(model.get(), consumer.get()));
    ASSERT_ACL_OK(aclmdlRIBuildEnd(model.get(), nullptr));
    for (int run = 0; run < 3; ++run) {
        buffer.fill(0);
        copy.fill(0);
        execute(model.get());
        EXPECT_EQ(std::vector<uint8_t>(kBytes, 0x5A), copy.read()) << "run " << run;
    }
}

// aclmdlRIExecute runs a built model and returns when it has finished;
// timeouts are -1 or > 0.
TEST_F(ModelBuildTest, ExecuteRunsABuiltModelSynchronously) {
    DeviceBuffer out(1);
    out.fill(0);
    PersistentStream bound;
    BuiltModel model;
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), bound.get(), kHead));
    set_byte(bound.get(), out, 0, 9);
    ASSERT_ACL_OK(aclmdlRIEndTask(model.get(), bound.get()));
    ASSERT_ACL_OK(aclmdlRIBuildEnd(model.get(), nullptr));
    EXPECT_ACL_FAILS(aclmdlRIExecute(model.get(), 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclmdlRIExecute(model.get(), 5000));
    EXPECT_EQ(std::vector<uint8_t>{9}, out.read());
}

// 06 ACL_STREAM_PERSISTENT: synchronising or querying a persistent stream
// "returns success at once"; its work never runs outside its model.
TEST_F(ModelBuildTest, PersistentStreamsAnswerAtOnceAndTakeWorkOnlyForABuild) {
    DeviceBuffer out(1);
    PersistentStream persistent;
    EXPECT_ACL_OK(aclrtSynchronizeStream(persistent.get()));
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    EXPECT_ACL_OK(aclrtStreamQuery(persistent.get(), &status));
    EXPECT_EQ(ACL_STREAM_STATUS_COMPLETE, status);
    // Not bound: the work would never run (CANN: "the relationship between
    // the model and stream is incorrect").
    EXPECT_ACL_FAILS(aclrtMemsetAsync(out.get(), 1, 0, 1, persistent.get()), ACL_ERROR_RT_STREAM_MODEL);

    BuiltModel model;
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), persistent.get(), kHead));
    ASSERT_ACL_OK(aclmdlRIEndTask(model.get(), persistent.get()));
    ASSERT_ACL_OK(aclmdlRIBuildEnd(model.get(), nullptr));
    // 15 aclmdlRIBuildEnd: no task may be submitted to the bound streams after it.
    EXPECT_ACL_FAILS(aclrtMemsetAsync(out.get(), 1, 0, 1, persistent.get()), ACL_ERROR_RT_STREAM_MODEL);
    EXPECT_ACL_FAILS(aclrtPersistentTaskClean(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_OK(aclrtPersistentTaskClean(persistent.get()));
    Stream ordinary;
    EXPECT_ACL_FAILS(aclrtPersistentTaskClean(ordinary.get()), ACL_ERROR_INVALID_PARAM);
}

// CANN's Context::StreamAbort refuses a stream bound to a model, and
// ApiImplDavid::StreamAbort a persistent one, with RT_ERROR_STREAM_INVALID
// (507000 through errcode_manage.cc); nothing is discarded.
TEST_F(ModelBuildTest, AbortRefusesAPersistentStream) {
    PersistentStream persistent;
    EXPECT_ACL_FAILS(aclrtStreamAbort(persistent.get()), ACL_ERROR_RT_INTERNAL_ERROR);
    BuiltModel model;
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), persistent.get(), kHead));
    EXPECT_ACL_FAILS(aclrtStreamAbort(persistent.get()), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_ACL_OK(aclmdlRIUnbindStream(model.get(), persistent.get()));
}

// api_error.cc ModelBindStream: streams that are not persistent, streams
// being captured, fast-launch streams and streams bound already are
// refused; so are captured models (ModelBindStream, ModelLoadComplete).
TEST_F(ModelBuildTest, BindRefusesWhatCannRefuses) {
    BuiltModel model;
    Stream ordinary;
    EXPECT_ACL_FAILS(aclmdlRIBindStream(model.get(), ordinary.get(), kHead), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclmdlRIBindStream(model.get(), nullptr, kHead), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclmdlRIBindStream(nullptr, ordinary.get(), kHead), ACL_ERROR_INVALID_PARAM);
    aclrtStream fast = nullptr;
    ASSERT_ACL_OK(aclrtCreateStreamWithConfig(&fast, 0, ACL_STREAM_PERSISTENT | ACL_STREAM_FAST_LAUNCH));
    EXPECT_ACL_FAILS(aclmdlRIBindStream(model.get(), fast, kHead), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_ACL_OK(aclrtDestroyStream(fast));

    PersistentStream bound;
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), bound.get(), kHead));
    EXPECT_ACL_FAILS(aclmdlRIBindStream(model.get(), bound.get(), kHead), ACL_ERROR_RT_STREAM_MODEL);
    BuiltModel other;
    EXPECT_ACL_FAILS(aclmdlRIBindStream(other.get(), bound.get(), kHead), ACL_ERROR_RT_STREAM_MODEL);
    // A persistent stream is no capture origin, and an ordinary stream no execution stream of its own model.
    EXPECT_ACL_FAILS(aclmdlRICaptureBegin(bound.get(), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_MODEL);
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
    ASSERT_ACL_OK(aclmdlRICaptureGetInfo(bound.get(), &status, nullptr));
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_NONE, status);

    Stream captured;
    ASSERT_ACL_OK(aclmdlRICaptureBegin(captured.get(), ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    aclmdlRI capture = nullptr;
    ASSERT_ACL_OK(aclmdlRICaptureGetInfo(captured.get(), nullptr, &capture));
    PersistentStream spare;
    EXPECT_ACL_FAILS(aclmdlRIBindStream(capture, spare.get(), kHead), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclmdlRIBuildEnd(capture, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_ACL_OK(aclmdlRICaptureEnd(captured.get(), &capture));
    EXPECT_ACL_OK(aclmdlRIDestroy(capture));
}

// model.cc LoadComplete: a model without streams is empty
// (RT_ERROR_MODEL_STREAM, 107005) and one without an end task may not run
// (RT_ERROR_MODEL_NOT_END, 507011); executing before the end is refused
// alike.  A failed end leaves the build open.
TEST_F(ModelBuildTest, BuildEndNeedsAStreamAndAnEndTask) {
    BuiltModel model;
    EXPECT_ACL_FAILS(aclmdlRIBuildEnd(model.get(), nullptr), ACL_ERROR_RT_STREAM_MODEL);
    PersistentStream bound;
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), bound.get(), kHead));
    EXPECT_ACL_FAILS(aclmdlRIBuildEnd(model.get(), nullptr), ACL_ERROR_RT_MODEL_EXECUTE);
    Stream executor;
    EXPECT_ACL_FAILS(aclmdlRIExecuteAsync(model.get(), executor.get()), ACL_ERROR_RT_MODEL_EXECUTE);
    ASSERT_ACL_OK(aclmdlRIEndTask(model.get(), bound.get()));
    EXPECT_ACL_OK(aclmdlRIBuildEnd(model.get(), nullptr));
    EXPECT_ACL_FAILS(aclmdlRIBuildEnd(model.get(), nullptr), ACL_ERROR_RT_STREAM_MODEL);
    // api_error.cc ModelExecute: "the current stream cannot be the same as the model stream".
    EXPECT_ACL_FAILS(aclmdlRIExecuteAsync(model.get(), bound.get()), ACL_ERROR_RT_PARAM_INVALID);
    aclrtStream streams[2] = {nullptr, nullptr};
    uint32_t count = 2;
    ASSERT_ACL_OK(aclmdlRIGetStreams(model.get(), streams, &count));
    EXPECT_EQ(1u, count);
    EXPECT_EQ(bound.get(), streams[0]);
    EXPECT_ACL_OK(aclmdlRIUnbindStream(model.get(), bound.get()));
    EXPECT_ACL_FAILS(aclmdlRIUnbindStream(model.get(), bound.get()), ACL_ERROR_RT_STREAM_MODEL);
}

// Control tasks act on model-bound streams only (10 aclrtSetLabel, 06
// aclrtActiveStream: "only streams bound by aclmdlRIBindStream"); a label is
// placed once; a jump to a label nobody placed, or one that runs before its
// jump (a loop), cannot be built.
TEST_F(ModelBuildTest, ControlTasksAndTheirLabelsAreChecked) {
    Labels labels(1);
    DeviceBuffer index(sizeof(uint32_t));
    store(index, 0u);
    Stream ordinary;
    EXPECT_ACL_FAILS(aclrtSetLabel(labels[0], ordinary.get()), ACL_ERROR_RT_STREAM_MODEL);
    EXPECT_ACL_FAILS(aclrtSwitchLabelByIndex(index.get(), 1, labels.list(), ordinary.get()), ACL_ERROR_RT_STREAM_MODEL);
    EXPECT_ACL_FAILS(aclrtActiveStream(ordinary.get(), ordinary.get()), ACL_ERROR_RT_STREAM_MODEL);
    EXPECT_ACL_FAILS(aclrtSwitchStream(index.get(), ACL_RT_EQUAL, index.get(), ACL_RT_SWITCH_INT32, ordinary.get(),
                                       nullptr, ordinary.get()),
                     ACL_ERROR_RT_STREAM_MODEL);

    PersistentStream bound;
    BuiltModel unplaced;
    ASSERT_ACL_OK(aclmdlRIBindStream(unplaced.get(), bound.get(), kHead));
    EXPECT_ACL_FAILS(aclrtSwitchLabelByIndex(index.get(), 2, labels.list(), bound.get()), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtSwitchLabelByIndex(nullptr, 1, labels.list(), bound.get()), ACL_ERROR_INVALID_PARAM);
    int host = 0;
    EXPECT_ACL_FAILS(aclrtSwitchLabelByIndex(&host, 1, labels.list(), bound.get()), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtSwitchStream(index.get(), static_cast<aclrtCondition>(9), index.get(), ACL_RT_SWITCH_INT32,
                                       bound.get(), nullptr, bound.get()),
                     ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(aclrtSwitchLabelByIndex(index.get(), 1, labels.list(), bound.get()));
    ASSERT_ACL_OK(aclmdlRIEndTask(unplaced.get(), bound.get()));
    EXPECT_ACL_FAILS(aclmdlRIBuildEnd(unplaced.get(), nullptr), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_ACL_OK(aclmdlRIUnbindStream(unplaced.get(), bound.get()));

    BuiltModel looping;
    ASSERT_ACL_OK(aclmdlRIBindStream(looping.get(), bound.get(), kHead));
    ASSERT_ACL_OK(aclrtSetLabel(labels[0], bound.get()));
    EXPECT_ACL_FAILS(aclrtSetLabel(labels[0], bound.get()), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_ACL_OK(aclrtSwitchLabelByIndex(index.get(), 1, labels.list(), bound.get()));
    ASSERT_ACL_OK(aclmdlRIEndTask(looping.get(), bound.get()));
    EXPECT_ACL_FAILS(aclmdlRIBuildEnd(looping.get(), nullptr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

// Destroying a model whose build is open lets its streams go: they take no
// work until bound again.
TEST_F(ModelBuildTest, DestroyingAnOpenBuildReleasesItsStreams) {
    DeviceBuffer out(1);
    PersistentStream bound;
    aclmdlRI model = nullptr;
    ASSERT_ACL_OK(aclmdlRIBuildBegin(&model, 0));
    ASSERT_ACL_OK(aclmdlRIBindStream(model, bound.get(), kHead));
    set_byte(bound.get(), out, 0, 1);
    ASSERT_ACL_OK(aclmdlRIDestroy(model));
    EXPECT_ACL_FAILS(aclrtMemsetAsync(out.get(), 1, 0, 1, bound.get()), ACL_ERROR_RT_STREAM_MODEL);
    BuiltModel next;
    EXPECT_ACL_OK(aclmdlRIBindStream(next.get(), bound.get(), kHead));
    EXPECT_ACL_FAILS(aclmdlRIBuildBegin(nullptr, 0), ACL_ERROR_INVALID_PARAM);
    aclmdlRI refused = nullptr;
    EXPECT_ACL_FAILS(aclmdlRIBuildBegin(&refused, 1), ACL_ERROR_INVALID_PARAM);
}

// An event recorded in a capture and waited for on a bound stream joins two
// models, as an event between two captures does: CANN's
// ACL_ERROR_STREAM_CAPTURE_CONFLICT, and neither may complete
// (04-02_cross_stream_capture.md; 25-01: ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED).
// A failed end leaves the build open for the program to end after a fix.
TEST_F(ModelBuildTest, AnEventBetweenACaptureAndABuildInvalidatesBoth) {
    Stream captured;
    PersistentStream bound;
    BuiltModel model;
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), bound.get(), kHead));
    aclrtEvent event = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&event, ACL_EVENT_SYNC));
    ASSERT_ACL_OK(aclmdlRICaptureBegin(captured.get(), ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_ACL_OK(aclrtRecordEvent(event, captured.get()));
    EXPECT_ACL_FAILS(aclrtStreamWaitEvent(bound.get(), event), ACL_ERROR_STREAM_CAPTURE_CONFLICT);
    aclmdlRI capture = nullptr;
    EXPECT_ACL_FAILS(aclmdlRICaptureEnd(captured.get(), &capture), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    ASSERT_ACL_OK(aclmdlRIEndTask(model.get(), bound.get()));
    EXPECT_ACL_FAILS(aclmdlRIBuildEnd(model.get(), nullptr), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    Stream executor;
    EXPECT_ACL_FAILS(aclmdlRIExecuteAsync(model.get(), executor.get()), ACL_ERROR_RT_MODEL_EXECUTE);
    ASSERT_ACL_OK(aclrtDestroyEvent(event));
}

// A jump to a label nobody set fails the end; once a stream sets it, the
// build ends and the jump leads there.
TEST_F(ModelBuildTest, AFailedBuildEndLeavesTheBuildOpen) {
    DeviceBuffer index(sizeof(uint32_t)), out(1);
    store(index, 1u);
    PersistentStream head, branch;
    BuiltModel model;
    Labels labels(2);
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), head.get(), kHead));
    ASSERT_ACL_OK(aclmdlRIBindStream(model.get(), branch.get(), kActivated));
    ASSERT_ACL_OK(aclrtSwitchLabelByIndex(index.get(), 2, labels.list(), head.get()));
    ASSERT_ACL_OK(aclrtSetLabel(labels[0], head.get()));
    ASSERT_ACL_OK(aclmdlRIEndTask(model.get(), head.get()));
    EXPECT_ACL_FAILS(aclmdlRIBuildEnd(model.get(), nullptr), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_ACL_OK(aclrtSetLabel(labels[1], branch.get()));
    set_byte(branch.get(), out, 0, 7);
    ASSERT_ACL_OK(aclmdlRIBuildEnd(model.get(), nullptr));
    out.fill(0);
    execute(model.get());
    EXPECT_EQ(std::vector<uint8_t>{7}, out.read());
}

}  // namespace
}  // namespace aclcpu::test
