// acl-cpu runtime: DataDump, CANN's dump configuration (acl_dump.h,
// aclmdlInitDump / aclmdlSetDump / aclmdlFinalizeDump) on the observers.
#pragma once

#include "core/internal.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "acl/acl_dump.h"
#include "aclcpu/instrumentation.hpp"

namespace aclcpu::observe {

/// What the "dump" object of an aclmdlSetDump file asks for.  acl-cpu has
/// no models: the names of dump_list[].layer select operators by their API
/// name ("aclnnAdd"), and dump_op_switch "on" selects every operator.
struct DumpSettings {
    std::string path;             ///< dump_path
    bool inputs = false;          ///< dump_mode "input" or "all"
    bool outputs = true;          ///< dump_mode "output" (CANN's default) or "all"
    bool everyOperator = false;   ///< dump_op_switch "on"
    std::set<std::string> layers;
    std::string exceptionScene;   ///< dump_scene aic_err_brief_dump / aic_err_norm_dump / lite_exception

    bool dumps_data() const { return everyOperator || !layers.empty(); }
};

/// Reads CANN's dump configuration file for api: ACL_ERROR_INVALID_FILE,
/// ACL_ERROR_PARSE_FILE or ACL_ERROR_INVALID_DUMP_CONFIG when it is missing,
/// not JSON or not a dump configuration; ACL_ERROR_RT_FEATURE_NOT_SUPPORT for
/// the scenes that need the AI Core (overflow, watcher, kernel printf, stats).
aclError read_dump_settings(const char* api, const char* file, DumpSettings& settings);

using DumpCallback = int32_t (*)(const acldumpChunk*, int32_t);

/// The process's dump state.
///
/// Data dump: while settings select operators, an observer copies each
/// selected operator's inputs when it starts to run and its outputs when it
/// ends, and writes every tensor as a NumPy .npy file (format 1.0: a header
/// with dtype and shape, then the raw little-endian bytes):
///   <dump_path>/<device>/<operator>.<n>.<input|output>.<index>.npy
/// n counting the selected operators in submission order from 0.  CANN's own
/// dump files are protobuf records of its toolchain; .npy loads in one call
/// (numpy.load).  Dtypes NumPy lacks (bf16, fp8) are written as raw void
/// elements of their size ('|V2'); a strided view is written as the bytes it
/// spans ('|u1', 1-D).  With a callback registered (acldumpRegCallback), the
/// same file contents go to the callback in chunks instead of to disk.
///
/// Operator info dump (aclopStartDumpArgs): one JSON file per operator and
/// distinct dtypes and shapes, <path>/<operator>.<k>.json, holding the
/// operator's name and its inputs' and outputs' dtypes and shapes.
class DataDump {
public:
    static DataDump& instance();

    aclError init();                                  ///< aclmdlInitDump
    aclError configure(const DumpSettings& settings);  ///< aclmdlSetDump
    aclError finalize();                              ///< aclmdlFinalizeDump

    /// aclInit's configuration file may hold the "dump" object of an
    /// aclmdlSetDump file: then the first aclInit of a span initialises and
    /// configures the dump with it (its errors fail aclInit), and the span's
    /// last aclFinalize finalizes it.  A file without "dump", or a dump that
    /// the program initialised itself, is left alone.
    aclError configure_at_init(const char* configPath);
    void finalize_at_finalize();

    /// acldumpGetPath: the directory of a configured dump kind, valid for the
    /// life of the process; nullptr when that kind is not configured.
    const char* path_of(int64_t dumpType);
    /// The exception dump directory, or "" when no exception scene is set.
    std::string exception_path();

    void set_callback(DumpCallback callback) noexcept { callback_.store(callback, std::memory_order_release); }
    DumpCallback callback() const noexcept { return callback_.load(std::memory_order_acquire); }

    aclError start_args(const std::string& directory);  ///< aclopStartDumpArgs
    aclError stop_args();                              ///< aclopStopDumpArgs

private:
    DataDump() = default;
    void apply_locked(const DumpSettings& settings);  // mutex_ held
    void finalize_locked();                           // mutex_ held
    void remove_data_writer();

    std::mutex mutex_;
    bool initialised_ = false;
    bool initialisedByAclInit_ = false;
    DumpSettings settings_;
    std::shared_ptr<instrument::Observer> dataWriter_;
    std::shared_ptr<instrument::Observer> argsWriter_;
    std::set<std::string> handedOutPaths_;  ///< What path_of returned: never freed.
    std::atomic<DumpCallback> callback_{nullptr};
};

}  // namespace aclcpu::observe
