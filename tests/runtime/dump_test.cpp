// The dump API (acl_dump.h, aclmdlInitDump/aclmdlSetDump/aclmdlFinalizeDump):
// a dump configuration makes the operators it names leave their inputs and
// outputs as .npy files (acl-cpu's format, see observe/data_dump.hpp) with
// the bytes the operator read and wrote; callbacks receive the same bytes;
// operator info and exception data files land where CANN documents.
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

constexpr int64_t kCount = 64;
constexpr size_t kBytes = kCount * sizeof(float);

std::string fresh_directory(const char* name) {
    const std::string path = ::testing::TempDir() + name + "_" + std::to_string(::getpid());
    std::filesystem::remove_all(path);
    return path;
}

std::string read_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    EXPECT_TRUE(file.good()) << "no file " << path;
    return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

/// The data of a .npy file (after its 64-byte-aligned header) and the header.
std::string npy_data(const std::string& file, std::string* header = nullptr) {
    if (file.size() < 10 || file.compare(0, 6, "\x93NUMPY") != 0) return std::string();
    const size_t headerBytes = static_cast<unsigned char>(file[8]) | (static_cast<unsigned char>(file[9]) << 8);
    if (header != nullptr) *header = file.substr(10, headerBytes);
    EXPECT_EQ((10 + headerBytes) % 64, 0u);
    return file.substr(10 + headerBytes);
}

std::string bytes_of(const std::vector<float>& values) {
    return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
}

/// aclnnSoftplusBackward on [kCount] floats: the inputs given, the output read back.
class SoftplusRun {
public:
    SoftplusRun() : gradOutput_(kBytes), self_(kBytes), gradInput_(kBytes) {
        for (int64_t i = 0; i < kCount; ++i) {
            gradOutputValues[i] = 0.5f + static_cast<float>(i);
            selfValues[i] = static_cast<float>(i - 32) / 8.0f;
        }
        EXPECT_ACL_OK(aclrtMemcpy(gradOutput_.get(), kBytes, gradOutputValues.data(), kBytes,
                                  ACL_MEMCPY_HOST_TO_DEVICE));
        EXPECT_ACL_OK(aclrtMemcpy(self_.get(), kBytes, selfValues.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    }

    void run(aclrtStream stream) {
        const int64_t shape[] = {kCount};
        const int64_t strides[] = {1};
        auto tensor = [&](void* data) {
            return aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, data);
        };
        aclTensor* gradOutput = tensor(gradOutput_.get());
        aclTensor* self = tensor(self_.get());
        aclTensor* gradInput = tensor(gradInput_.get());
        float one = 1.0f;
        float twenty = 20.0f;
        aclScalar* beta = aclCreateScalar(&one, ACL_FLOAT);
        aclScalar* threshold = aclCreateScalar(&twenty, ACL_FLOAT);
        uint64_t workspaceSize = 0;
        aclOpExecutor* executor = nullptr;
        ASSERT_ACL_OK(aclnnSoftplusBackwardGetWorkspaceSize(gradOutput, self, beta, threshold, gradInput,
                                                            &workspaceSize, &executor));
        ASSERT_ACL_OK(aclnnSoftplusBackward(nullptr, 0, executor, stream));
        ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
        const std::vector<uint8_t> out = gradInput_.read();
        gradInputBytes.assign(reinterpret_cast<const char*>(out.data()), out.size());
        aclDestroyTensor(gradOutput);
        aclDestroyTensor(self);
        aclDestroyTensor(gradInput);
        aclDestroyScalar(beta);
        aclDestroyScalar(threshold);
    }

    std::vector<float> gradOutputValues = std::vector<float>(kCount);
    std::vector<float> selfValues = std::vector<float>(kCount);
    std::string gradInputBytes;

private:
    DeviceBuffer gradOutput_;
    DeviceBuffer self_;
    DeviceBuffer gradInput_;
};

class Dump : public RuntimeTest {
protected:
    void SetUp() override {
        RuntimeTest::SetUp();
        directory_ = fresh_directory("acldump");
    }
    void TearDown() override {
        std::filesystem::remove_all(directory_);
        RuntimeTest::TearDown();
    }

    /// A dump configuration file with the given "dump" object body.
    std::unique_ptr<TempFile> config(const std::string& dumpBody) {
        return std::make_unique<TempFile>("{\"dump\":{" + dumpBody + "}}");
    }

