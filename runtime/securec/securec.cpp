// libc_sec: securec's bounded memory and string functions (securec.h).
//
// The contract is libboundscheck's (C11 Annex K as securec documents it):
// a destination size that is 0 or above the library's limit is ERANGE and a
// null destination EINVAL, both leaving the destination untouched; once the
// destination is known to be usable, every other violation clears it (all
// destMax bytes for memory, the first character for strings) and says so
// with an *_AND_RESET code.  The printf family returns -1 for every
// violation, truncation by destMax included.
#include "securec.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

/// Largest destMax (and count) the library accepts: securec's limit for
/// memory and for strings alike.
constexpr size_t kMaxLength = 0x7fffffffUL;

bool usable_size(size_t destMax) { return destMax != 0 && destMax <= kMaxLength; }

bool overlap(const void* a, size_t aBytes, const void* b, size_t bBytes) {
    const auto first = reinterpret_cast<uintptr_t>(a);
    const auto second = reinterpret_cast<uintptr_t>(b);
    return first < second + bBytes && second < first + aBytes;
}

errno_t clear_memory(void* dest, size_t destMax, errno_t code) {
    std::memset(dest, 0, destMax);
    return code;
}

errno_t clear_string(char* dest, errno_t code) {
    dest[0] = '\0';
    return code;
}

/// The checks every string function starts with; EOK when they pass.
errno_t check_string_arguments(char* dest, size_t destMax, const char* src) {
    if (!usable_size(destMax)) return ERANGE;
    if (dest == nullptr) return EINVAL;
    if (src == nullptr) return clear_string(dest, EINVAL_AND_RESET);
    return EOK;
}

/// Writes src[0, length) and a terminator at dest + offset, where
/// offset + length < destMax was checked; the whole written range must not
/// overlap the part of src it reads.
errno_t place_string(char* dest, size_t offset, const char* src, size_t length) {
    if (overlap(dest, offset + length + 1, src, length + 1)) return clear_string(dest, EOVERLAP_AND_RESET);
    std::memcpy(dest + offset, src, length);
    dest[offset + length] = '\0';
    return EOK;
}

/// Appends at most `limit` characters of src to the string in dest.
errno_t append(char* dest, size_t destMax, const char* src, size_t limit) {
    const size_t destLength = strnlen(dest, destMax);
    if (destLength == destMax) return clear_string(dest, EINVAL_AND_RESET);  // dest is not terminated
    const size_t room = destMax - destLength;
    const size_t length = strnlen(src, limit < room ? limit : room);
    if (length == room) return clear_string(dest, ERANGE_AND_RESET);
    return place_string(dest, destLength, src, length);
}

bool usable_format_arguments(char* dest, size_t destMax, const char* format) {
    if (dest == nullptr) return false;
    if (!usable_size(destMax)) return false;
    if (format == nullptr) {
        dest[0] = '\0';
        return false;
    }
    return true;
}

/// vsnprintf into dest[0, capacity), capacity <= destMax: the length
/// written, or -1 when the output failed or did not fit (dest then holds
/// the truncated text unless clearOnTruncation).
int format_into(char* dest, size_t capacity, bool clearOnTruncation, const char* format, va_list args) {
    const int length = std::vsnprintf(dest, capacity, format, args);
    if (length < 0) {
        dest[0] = '\0';
        return -1;
    }
    if (static_cast<size_t>(length) < capacity) return length;
    if (clearOnTruncation) dest[0] = '\0';
    return -1;
}

}  // namespace

extern "C" {

errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
    if (!usable_size(destMax)) return ERANGE;
    if (dest == nullptr) return EINVAL;
    if (count > destMax) {
        // securec fills what fits, then reports the violation.
        std::memset(dest, c, destMax);
        return ERANGE_AND_RESET;
    }
    std::memset(dest, c, count);
    return EOK;
}

errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (!usable_size(destMax)) return ERANGE;
    if (dest == nullptr) return EINVAL;
    if (src == nullptr) return clear_memory(dest, destMax, EINVAL_AND_RESET);
    if (count > destMax) return clear_memory(dest, destMax, ERANGE_AND_RESET);
    std::memmove(dest, src, count);
    return EOK;
}

errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (!usable_size(destMax)) return ERANGE;
    if (dest == nullptr) return EINVAL;
    if (src == nullptr) return clear_memory(dest, destMax, EINVAL_AND_RESET);
    if (count > destMax) return clear_memory(dest, destMax, ERANGE_AND_RESET);
    if (dest == src || count == 0) return EOK;
    if (overlap(dest, count, src, count)) return clear_memory(dest, destMax, EOVERLAP_AND_RESET);
    std::memcpy(dest, src, count);
    return EOK;
}

errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc) {
    if (errno_t status = check_string_arguments(strDest, destMax, strSrc); status != EOK) return status;
    const size_t length = strnlen(strSrc, destMax);
    if (length == destMax) return clear_string(strDest, ERANGE_AND_RESET);
    if (strDest == strSrc) return EOK;
    return place_string(strDest, 0, strSrc, length);
}

errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
    if (errno_t status = check_string_arguments(strDest, destMax, strSrc); status != EOK) return status;
    if (count > kMaxLength) return clear_string(strDest, ERANGE_AND_RESET);
    const size_t length = strnlen(strSrc, count);
    if (length >= destMax) return clear_string(strDest, ERANGE_AND_RESET);
    if (strDest == strSrc) {
        strDest[length] = '\0';
        return EOK;
    }
    return place_string(strDest, 0, strSrc, length);
}

errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc) {
    if (errno_t status = check_string_arguments(strDest, destMax, strSrc); status != EOK) return status;
    return append(strDest, destMax, strSrc, destMax);
}

errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
    if (errno_t status = check_string_arguments(strDest, destMax, strSrc); status != EOK) return status;
    if (count > kMaxLength) return clear_string(strDest, ERANGE_AND_RESET);
    return append(strDest, destMax, strSrc, count);
}

int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList) {
    if (!usable_format_arguments(strDest, destMax, format)) return -1;
    return format_into(strDest, destMax, true, format, argList);
}

int sprintf_s(char* strDest, size_t destMax, const char* format, ...) {
    va_list args;
    va_start(args, format);
    const int length = vsprintf_s(strDest, destMax, format, args);
    va_end(args);
    return length;
}

/// With count < destMax the output is cut at count characters (still -1:
/// the caller asked for a bound, not for the text); otherwise destMax is the
/// bound and not fitting is the error of vsprintf_s.
int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list argList) {
    if (!usable_format_arguments(strDest, destMax, format)) return -1;
    if (count < destMax) return format_into(strDest, count + 1, false, format, argList);
    return format_into(strDest, destMax, true, format, argList);
}

int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...) {
    va_list args;
    va_start(args, format);
    const int length = vsnprintf_s(strDest, destMax, count, format, args);
    va_end(args);
    return length;
}

}  // extern "C"
