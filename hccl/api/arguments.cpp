// acl-cpu HCCL: shared argument checks (see arguments.hpp).
#include "api/arguments.hpp"

#include <cstdarg>
#include <cstdio>
#include <limits>

#include "aclcpu/error_report.hpp"
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
    if (!rank) return refuse(HCCL_E_PARA, api, "comm %p is not a live communicator (destroyed, or never created)", comm);
    return HCCL_SUCCESS;
}

HcclResult require(const void* pointer, const char* api, const char* name) {
    return pointer != nullptr ? HCCL_SUCCESS : refuse(HCCL_E_PTR, api, "%s is null", name);
}

HcclResult check_movable(HcclDataType dtype, const char* api) {
    const int code = static_cast<int>(dtype);
    if (code < 0 || code > HCCL_DATA_TYPE_FP8E8M0 || code == 13) {
        return refuse(HCCL_E_PARA, api, "dataType %d is not an HcclDataType", code);
    }
    if (element_bytes(dtype) == 0) {
        return refuse(HCCL_E_NOT_SUPPORT, api, "dataType %d has no CPU layout in acl-cpu", code);
    }
    return HCCL_SUCCESS;
}

HcclResult check_reduction(HcclReduceOp op, HcclDataType dtype, const char* api) {
    const int opCode = static_cast<int>(op);
    if (opCode < HCCL_REDUCE_SUM || opCode > HCCL_REDUCE_MIN) {
        return refuse(HCCL_E_PARA, api, "op %d is not an HcclReduceOp", opCode);
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

HcclResult check_rank(uint32_t rank, const Rank& self, const char* api, const char* what) {
    if (rank < self.group().ranks()) return HCCL_SUCCESS;
    return refuse(HCCL_E_PARA, api, "%s %u is not a rank of the communicator (%u ranks)", what, rank,
                  self.group().ranks());
}

HcclResult check_buffer(const void* buffer, uint64_t count, HcclDataType dtype, const char* api, const char* name) {
    if (count > std::numeric_limits<uint64_t>::max() / element_bytes(dtype)) {
        return refuse(HCCL_E_PARA, api, "%s: %llu elements of dataType %d overflow the address space", name,
                      static_cast<unsigned long long>(count), static_cast<int>(dtype));
    }
    if (count != 0 && buffer == nullptr) return refuse(HCCL_E_PTR, api, "%s is null", name);
    return HCCL_SUCCESS;
}

}  // namespace aclcpu::hccl::detail
