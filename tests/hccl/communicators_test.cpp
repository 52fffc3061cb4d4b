// Communicators: HcclGetRootInfo / HcclCommInitRootInfo(Config) and its
// failures (bad arguments, a rank joining twice, ranks that never come),
// HcclCommInitAll, HcclCommInitClusterInfo(Config) from a rank table, the
// queries, the process-wide settings and the error strings.
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <memory>
#include <set>

#include "hccl/hccl_test_support.hpp"

namespace aclcpu::hccl_test {
namespace {

using Clock = std::chrono::steady_clock;
using Communicators = HcclTest;

std::string comm_name(HcclComm comm) {
    char name[COMM_NAME_MAX_LENGTH];
    std::memset(name, 'x', sizeof name);
    EXPECT_HCCL_OK(HcclGetCommName(comm, name));
    EXPECT_NE(nullptr, std::memchr(name, '\0', sizeof name)) << "the name is not terminated";
    return std::string(name, strnlen(name, sizeof name));
}

TEST_F(Communicators, RankQueriesAndNames) {
    std::vector<std::string> names(3), otherNames(2);
    with_group(3, [&](RankContext& rank) {
        uint32_t size = 0, id = 99;
        EXPECT_HCCL_OK(HcclGetRankSize(rank.comm, &size));
        EXPECT_HCCL_OK(HcclGetRankId(rank.comm, &id));
        EXPECT_EQ(3u, size);
        EXPECT_EQ(rank.rank, id);
        names[rank.rank] = comm_name(rank.comm);
        EXPECT_EQ(HCCL_SUCCESS, [&] {
            HcclResult code = HCCL_E_RESERVED;
            HcclGetCommAsyncError(rank.comm, &code);
            return code;
        }());
    });
    with_group(2, [&](RankContext& rank) { otherNames[rank.rank] = comm_name(rank.comm); });
    EXPECT_FALSE(names[0].empty());
    EXPECT_EQ(names[0], names[1]);
    EXPECT_EQ(names[0], names[2]);
    EXPECT_EQ(otherNames[0], otherNames[1]);
    EXPECT_NE(names[0], otherNames[0]) << "two groups share a name";
}

TEST_F(Communicators, ConfiguredNameIsTheCommName) {
    GroupOptions options;
    options.name = "hccl_test_group_A";
    options.execTimeoutSeconds = 30;
    with_group(2, [&](RankContext& rank) { EXPECT_EQ("hccl_test_group_A", comm_name(rank.comm)); }, options);
    // The longest name that fits: 127 characters.
    options.name = std::string(COMM_NAME_MAX_LENGTH - 1, 'n');
    with_group(2, [&](RankContext& rank) { EXPECT_EQ(options.name, comm_name(rank.comm)); }, options);
}

TEST_F(Communicators, ConfigurationsMustBeInitialisedAndTerminated) {
    run_ranks(1, [&](uint32_t) {
        ASSERT_ACL_OK(aclrtSetDevice(0));
        HcclRootInfo root;
        ASSERT_HCCL_OK(HcclGetRootInfo(&root));
        HcclComm comm = nullptr;
        HcclCommConfig config;
        std::memset(&config, 0, sizeof config);
        EXPECT_HCCL_REFUSED(HcclCommInitRootInfoConfig(1, &root, 0, &config, &comm), HCCL_E_PARA,
                            "HcclCommInitRootInfoConfig");
        HcclCommConfigInit(&config);
        std::memset(config.hcclCommName, 'n', sizeof config.hcclCommName);
        EXPECT_HCCL_REFUSED(HcclCommInitRootInfoConfig(1, &root, 0, &config, &comm), HCCL_E_PARA,
                            "HcclCommInitRootInfoConfig");
        EXPECT_HCCL_REFUSED(HcclCommInitRootInfoConfig(1, &root, 0, nullptr, &comm), HCCL_E_PTR,
                            "HcclCommInitRootInfoConfig");
        EXPECT_EQ(nullptr, comm);
        // The refusals did not take rank 0's place: it joins now.
        HcclCommConfigInit(&config);
        ASSERT_HCCL_OK(HcclCommInitRootInfoConfig(1, &root, 0, &config, &comm));
        EXPECT_HCCL_OK(HcclCommDestroy(comm));
    });
}

TEST_F(Communicators, InitRootInfoArgumentErrors) {
    run_ranks(1, [&](uint32_t) {
        ASSERT_ACL_OK(aclrtSetDevice(0));
        HcclRootInfo root;
        ASSERT_HCCL_OK(HcclGetRootInfo(&root));
        HcclComm comm = nullptr;
        const char* api = "HcclCommInitRootInfo";
        EXPECT_HCCL_REFUSED(HcclCommInitRootInfo(0, &root, 0, &comm), HCCL_E_PARA, api);
        EXPECT_HCCL_REFUSED(HcclCommInitRootInfo(2, &root, 2, &comm), HCCL_E_PARA, api);
        EXPECT_HCCL_REFUSED(HcclCommInitRootInfo(2, &root, 0xFFFFFFFFu, &comm), HCCL_E_PARA, api);
        EXPECT_HCCL_REFUSED(HcclCommInitRootInfo(2, nullptr, 0, &comm), HCCL_E_PTR, api);
        EXPECT_HCCL_REFUSED(HcclCommInitRootInfo(2, &root, 0, nullptr), HCCL_E_PTR, api);
        HcclRootInfo garbage;
        std::memset(&garbage, 0x5A, sizeof garbage);
        EXPECT_HCCL_REFUSED(HcclCommInitRootInfo(1, &garbage, 0, &comm), HCCL_E_PARA, api);
        std::memset(&garbage, 0, sizeof garbage);
        EXPECT_HCCL_REFUSED(HcclCommInitRootInfo(1, &garbage, 0, &comm), HCCL_E_PARA, api);
        EXPECT_EQ(nullptr, comm);
    });
}

// Two threads both join as rank 0 of a two-rank root info: one of them is
// refused at once (HCCL_E_PARA), the other completes when rank 1 comes.
TEST_F(Communicators, SameRankTwiceIsRefused) {
    HcclRootInfo root;
    ASSERT_HCCL_OK(HcclGetRootInfo(&root));
    std::atomic<int> returned{0};
    std::vector<HcclResult> codes(3, HCCL_E_RESERVED);
    std::vector<std::string> messages(3);
    std::vector<HcclComm> comms(3, nullptr);
    run_ranks(3, [&](uint32_t t) {
        ASSERT_ACL_OK(aclrtSetDevice(static_cast<int32_t>(t)));
        if (t == 2) {  // Rank 1, once one of the two rank 0s has been refused.
            const auto deadline = Clock::now() + std::chrono::seconds(10);
            while (returned.load() == 0 && Clock::now() < deadline) std::this_thread::yield();
            ASSERT_EQ(1, returned.load()) << "neither rank 0 was refused";
            ASSERT_HCCL_OK(HcclCommInitRootInfo(2, &root, 1, &comms[2]));
            EXPECT_HCCL_OK(HcclCommDestroy(comms[2]));
            return;
        }
        take_error_message();
        codes[t] = HcclCommInitRootInfo(2, &root, 0, &comms[t]);
        messages[t] = take_error_message();
        returned.fetch_add(1);
        if (codes[t] == HCCL_SUCCESS) {
            EXPECT_HCCL_OK(HcclCommDestroy(comms[t]));
        }
    });
    const std::multiset<HcclResult> outcomes(codes.begin(), codes.begin() + 2);
    EXPECT_EQ((std::multiset<HcclResult>{HCCL_SUCCESS, HCCL_E_PARA}), outcomes);
    const size_t refused = codes[0] == HCCL_E_PARA ? 0 : 1;
    EXPECT_TRUE(contains(messages[refused], {"HcclCommInitRootInfo"})) << messages[refused];
}

// Ranks told of different rank counts for the same root info: the later one
// is refused (HCCL_E_PARA); the earlier one's group completes as it was told.
TEST_F(Communicators, DisagreeingRankCountsAreRefused) {
    HcclRootInfo root;
    ASSERT_HCCL_OK(HcclGetRootInfo(&root));
    std::promise<std::pair<uint32_t, HcclResult>> refusedPromise;  // (thread, code)
    std::shared_future<std::pair<uint32_t, HcclResult>> refusedFuture = refusedPromise.get_future().share();
    std::atomic<bool> told{false};
    run_ranks(4, [&](uint32_t t) {
        ASSERT_ACL_OK(aclrtSetDevice(static_cast<int32_t>(t)));
        HcclComm comm = nullptr;
        HcclResult code = HCCL_E_RESERVED;
        if (t == 0) code = HcclCommInitRootInfo(2, &root, 0, &comm);  // a group of 2
        if (t == 1) code = HcclCommInitRootInfo(3, &root, 1, &comm);  // a group of 3
        if (t <= 1) {
            if (code != HCCL_SUCCESS && !told.exchange(true)) refusedPromise.set_value({t, code});
            if (code == HCCL_SUCCESS) {
                EXPECT_HCCL_OK(HcclCommDestroy(comm));
            }
            return;
        }
        // Threads 2 and 3 complete whichever group was not refused.
        ASSERT_EQ(std::future_status::ready, refusedFuture.wait_for(std::chrono::seconds(10)));
        const auto [refusedThread, refusedCode] = refusedFuture.get();
        EXPECT_EQ(HCCL_E_PARA, refusedCode);
        if (refusedThread == 1) {  // Thread 0's group of 2 waits for rank 1.
            if (t == 2) {
                ASSERT_HCCL_OK(HcclCommInitRootInfo(2, &root, 1, &comm));
            }
        } else {  // Thread 1's group of 3 waits for ranks 0 and 2.
            ASSERT_HCCL_OK(HcclCommInitRootInfo(3, &root, t == 2 ? 0 : 2, &comm));
        }
        if (comm != nullptr) {
            EXPECT_HCCL_OK(HcclCommDestroy(comm));
        }
    });
}

// A rank whose peers never come gives up after HCCL_CONNECT_TIMEOUT seconds
// (read at each call); the root info stays usable.
TEST_F(Communicators, ConnectTimeout) {
    HcclRootInfo root;
    ASSERT_HCCL_OK(HcclGetRootInfo(&root));
    {
        ScopedEnv connectTimeout("HCCL_CONNECT_TIMEOUT", "1");
        run_ranks(1, [&](uint32_t) {
            ASSERT_ACL_OK(aclrtSetDevice(0));
            HcclComm comm = nullptr;
            const Clock::time_point start = Clock::now();
            EXPECT_HCCL_REFUSED(HcclCommInitRootInfo(2, &root, 0, &comm), HCCL_E_TIMEOUT, "HcclCommInitRootInfo");
            const double waited = std::chrono::duration<double>(Clock::now() - start).count();
            EXPECT_GE(waited, 0.9);
            EXPECT_LT(waited, 10.0) << "well below the suite's own " << kSuiteTimeoutSeconds << " s";
            EXPECT_EQ(nullptr, comm);
        });
    }
    with_group(1, [](RankContext&) {});  // (another group meanwhile)
    run_ranks(2, [&](uint32_t rank) {
        ASSERT_ACL_OK(aclrtSetDevice(static_cast<int32_t>(rank)));
        HcclComm comm = nullptr;
        ASSERT_HCCL_OK(HcclCommInitRootInfo(2, &root, rank, &comm));
        uint32_t id = 99;
        EXPECT_HCCL_OK(HcclGetRankId(comm, &id));
        EXPECT_EQ(rank, id);
        EXPECT_HCCL_OK(HcclCommDestroy(comm));
    });
}

// HcclCommInitRootInfo belongs on a thread that set its device.
TEST_F(Communicators, InitNeedsTheThreadsDevice) {
    HcclRootInfo root;
    ASSERT_HCCL_OK(HcclGetRootInfo(&root));
    run_ranks(1, [&](uint32_t) {
        HcclComm comm = nullptr;
        EXPECT_HCCL_REFUSED(HcclCommInitRootInfo(1, &root, 0, &comm), HCCL_E_RUNTIME, "HcclCommInitRootInfo");
        if (comm != nullptr) HcclCommDestroy(comm);
    });
}

TEST_F(Communicators, InitAllArgumentErrors) {
    HcclComm comms[kDeviceCount + 1] = {};
    int32_t devices[kDeviceCount + 1] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    const char* api = "HcclCommInitAll";
    EXPECT_HCCL_REFUSED(HcclCommInitAll(0, devices, comms), HCCL_E_PARA, api);
    EXPECT_HCCL_REFUSED(HcclCommInitAll(2, nullptr, comms), HCCL_E_PTR, api);
    EXPECT_HCCL_REFUSED(HcclCommInitAll(2, devices, nullptr), HCCL_E_PTR, api);
    EXPECT_HCCL_REFUSED(HcclCommInitAll(kDeviceCount + 1, devices, comms), HCCL_E_PARA, api);  // device 8
    int32_t negative[2] = {0, -1}, twice[3] = {1, 2, 1};
    EXPECT_HCCL_REFUSED(HcclCommInitAll(2, negative, comms), HCCL_E_PARA, api);
    EXPECT_HCCL_REFUSED(HcclCommInitAll(3, twice, comms), HCCL_E_PARA, api);
    for (HcclComm comm : comms) EXPECT_EQ(nullptr, comm);
    // Any subset of devices in any order: rank i on devices[i].
    int32_t some[3] = {6, 2, 4};
    ASSERT_HCCL_OK(HcclCommInitAll(3, some, comms));
    for (uint32_t i = 0; i < 3; ++i) {
        uint32_t id = 99, size = 0;
        EXPECT_HCCL_OK(HcclGetRankId(comms[i], &id));
        EXPECT_HCCL_OK(HcclGetRankSize(comms[i], &size));
        EXPECT_EQ(i, id);
        EXPECT_EQ(3u, size);
        EXPECT_EQ(comm_name(comms[0]), comm_name(comms[i]));
    }
    for (uint32_t i = 0; i < 3; ++i) EXPECT_HCCL_OK(HcclCommDestroy(comms[i]));
}

TEST_F(Communicators, DestroyTwiceIsRefused) {
    int32_t devices[2] = {0, 1};
    HcclComm comms[2] = {};
    ASSERT_HCCL_OK(HcclCommInitAll(2, devices, comms));
    EXPECT_HCCL_OK(HcclCommDestroy(comms[0]));
    EXPECT_HCCL_REFUSED(HcclCommDestroy(comms[0]), HCCL_E_PARA, "HcclCommDestroy");
    EXPECT_HCCL_OK(HcclCommDestroy(comms[1]));
}

/// A rank table file in the temporary directory, removed at scope end.
class RankTable {
public:
    explicit RankTable(const std::string& text) {
        path_ = ::testing::TempDir() + "hccl_rank_table_" + std::to_string(getpid()) + "_" +
                std::to_string(counter()++) + ".json";
        std::ofstream(path_) << text;
    }
    /// CANN's rank table: one server, rank_id r on device_id devices[r].
    static std::string of(const std::vector<int32_t>& devices) {
        std::string list;
        for (size_t r = 0; r < devices.size(); ++r) {
            list += std::string(r == 0 ? "" : ",") + "{\"device_id\":\"" + std::to_string(devices[r]) +
                    "\",\"device_ip\":\"192.168.100." + std::to_string(101 + r) + "\",\"rank_id\":\"" +
                    std::to_string(r) + "\"}";
        }
        return "{\"server_count\":\"1\",\"server_list\":[{\"device\":[" + list +
               "],\"server_id\":\"10.0.0.10\"}],\"status\":\"completed\",\"version\":\"1.0\"}";
    }
    ~RankTable() { std::remove(path_.c_str()); }
    const char* path() const { return path_.c_str(); }

private:
    static std::atomic<int>& counter() {
        static std::atomic<int> value{0};
        return value;
    }
    std::string path_;
};

// The ranks of one process that read the same table form one group: each
// rank's thread sets the device the table gives it.  Read again after the
// group is gone, the table makes a new group.
TEST_F(Communicators, ClusterInfoFromARankTable) {
    const std::vector<int32_t> devices = {2, 0, 3, 1};
    const RankTable table(RankTable::of(devices));
    for (int round = 0; round < 2; ++round) {
        run_ranks(4, [&](uint32_t rank) {
            ASSERT_ACL_OK(aclrtSetDevice(devices[rank]));
            HcclComm comm = nullptr;
            ASSERT_HCCL_OK(HcclCommInitClusterInfo(table.path(), rank, &comm));
            uint32_t id = 99, size = 0;
            EXPECT_HCCL_OK(HcclGetRankId(comm, &id));
            EXPECT_HCCL_OK(HcclGetRankSize(comm, &size));
            EXPECT_EQ(rank, id);
            EXPECT_EQ(4u, size);
            aclrtStream stream = nullptr;
            ASSERT_ACL_OK(aclrtCreateStream(&stream));
            DeviceMemory mine(as_bytes(std::vector<int32_t>{static_cast<int32_t>(rank) * 10}));
            DeviceMemory all(4 * sizeof(int32_t));
            EXPECT_HCCL_OK(HcclAllGather(mine.get(), all.get(), 1, HCCL_DATA_TYPE_INT32, comm, stream));
            EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
            EXPECT_EQ((std::vector<int32_t>{0, 10, 20, 30}), all.values<int32_t>());
            EXPECT_ACL_OK(aclrtDestroyStream(stream));
            EXPECT_HCCL_OK(HcclCommDestroy(comm));
        });
    }
}

// Two tables, two groups at the same time; a configuration names its group.
TEST_F(Communicators, TwoRankTablesTwoGroups) {
    const RankTable first(RankTable::of({0, 1})), second(RankTable::of({2, 3}));
    run_ranks(4, [&](uint32_t t) {
        ASSERT_ACL_OK(aclrtSetDevice(static_cast<int32_t>(t)));
        const uint32_t rank = t % 2;
        HcclComm comm = nullptr;
        HcclCommConfig config;
        HcclCommConfigInit(&config);
        std::snprintf(config.hcclCommName, sizeof config.hcclCommName, "table_%u", t / 2);
        ASSERT_HCCL_OK(HcclCommInitClusterInfoConfig(t < 2 ? first.path() : second.path(), rank, &config, &comm));
        EXPECT_EQ("table_" + std::to_string(t / 2), comm_name(comm));
        aclrtStream stream = nullptr;
        ASSERT_ACL_OK(aclrtCreateStream(&stream));
        DeviceMemory value(as_bytes(std::vector<int64_t>{static_cast<int64_t>(t) + 1}));
        EXPECT_HCCL_OK(HcclAllReduce(value.get(), value.get(), 1, HCCL_DATA_TYPE_INT64, HCCL_REDUCE_SUM, comm, stream));
        EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
        EXPECT_EQ((std::vector<int64_t>{t < 2 ? 3 : 7}), value.values<int64_t>()) << "thread " << t;
        EXPECT_ACL_OK(aclrtDestroyStream(stream));
        EXPECT_HCCL_OK(HcclCommDestroy(comm));
    });
}

TEST_F(Communicators, ClusterInfoErrors) {
    run_ranks(1, [&](uint32_t) {
        ASSERT_ACL_OK(aclrtSetDevice(0));
        HcclComm comm = nullptr;
        const char* api = "HcclCommInitClusterInfo";
        const std::string missing = ::testing::TempDir() + "hccl_no_such_rank_table.json";
        EXPECT_HCCL_REFUSED(HcclCommInitClusterInfo(missing.c_str(), 0, &comm), HCCL_E_OPEN_FILE_FAILURE, api);
        EXPECT_HCCL_REFUSED(HcclCommInitClusterInfo(nullptr, 0, &comm), HCCL_E_PTR, api);
        const RankTable good(RankTable::of({0, 1}));
        EXPECT_HCCL_REFUSED(HcclCommInitClusterInfo(good.path(), 0, nullptr), HCCL_E_PTR, api);
        EXPECT_HCCL_REFUSED(HcclCommInitClusterInfo(good.path(), 2, &comm), HCCL_E_PARA, api);
        const RankTable notJson("{\"server_list\": [");
        EXPECT_HCCL_REFUSED(HcclCommInitClusterInfo(notJson.path(), 0, &comm), HCCL_E_PARA, api);
        const RankTable noServers("{\"version\":\"1.0\"}");
        EXPECT_HCCL_REFUSED(HcclCommInitClusterInfo(noServers.path(), 0, &comm), HCCL_E_PARA, api);
        const RankTable noDevices("{\"server_count\":\"1\",\"server_list\":[{\"device\":[]}]}");
        EXPECT_HCCL_REFUSED(HcclCommInitClusterInfo(noDevices.path(), 0, &comm), HCCL_E_PARA, api);
        // Rank ids 0 and 2: not 0..n-1.
        const RankTable gap("{\"server_count\":\"1\",\"server_list\":[{\"device\":["
                            "{\"device_id\":\"0\",\"rank_id\":\"0\"},{\"device_id\":\"1\",\"rank_id\":\"2\"}]}]}");
        EXPECT_HCCL_REFUSED(HcclCommInitClusterInfo(gap.path(), 0, &comm), HCCL_E_PARA, api);
        HcclCommConfig config;
        std::memset(&config, 0, sizeof config);
        EXPECT_HCCL_REFUSED(HcclCommInitClusterInfoConfig(good.path(), 0, &config, &comm), HCCL_E_PARA,
                            "HcclCommInitClusterInfoConfig");
        EXPECT_HCCL_REFUSED(HcclCommInitClusterInfoConfig(good.path(), 0, nullptr, &comm), HCCL_E_PTR,
                            "HcclCommInitClusterInfoConfig");
        EXPECT_EQ(nullptr, comm);
    });
}

TEST_F(Communicators, ErrorStrings) {
    std::set<std::string> seen;
    std::vector<int> codes;
    for (int code = HCCL_SUCCESS; code <= HCCL_E_OOM; ++code) codes.push_back(code);
    codes.push_back(HCCL_E_IN_STATUS);
    for (int code : codes) {
        const char* text = HcclGetErrorString(static_cast<HcclResult>(code));
        ASSERT_NE(nullptr, text) << code;
        EXPECT_NE('\0', text[0]) << code;
        seen.insert(text);
    }
    EXPECT_EQ(codes.size(), seen.size()) << "two codes share a description";
    for (int unknown : {static_cast<int>(HCCL_E_RESERVED), 25, 999, 2047}) {  // inside the range 0..2047
        const char* text = HcclGetErrorString(static_cast<HcclResult>(unknown));
        ASSERT_NE(nullptr, text) << unknown;
        EXPECT_NE('\0', text[0]) << unknown;
    }
}

TEST_F(Communicators, DeterministicSetting) {
    HcclConfigValue saved{};
    ASSERT_HCCL_OK(HcclGetConfig(HCCL_DETERMINISTIC, &saved));
    for (int32_t value : {1, 0, 2}) {
        HcclConfigValue set{};
        set.value = value;
        EXPECT_HCCL_OK(HcclSetConfig(HCCL_DETERMINISTIC, set));
        HcclConfigValue got{};
        got.value = -7;
        EXPECT_HCCL_OK(HcclGetConfig(HCCL_DETERMINISTIC, &got));
        EXPECT_EQ(value, got.value);
    }
    for (int32_t bad : {3, -1, 1000}) {
        HcclConfigValue set{};
        set.value = bad;
        EXPECT_HCCL_REFUSED(HcclSetConfig(HCCL_DETERMINISTIC, set), HCCL_E_PARA, "HcclSetConfig");
    }
    HcclConfigValue got{};
    EXPECT_HCCL_OK(HcclGetConfig(HCCL_DETERMINISTIC, &got));
    EXPECT_EQ(2, got.value) << "a refused setting changed the value";
    EXPECT_HCCL_REFUSED(HcclSetConfig(HCCL_CONFIG_RESERVED, got), HCCL_E_PARA, "HcclSetConfig");
    EXPECT_HCCL_REFUSED(HcclGetConfig(HCCL_CONFIG_RESERVED, &got), HCCL_E_PARA, "HcclGetConfig");
    EXPECT_HCCL_REFUSED(HcclGetConfig(HCCL_DETERMINISTIC, nullptr), HCCL_E_PTR, "HcclGetConfig");
    EXPECT_HCCL_OK(HcclSetConfig(HCCL_DETERMINISTIC, saved));
}

// The library understands the fields up to the execution timeout, which
// the suite relies on.
TEST_F(Communicators, ConfigCapabilityCoversTheNameAndTheExecTimeout) {
    const uint32_t capability = HcclGetCommConfigCapability();
    EXPECT_GT(capability, static_cast<uint32_t>(HCCL_COMM_CONFIG_COMM_NAME));
    EXPECT_GT(capability, static_cast<uint32_t>(HCCL_COMM_CONFIG_EXEC_TIMEOUT));
    EXPECT_LE(capability, static_cast<uint32_t>(HCCL_COMM_CONFIG_RESERVED));
}

// Root info made by another process that is gone: the rank cannot reach
// the root's address and gives up after HCCL_CONNECT_TIMEOUT with
// HCCL_E_TIMEOUT (the multi-process path: tests/hccl_multiprocess).
TEST_F(Communicators, RootInfoOfAProcessThatIsGoneTimesOut) {
    const ScopedEnv connectTimeout("HCCL_CONNECT_TIMEOUT", "1");
    int pipeFds[2];
    ASSERT_EQ(0, pipe(pipeFds));
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {  // Only async-signal-safe-ish work: make the root info, write it, leave.
        HcclRootInfo info;
        const HcclResult made = HcclGetRootInfo(&info);
        const ssize_t written = made == HCCL_SUCCESS ? write(pipeFds[1], &info, sizeof info) : -1;
        _exit(written == static_cast<ssize_t>(sizeof info) ? 0 : 1);
    }
    close(pipeFds[1]);
    HcclRootInfo foreign;
    size_t got = 0;
    while (got < sizeof foreign) {
        const ssize_t n = read(pipeFds[0], reinterpret_cast<char*>(&foreign) + got, sizeof foreign - got);
        if (n <= 0) break;
        got += static_cast<size_t>(n);
    }
    close(pipeFds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_EQ(sizeof foreign, got) << "the child's root info did not arrive";
    run_ranks(1, [&](uint32_t) {
        ASSERT_ACL_OK(aclrtSetDevice(0));
        HcclComm comm = nullptr;
        EXPECT_HCCL_REFUSED(HcclCommInitRootInfo(2, &foreign, 1, &comm), HCCL_E_TIMEOUT, "HcclCommInitRootInfo");
        EXPECT_EQ(nullptr, comm);
    });
}

// Root info is fresh at every call: two root infos, two groups.
TEST_F(Communicators, EveryRootInfoIsANewGroup) {
    HcclRootInfo a, b;
    ASSERT_HCCL_OK(HcclGetRootInfo(&a));
    ASSERT_HCCL_OK(HcclGetRootInfo(&b));
    EXPECT_NE(0, std::memcmp(&a, &b, sizeof a));
    run_ranks(4, [&](uint32_t t) {
        ASSERT_ACL_OK(aclrtSetDevice(static_cast<int32_t>(t)));
        HcclComm comm = nullptr;
        ASSERT_HCCL_OK(HcclCommInitRootInfo(2, t < 2 ? &a : &b, t % 2, &comm));
        uint32_t size = 0;
        EXPECT_HCCL_OK(HcclGetRankSize(comm, &size));
        EXPECT_EQ(2u, size);
        EXPECT_HCCL_OK(HcclCommDestroy(comm));
    });
}

}  // namespace
}  // namespace aclcpu::hccl_test
