// acl-cpu HCCL: shared argument checks (see arguments.hpp).
#include "api/arguments.hpp"

#include <cstdarg>
#include <cstdio>

#include "aclcpu/error_report.hpp"
#include "aclcpu/dtype.hpp"
#include "aclcpu/soc_profile.hpp"
#include "core/communicators.hpp"
#include "core/reduction.hpp"

namespace aclcpu::hccl::detail {

HcclResult refuse(HcclResult code, const char* api, const char* format, ...) {
    char text[768];
    va_list args;
    va_start(args, format);
    std::vsnprintf(text, sizeof text, format, args);
    va_end(args);
    report_message(code == HCCL_E_PARA || code == HCCL_E_PTR ? kHcclParamTag : kHcclInnerTag, "%s: %s", api, text);
    return code;
}

HcclResult resolve(HcclComm comm, const char* api, std::shared_ptr<Rank>& rank) {
    if (comm == nullptr) return refuse(HCCL_E_PTR, api, "comm is null");
    rank = Communicators::instance().find(comm);
    if (!rank) {
        return refuse(HCCL_E_PARA, api, "comm %p is not a live communicator (destroyed, or never created)", comm);
    }
    return HCCL_SUCCESS;
}

HcclResult require(const void* pointer, const char* api, const char* name) {
    return pointer != nullptr ? HCCL_SUCCESS : refuse(HCCL_E_PTR, api, "%s is null", name);
}

HcclResult check_movable(const HcclDataType& dtype, const char* api) {
    const int64_t code = code_of(dtype);
    if (code < HCCL_DATA_TYPE_INT8 || code > HCCL_DATA_TYPE_FP8E8M0 || code == 13) {
        return refuse(HCCL_E_PARA, api, "dataType %lld is not an HcclDataType", static_cast<long long>(code));
    }
    if (element_bytes(dtype) == 0) {
        return refuse(HCCL_E_NOT_SUPPORT, api, "dataType %lld has no CPU layout in acl-cpu",
                      static_cast<long long>(code));
    }
    return HCCL_SUCCESS;
}

HcclResult check_reduction(const HcclReduceOp& op, const HcclDataType& dtype, const char* api) {
    const int64_t opCode = code_of(op);
    if (opCode < HCCL_REDUCE_SUM || opCode > HCCL_REDUCE_MIN) {
        return refuse(HCCL_E_PARA, api, "op %lld is not an HcclReduceOp", static_cast<long long>(opCode));
    }
    if (HcclResult status = check_movable(dtype, api); status != HCCL_SUCCESS) return status;
    switch (dtype) {
        case HCCL_DATA_TYPE_INT8:
        case HCCL_DATA_TYPE_INT32:
        case HCCL_DATA_TYPE_INT64:
        case HCCL_DATA_TYPE_FP16:
        case HCCL_DATA_TYPE_FP32: return HCCL_SUCCESS;
        case HCCL_DATA_TYPE_INT16:
        case HCCL_DATA_TYPE_BFP16:
            if (op != HCCL_REDUCE_PROD) return HCCL_SUCCESS;
            return refuse(HCCL_E_NOT_SUPPORT, api, "op prod does not support dataType %d on an Atlas A2",
                          static_cast<int>(dtype));
        default:
            return refuse(HCCL_E_NOT_SUPPORT, api,
                          "dataType %d is not reduced on an Atlas A2 (int8, int16, int32, int64, fp16, fp32, bf16)",
                          static_cast<int>(dtype));
    }
}

HcclResult check_same_types(const HcclDataType& sendType, const HcclDataType& recvType, const char* api) {
    if (HcclResult status = check_movable(sendType, api); status != HCCL_SUCCESS) return status;
    if (HcclResult status = check_movable(recvType, api); status != HCCL_SUCCESS) return status;
    if (sendType == recvType) return HCCL_SUCCESS;
    return refuse(HCCL_E_PARA, api, "sendType %d and recvType %d differ", static_cast<int>(sendType),
                  static_cast<int>(recvType));
}

HcclResult check_rank(uint32_t rank, const Rank& self, const char* api, const char* what) {
    if (rank < self.group().ranks()) return HCCL_SUCCESS;
    return refuse(HCCL_E_PARA, api, "%s %u is not a rank of the communicator (%u ranks)", what, rank,
                  self.group().ranks());
}

HcclResult check_buffer(const void* buffer, uint64_t count, HcclDataType dtype, const char* api, const char* name) {
    const uint64_t deviceBytes = soc_profile().hbmBytes;
    if (count > deviceBytes / element_bytes(dtype)) {
        return refuse(HCCL_E_PARA, api, "%s: %llu elements of dataType %d are more than a device's %llu bytes hold",
                      name, static_cast<unsigned long long>(count), static_cast<int>(dtype),
                      static_cast<unsigned long long>(deviceBytes));
    }
    if (count != 0 && buffer == nullptr) return refuse(HCCL_E_PTR, api, "%s is null", name);
    return HCCL_SUCCESS;
}

}  // namespace aclcpu::hccl::detail