    std::string directory_;
};

// 18_dump_configuration.md aclmdlSetDump (dump_path, dump_list layer,
// dump_mode "all"): the named operator's inputs and outputs are written, with
// the bytes it read and wrote.
TEST_F(Dump, NamedOperatorLeavesItsInputsAndOutputs) {
    auto file = config("\"dump_path\":\"" + directory_ +
                       "\",\"dump_mode\":\"all\",\"dump_list\":[{\"layer\":[\"aclnnSoftplusBackward\"]}]");
    ASSERT_ACL_OK(aclmdlInitDump());
    ASSERT_ACL_OK(aclmdlSetDump(file->path()));
    EXPECT_STREQ(acldumpGetPath(DATA_DUMP), directory_.c_str());
    SoftplusRun softplus;
    Stream stream;
    softplus.run(stream.get());
    ASSERT_ACL_OK(aclmdlFinalizeDump());

    const std::string prefix = directory_ + "/0/aclnnSoftplusBackward.0.";
    std::string header;
    EXPECT_EQ(npy_data(read_file(prefix + "input.0.npy"), &header), bytes_of(softplus.gradOutputValues));
    EXPECT_NE(header.find("'descr': '<f4'"), std::string::npos) << header;
    EXPECT_NE(header.find("'shape': (64,)"), std::string::npos) << header;
    EXPECT_EQ(npy_data(read_file(prefix + "input.1.npy")), bytes_of(softplus.selfValues));
    EXPECT_EQ(npy_data(read_file(prefix + "output.0.npy")), softplus.gradInputBytes);
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(directory_ + "/0"),
                            std::filesystem::directory_iterator()),
              3);
}

// 18 aclmdlSetDump: dump_mode defaults to "output"; an operator not named is
// not dumped; after aclmdlFinalizeDump nothing more is.
TEST_F(Dump, OnlyWhatTheConfigurationAsksFor) {
    auto other = config("\"dump_path\":\"" + directory_ + "\",\"dump_list\":[{\"layer\":[\"aclnnAdd\"]}]");
    auto outputs = config("\"dump_path\":\"" + directory_ + "\",\"dump_list\":[{}],\"dump_op_switch\":\"on\"");
    Stream stream;
    SoftplusRun softplus;
    ASSERT_ACL_OK(aclmdlInitDump());
    ASSERT_ACL_OK(aclmdlSetDump(other->path()));
    softplus.run(stream.get());
    EXPECT_FALSE(std::filesystem::exists(directory_));
    ASSERT_ACL_OK(aclmdlSetDump(outputs->path()));
    softplus.run(stream.get());
    ASSERT_ACL_OK(aclmdlFinalizeDump());
    softplus.run(stream.get());
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(directory_ + "/0"),
                            std::filesystem::directory_iterator()),
              1);
    EXPECT_EQ(npy_data(read_file(directory_ + "/0/aclnnSoftplusBackward.0.output.0.npy")), softplus.gradInputBytes);
}

// 18 acldumpRegCallback: with a callback registered the dump data goes to
// it (fileName, bufLen, isLastChunk, offset) instead of to files.
std::map<std::string, std::string>* gChunks = nullptr;

int32_t collect_chunk(const acldumpChunk* chunk, int32_t len) {
    EXPECT_EQ(static_cast<size_t>(len), sizeof(acldumpChunk) + chunk->bufLen);
    std::string& file = (*gChunks)[chunk->fileName];
    EXPECT_EQ(static_cast<size_t>(chunk->offset), file.size());
    file.append(reinterpret_cast<const char*>(chunk->dataBuf), chunk->bufLen);
    EXPECT_EQ(chunk->isLastChunk, 1u);
    return 0;
}

