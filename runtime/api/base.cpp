// acl-cpu runtime API: the helpers of acl_base.h (data types, application log).
#include <cstdarg>
#include <cstdio>

#include "acl/acl_base.h"
#include "aclcpu/dtype.hpp"
#include "aclcpu/half.hpp"

extern "C" {

float aclFloat16ToFloat(aclFloat16 value) { return aclcpu::half_to_float_saturating(value); }

aclFloat16 aclFloatToFloat16(float value) { return aclcpu::float_to_half_saturating(value); }

size_t aclDataTypeSize(aclDataType dataType) { return aclcpu::cann_dtype_size(aclcpu::code_of(dataType)); }

void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line, const char* fmt, ...) {
    static const char* const kLevelNames[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
    const int64_t level = aclcpu::code_of(logLevel);
    if (level < ACL_WARNING || level > ACL_ERROR || fmt == nullptr) return;
    char text[1024];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    std::fprintf(stderr, "[%s] %s:%u %s: %s\n", kLevelNames[level], file ? file : "?", line, func ? func : "?",
                 text);
}

}  // extern "C"
