// IPC memory sharing by key between the emulated devices of one process
// (CANN docs/zh/api_ref/11-07_IPC_memory_sharing.md).
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/runtime_test_support.hpp"

namespace aclcpu::test {
namespace {

using IpcMemoryTest = RuntimeTest;

constexpr size_t kKeyLength = 65;  // 11-07 aclrtIpcMemGetExportKey: "len ... fixed to 65"

// 11-07: export a key, whitelist the importing process, import by key, close
// on both sides; the imported address reaches the exported bytes.
TEST_F(IpcMemoryTest, ImportedAddressReachesTheExportedMemory) {
    DeviceBuffer buffer(4096);
    buffer.fill(0x4D);
    char key[kKeyLength] = {};
    ASSERT_ACL_OK(aclrtIpcMemGetExportKey(buffer.get(), 4096, key, sizeof key, ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT));
    EXPECT_GT(std::strlen(key), 0u);
    void* imported = nullptr;
    // Pid validation is on and this process is not on the whitelist yet.
    EXPECT_ACL_FAILS(aclrtIpcMemImportByKey(&imported, key, ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT),
                     ACL_ERROR_RT_NO_PERMISSION);
    int32_t self = static_cast<int32_t>(getpid());
    ASSERT_ACL_OK(aclrtIpcMemSetImportPid(key, &self, 1));
    ASSERT_ACL_OK(aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS));
    ASSERT_ACL_OK(aclrtIpcMemImportByKey(&imported, key, ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS));
    ASSERT_NE(nullptr, imported);
    std::vector<uint8_t> read(4096);
    ASSERT_ACL_OK(aclrtMemcpy(read.data(), 4096, imported, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_EQ(std::vector<uint8_t>(4096, 0x4D), read);
    // The importer closes first, then the exporter; then the key is gone.
    ASSERT_ACL_OK(aclrtIpcMemClose(key));
    ASSERT_ACL_OK(aclrtIpcMemClose(key));
    EXPECT_ACL_FAILS(aclrtIpcMemClose(key), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtIpcMemImportByKey(&imported, key, 0), ACL_ERROR_RT_PARAM_INVALID);
}

// ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION: no whitelist needed;
// aclrtIpcMemImportPidInterServer whitelists per server.
TEST_F(IpcMemoryTest, WhitelistsCanBeSkippedOrGivenPerServer) {
    DeviceBuffer buffer(256);
    char open[kKeyLength] = {};
    ASSERT_ACL_OK(aclrtIpcMemGetExportKey(buffer.get(), 256, open, sizeof open,
                                          ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
    void* imported = nullptr;
    ASSERT_ACL_OK(aclrtIpcMemImportByKey(&imported, open, 0));
    EXPECT_EQ(buffer.get(), imported);
    char listed[kKeyLength] = {};
    ASSERT_ACL_OK(aclrtIpcMemGetExportKey(buffer.get(), 256, listed, sizeof listed, 0));
    EXPECT_STRNE(open, listed);  // one key per export
    int32_t self = static_cast<int32_t>(getpid());
    aclrtServerPid server{0, &self, 1};
    ASSERT_ACL_OK(aclrtIpcMemImportPidInterServer(listed, &server, 1));
    ASSERT_ACL_OK(aclrtIpcMemImportByKey(&imported, listed, 0));
    for (const char* key : {open, listed}) {
        EXPECT_ACL_OK(aclrtIpcMemClose(key));
        EXPECT_ACL_OK(aclrtIpcMemClose(key));
    }
}

TEST_F(IpcMemoryTest, BadInputIsRejected) {
    DeviceBuffer buffer(256);
    std::vector<uint8_t> host(256);
    char key[kKeyLength] = {};
    EXPECT_ACL_FAILS(aclrtIpcMemGetExportKey(host.data(), 256, key, sizeof key, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtIpcMemGetExportKey(buffer.get(), 0, key, sizeof key, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtIpcMemGetExportKey(buffer.get(), 4096, key, sizeof key, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtIpcMemGetExportKey(buffer.get(), 256, key, 8, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_FAILS(aclrtIpcMemGetExportKey(buffer.get(), 256, key, sizeof key, 4), ACL_ERROR_INVALID_PARAM);
    void* imported = nullptr;
    EXPECT_ACL_FAILS(aclrtIpcMemImportByKey(&imported, "no-such-key", 0), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtIpcMemImportByKey(&imported, nullptr, 0), ACL_ERROR_INVALID_PARAM);
    const std::string unterminated(100, 'k');
    EXPECT_ACL_FAILS(aclrtIpcMemClose(unterminated.c_str()), ACL_ERROR_INVALID_PARAM);

    // The memory must outlive the import (11-07 aclrtIpcMemImportByKey).
    void* block = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&block, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(
        aclrtIpcMemGetExportKey(block, 256, key, sizeof key, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
    ASSERT_ACL_OK(aclrtFree(block));
    EXPECT_ACL_FAILS(aclrtIpcMemImportByKey(&imported, key, 0), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_ACL_FAILS(aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 9), ACL_ERROR_INVALID_PARAM);
    EXPECT_ACL_OK(aclrtIpcMemClose(key));
}

}  // namespace
}  // namespace aclcpu::test