TEST_F(Dump, CallbackReceivesTheDataInsteadOfFiles) {
    std::map<std::string, std::string> chunks;
    gChunks = &chunks;
    EXPECT_ACL_FAILS(acldumpRegCallback(collect_chunk, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(acldumpRegCallback(nullptr, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(acldumpRegCallback(collect_chunk, 0));
    auto file = config("\"dump_path\":\"" + directory_ + "\",\"dump_op_switch\":\"on\"");
    ASSERT_ACL_OK(aclmdlInitDump());
    ASSERT_ACL_OK(aclmdlSetDump(file->path()));
    Stream stream;
    SoftplusRun softplus;
    softplus.run(stream.get());
    ASSERT_ACL_OK(aclmdlFinalizeDump());
    acldumpUnregCallback();
    gChunks = nullptr;
    EXPECT_FALSE(std::filesystem::exists(directory_));
    ASSERT_EQ(chunks.size(), 1u);
    EXPECT_EQ(chunks.begin()->first, directory_ + "/0/aclnnSoftplusBackward.0.output.0.npy");
    EXPECT_EQ(npy_data(chunks.begin()->second), softplus.gradInputBytes);
}

// 18 aclmdlInitDump / aclmdlSetDump / aclmdlFinalizeDump: order and the
// configuration file are checked.
TEST_F(Dump, CallOrderAndConfigurationAreChecked) {
    auto valid = config("\"dump_path\":\"" + directory_ + "\",\"dump_op_switch\":\"on\"");
    EXPECT_ACL_FAILS(aclmdlSetDump(valid->path()), ACL_ERROR_DUMP_NOT_RUN);
    EXPECT_ACL_FAILS(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN);
    ASSERT_ACL_OK(aclmdlInitDump());
    EXPECT_ACL_FAILS(aclmdlInitDump(), ACL_ERROR_DUMP_ALREADY_RUN);
    EXPECT_ACL_FAILS(aclmdlSetDump(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclmdlSetDump("/nonexistent/acl.json"), ACL_ERROR_INVALID_FILE);
    TempFile notJson("{dump");
    EXPECT_ACL_FAILS(aclmdlSetDump(notJson.path()), ACL_ERROR_PARSE_FILE);
    auto badMode = config("\"dump_path\":\"/tmp\",\"dump_op_switch\":\"on\",\"dump_mode\":\"both\"");
    EXPECT_ACL_FAILS(aclmdlSetDump(badMode->path()), ACL_ERROR_INVALID_DUMP_CONFIG);
    auto noPath = config("\"dump_op_switch\":\"on\"");
    EXPECT_ACL_FAILS(aclmdlSetDump(noPath->path()), ACL_ERROR_INVALID_DUMP_CONFIG);
    // Overflow detection (dump_debug) needs the AI Core's overflow status.
    auto overflow = config("\"dump_path\":\"/tmp\",\"dump_debug\":\"on\"");
    EXPECT_ACL_FAILS(aclmdlSetDump(overflow->path()), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);
    ASSERT_ACL_OK(aclmdlFinalizeDump());
}

// 18 aclopStartDumpArgs / aclopStopDumpArgs: one operator info file per
// operator shape, holding its type and its tensors' dtypes and shapes.
TEST_F(Dump, OperatorInfoFilesPerShape) {
    EXPECT_ACL_FAILS(aclopStartDumpArgs(2, directory_.c_str()), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS), ACL_ERROR_DUMP_NOT_RUN);
    ASSERT_ACL_OK(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, directory_.c_str()));
    Stream stream;
    SoftplusRun softplus;
    softplus.run(stream.get());
    softplus.run(stream.get());  // The same shapes: no second file.
    ASSERT_ACL_OK(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS));
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(directory_), std::filesystem::directory_iterator()),
              1);
    const nlohmann::json info = nlohmann::json::parse(read_file(directory_ + "/aclnnSoftplusBackward.0.json"));
    EXPECT_EQ(info["op_type"], "aclnnSoftplusBackward");
    ASSERT_EQ(info["inputs"].size(), 2u);
    EXPECT_EQ(info["inputs"][0]["dtype"], "DT_FLOAT");
    EXPECT_EQ(info["inputs"][1]["shape"], nlohmann::json::array({kCount}));
    ASSERT_EQ(info["outputs"].size(), 1u);
}

// 18 acldumpGetExceptionInfoPath / acldumpSaveExceptionInfo: with an
// exception dump configured, <dumpPath>/extra-info/data-dump/<deviceId>/ and
// <that>/<fileName>.custom.<timestamp> holding the tensors.
TEST_F(Dump, ExceptionInfoGoesUnderTheExceptionPath) {
    char path[4096];
    EXPECT_ACL_FAILS(acldumpGetExceptionInfoPath(path, sizeof path), ACL_ERROR_DUMP_NOT_RUN);
    auto file = config("\"dump_path\":\"" + directory_ + "\",\"dump_scene\":\"aic_err_brief_dump\"");
    ASSERT_ACL_OK(aclmdlInitDump());
    ASSERT_ACL_OK(aclmdlSetDump(file->path()));
    EXPECT_STREQ(acldumpGetPath(AIC_ERR_BRIEF_DUMP), directory_.c_str());
    const std::string expected = directory_ + "/extra-info/data-dump/0/";
    EXPECT_ACL_FAILS(acldumpGetExceptionInfoPath(path, 4), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(acldumpGetExceptionInfoPath(path, sizeof path));
    EXPECT_EQ(std::string(path), expected);

    DeviceBuffer data(16);
    data.fill(0xAB);
    acldumpTensorInfo tensor{};
    tensor.type = ACL_DUMP_TENSOR_INPUT;
    tensor.tensorSize = 16;
    tensor.dataType = ACL_FLOAT;
    tensor.tensorAddr = static_cast<int64_t*>(data.get());
    tensor.addrType = ACL_DUMP_ADDR_RAW;
    tensor.placement = ACL_DUMP_PLACEMENT_DEVICE;
    tensor.shapeNum = 1;
    tensor.shape[0] = 4;
    EXPECT_ACL_FAILS(acldumpSaveExceptionInfo("../escape", "tag", &tensor, 1), ACL_ERROR_INVALID_PARAM);
    acldumpTensorInfo hostTensor = tensor;
    hostTensor.placement = ACL_DUMP_PLACEMENT_HOST;
    EXPECT_ACL_FAILS(acldumpSaveExceptionInfo("mine", "tag", &hostTensor, 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_ACL_OK(acldumpSaveExceptionInfo("mine", "my tag", &tensor, 1));
    ASSERT_ACL_OK(aclmdlFinalizeDump());

    std::vector<std::filesystem::path> saved;
    for (const auto& entry : std::filesystem::directory_iterator(expected)) saved.push_back(entry.path());
    ASSERT_EQ(saved.size(), 1u);
    EXPECT_EQ(saved[0].filename().string().rfind("mine.custom.", 0), 0u);
    const std::string contents = read_file(saved[0].string());
    EXPECT_NE(contents.find("user_tag: my tag\n"), std::string::npos);
    EXPECT_EQ(contents.substr(contents.size() - 16), std::string(16, '\xAB'));
}

// 02_initialization_and_deinitialization.md (aclInit): the configuration
// file may carry a "dump" object, which enables the dump as aclmdlSetDump
// would -- here an exception dump -- until the span's last aclFinalize.  A
// wrong dump object fails aclInit with the dump configuration's code.
TEST_F(Dump, AclInitConfigurationEnablesTheDumpUntilFinalize) {
    ASSERT_ACL_OK(aclrtResetDevice(0));
    ASSERT_ACL_OK(aclFinalize());
    auto wrong = config("\"dump_path\":\"" + directory_ + "\",\"dump_mode\":\"sideways\"");
    EXPECT_ACL_FAILS(aclInit(wrong->path()), ACL_ERROR_INVALID_DUMP_CONFIG);
    EXPECT_ACL_FAILS(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE) << "the failed aclInit left no span open";

    auto file = config("\"dump_path\":\"" + directory_ + "\",\"dump_scene\":\"aic_err_brief_dump\"");
    ASSERT_ACL_OK(aclInit(file->path()));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    EXPECT_STREQ(acldumpGetPath(AIC_ERR_BRIEF_DUMP), directory_.c_str());
    char path[4096];
    ASSERT_ACL_OK(acldumpGetExceptionInfoPath(path, sizeof path));
    EXPECT_EQ(std::string(path), directory_ + "/extra-info/data-dump/0/");
    EXPECT_ACL_FAILS(aclmdlInitDump(), ACL_ERROR_DUMP_ALREADY_RUN) << "aclInit initialised the dump";
    ASSERT_ACL_OK(aclrtResetDevice(0));
    ASSERT_ACL_OK(aclFinalize());
    EXPECT_EQ(acldumpGetPath(AIC_ERR_BRIEF_DUMP), nullptr);

    ASSERT_ACL_OK(aclInit(nullptr));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    EXPECT_ACL_FAILS(acldumpGetExceptionInfoPath(path, sizeof path), ACL_ERROR_DUMP_NOT_RUN);
}

}  // namespace
}  // namespace aclcpu::test
