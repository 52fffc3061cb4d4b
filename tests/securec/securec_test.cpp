// libc_sec against securec's documented contract (libboundscheck, after C11
// Annex K K.3.7 and K.3.5.3): EOK on success; ERANGE for a destMax of 0 or
// above the limit and EINVAL for a null destination, the destination left
// alone; after that every violation clears the destination and returns its
// *_AND_RESET code (memory: all destMax bytes; strings: the first
// character); the printf family returns -1 for any violation.
#include "securec.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdarg>
#include <cstring>

namespace {

constexpr size_t kAboveLimit = size_t{0x7fffffff} + 1;

/// A buffer every byte of which starts as 'x', so a reset or an untouched
/// destination is visible.
template <size_t N>
std::array<char, N> filled() {
    std::array<char, N> buffer{};
    buffer.fill('x');
    return buffer;
}

template <size_t N>
bool all_bytes_are(const std::array<char, N>& buffer, char value) {
    for (char c : buffer) {
        if (c != value) return false;
    }
    return true;
}

TEST(MemcpyS, CopiesCountBytes) {
    auto dest = filled<8>();
    EXPECT_EQ(EOK, memcpy_s(dest.data(), dest.size(), "abcd", 4));
    EXPECT_EQ(0, std::memcmp(dest.data(), "abcdxxxx", 8));
    EXPECT_EQ(EOK, memcpy_s(dest.data(), dest.size(), "zz", 0));  // nothing to copy
    EXPECT_EQ('a', dest[0]);
}

TEST(MemcpyS, UnusableDestMaxIsErangeAndLeavesDest) {
    auto dest = filled<8>();
    EXPECT_EQ(ERANGE, memcpy_s(dest.data(), 0, "abcd", 4));
    EXPECT_EQ(ERANGE, memcpy_s(dest.data(), kAboveLimit, "abcd", 4));
    EXPECT_TRUE(all_bytes_are(dest, 'x'));
}

TEST(MemcpyS, NullDestIsEinval) { EXPECT_EQ(EINVAL, memcpy_s(nullptr, 8, "abcd", 4)); }

TEST(MemcpyS, NullSrcClearsDest) {
    auto dest = filled<8>();
    EXPECT_EQ(EINVAL_AND_RESET, memcpy_s(dest.data(), dest.size(), nullptr, 4));
    EXPECT_TRUE(all_bytes_are(dest, '\0'));
}

TEST(MemcpyS, CountAboveDestMaxClearsDest) {
    auto dest = filled<8>();
    EXPECT_EQ(ERANGE_AND_RESET, memcpy_s(dest.data(), 4, "abcdefgh", 8));
    EXPECT_EQ(0, std::memcmp(dest.data(), "\0\0\0\0xxxx", 8));  // destMax bytes, no more
}

TEST(MemcpyS, OverlapClearsDest) {
    auto buffer = filled<8>();
    EXPECT_EQ(EOVERLAP_AND_RESET, memcpy_s(buffer.data() + 2, 6, buffer.data(), 4));
    EXPECT_EQ(0, std::memcmp(buffer.data(), "xx\0\0\0\0\0\0", 8));
}

TEST(MemmoveS, MovesOverlappingRanges) {
    std::array<char, 8> buffer{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'};
    EXPECT_EQ(EOK, memmove_s(buffer.data() + 2, 6, buffer.data(), 4));
    EXPECT_EQ(0, std::memcmp(buffer.data(), "ababcdgh", 8));
}

TEST(MemmoveS, ViolationsReturnTheirCodes) {
    auto dest = filled<8>();
    EXPECT_EQ(ERANGE, memmove_s(dest.data(), 0, "ab", 2));
    EXPECT_EQ(ERANGE, memmove_s(dest.data(), kAboveLimit, "ab", 2));
    EXPECT_EQ(EINVAL, memmove_s(nullptr, 8, "ab", 2));
    EXPECT_TRUE(all_bytes_are(dest, 'x'));
    EXPECT_EQ(EINVAL_AND_RESET, memmove_s(dest.data(), dest.size(), nullptr, 2));
    EXPECT_TRUE(all_bytes_are(dest, '\0'));
    dest = filled<8>();
    EXPECT_EQ(ERANGE_AND_RESET, memmove_s(dest.data(), dest.size(), "abcdefghi", 9));
    EXPECT_TRUE(all_bytes_are(dest, '\0'));
}

TEST(MemsetS, SetsCountBytes) {
    auto dest = filled<8>();
    EXPECT_EQ(EOK, memset_s(dest.data(), dest.size(), 'y', 3));
    EXPECT_EQ(0, std::memcmp(dest.data(), "yyyxxxxx", 8));
}

TEST(MemsetS, ViolationsReturnTheirCodes) {
    auto dest = filled<8>();
    EXPECT_EQ(ERANGE, memset_s(dest.data(), 0, 'y', 3));
    EXPECT_EQ(ERANGE, memset_s(dest.data(), kAboveLimit, 'y', 3));
    EXPECT_EQ(EINVAL, memset_s(nullptr, 8, 'y', 3));
    EXPECT_TRUE(all_bytes_are(dest, 'x'));
    // A count above destMax sets the destMax bytes that exist, then reports.
    EXPECT_EQ(ERANGE_AND_RESET, memset_s(dest.data(), 4, 'y', 8));
    EXPECT_EQ(0, std::memcmp(dest.data(), "yyyyxxxx", 8));
}

TEST(StrcpyS, CopiesWithTerminator) {
    auto dest = filled<8>();
    EXPECT_EQ(EOK, strcpy_s(dest.data(), dest.size(), "abc"));
    EXPECT_STREQ("abc", dest.data());
    EXPECT_EQ(EOK, strcpy_s(dest.data(), dest.size(), "abcdefg"));  // 7 characters + terminator fill 8
    EXPECT_STREQ("abcdefg", dest.data());
}

TEST(StrcpyS, ViolationsReturnTheirCodes) {
    auto dest = filled<8>();
    EXPECT_EQ(ERANGE, strcpy_s(dest.data(), 0, "a"));
    EXPECT_EQ(ERANGE, strcpy_s(dest.data(), kAboveLimit, "a"));
    EXPECT_EQ(EINVAL, strcpy_s(nullptr, 8, "a"));
    EXPECT_TRUE(all_bytes_are(dest, 'x'));
    EXPECT_EQ(EINVAL_AND_RESET, strcpy_s(dest.data(), dest.size(), nullptr));
    EXPECT_EQ('\0', dest[0]);
    dest = filled<8>();
    EXPECT_EQ(ERANGE_AND_RESET, strcpy_s(dest.data(), dest.size(), "abcdefgh"));  // no room for the terminator
    EXPECT_EQ('\0', dest[0]);
    std::array<char, 8> overlapping{'a', 'b', 'c', '\0', 'x', 'x', 'x', 'x'};
    EXPECT_EQ(EOVERLAP_AND_RESET, strcpy_s(overlapping.data() + 1, 7, overlapping.data()));
    EXPECT_EQ('\0', overlapping[1]);
}

TEST(StrncpyS, CopiesAtMostCountCharacters) {
    auto dest = filled<8>();
    EXPECT_EQ(EOK, strncpy_s(dest.data(), dest.size(), "abcdefghij", 3));
    EXPECT_STREQ("abc", dest.data());
    EXPECT_EQ(EOK, strncpy_s(dest.data(), dest.size(), "ab", 5));  // a shorter source stops at its terminator
    EXPECT_STREQ("ab", dest.data());
    EXPECT_EQ(EOK, strncpy_s(dest.data(), dest.size(), "ab", 0));
    EXPECT_STREQ("", dest.data());
}

TEST(StrncpyS, ViolationsReturnTheirCodes) {
    auto dest = filled<8>();
    EXPECT_EQ(ERANGE, strncpy_s(dest.data(), 0, "a", 1));
    EXPECT_EQ(ERANGE, strncpy_s(dest.data(), kAboveLimit, "a", 1));
    EXPECT_EQ(EINVAL, strncpy_s(nullptr, 8, "a", 1));
    EXPECT_TRUE(all_bytes_are(dest, 'x'));
    EXPECT_EQ(EINVAL_AND_RESET, strncpy_s(dest.data(), dest.size(), nullptr, 1));
    EXPECT_EQ('\0', dest[0]);
    dest = filled<8>();
    EXPECT_EQ(ERANGE_AND_RESET, strncpy_s(dest.data(), dest.size(), "a", kAboveLimit));
    EXPECT_EQ('\0', dest[0]);
    dest = filled<8>();
    EXPECT_EQ(ERANGE_AND_RESET, strncpy_s(dest.data(), dest.size(), "abcdefghij", 8));
    EXPECT_EQ('\0', dest[0]);
    std::array<char, 8> overlapping{'a', 'b', 'c', '\0', 'x', 'x', 'x', 'x'};
    EXPECT_EQ(EOVERLAP_AND_RESET, strncpy_s(overlapping.data() + 1, 7, overlapping.data(), 3));
    EXPECT_EQ('\0', overlapping[1]);
}

TEST(StrcatS, Appends) {
    std::array<char, 8> dest{'a', 'b', '\0', 'x', 'x', 'x', 'x', 'x'};
    EXPECT_EQ(EOK, strcat_s(dest.data(), dest.size(), "cdefg"));
    EXPECT_STREQ("abcdefg", dest.data());
}

TEST(StrcatS, ViolationsReturnTheirCodes) {
    std::array<char, 8> dest{'a', 'b', '\0', 'x', 'x', 'x', 'x', 'x'};
    EXPECT_EQ(ERANGE, strcat_s(dest.data(), 0, "c"));
    EXPECT_EQ(ERANGE, strcat_s(dest.data(), kAboveLimit, "c"));
    EXPECT_EQ(EINVAL, strcat_s(nullptr, 8, "c"));
    EXPECT_STREQ("ab", dest.data());
    EXPECT_EQ(EINVAL_AND_RESET, strcat_s(dest.data(), dest.size(), nullptr));
    EXPECT_EQ('\0', dest[0]);
    auto unterminated = filled<8>();
    EXPECT_EQ(EINVAL_AND_RESET, strcat_s(unterminated.data(), unterminated.size(), "c"));
    EXPECT_EQ('\0', unterminated[0]);
    std::array<char, 8> full{'a', 'b', '\0'};
    EXPECT_EQ(ERANGE_AND_RESET, strcat_s(full.data(), full.size(), "cdefgh"));  // 2 + 6 + terminator > 8
    EXPECT_EQ('\0', full[0]);
    std::array<char, 8> overlapping{'a', 'b', '\0'};
    EXPECT_EQ(EOVERLAP_AND_RESET, strcat_s(overlapping.data(), overlapping.size(), overlapping.data() + 1));
    EXPECT_EQ('\0', overlapping[0]);
}

TEST(StrncatS, AppendsAtMostCountCharacters) {
    std::array<char, 8> dest{'a', 'b', '\0'};
    EXPECT_EQ(EOK, strncat_s(dest.data(), dest.size(), "cdefghij", 3));
    EXPECT_STREQ("abcde", dest.data());
    EXPECT_EQ(EOK, strncat_s(dest.data(), dest.size(), "fg", 10));
    EXPECT_STREQ("abcdefg", dest.data());
}

TEST(StrncatS, ViolationsReturnTheirCodes) {
    std::array<char, 8> dest{'a', 'b', '\0'};
    EXPECT_EQ(ERANGE, strncat_s(dest.data(), 0, "c", 1));
    EXPECT_EQ(ERANGE, strncat_s(dest.data(), kAboveLimit, "c", 1));
    EXPECT_EQ(EINVAL, strncat_s(nullptr, 8, "c", 1));
    EXPECT_STREQ("ab", dest.data());
    EXPECT_EQ(EINVAL_AND_RESET, strncat_s(dest.data(), dest.size(), nullptr, 1));
    EXPECT_EQ('\0', dest[0]);
    std::array<char, 8> tooLong{'a', 'b', '\0'};
    EXPECT_EQ(ERANGE_AND_RESET, strncat_s(tooLong.data(), tooLong.size(), "c", kAboveLimit));
    EXPECT_EQ('\0', tooLong[0]);
    std::array<char, 8> full{'a', 'b', '\0'};
    EXPECT_EQ(ERANGE_AND_RESET, strncat_s(full.data(), full.size(), "cdefghij", 6));
    EXPECT_EQ('\0', full[0]);
    auto unterminated = filled<8>();
    EXPECT_EQ(EINVAL_AND_RESET, strncat_s(unterminated.data(), unterminated.size(), "c", 1));
    std::array<char, 8> overlapping{'a', 'b', '\0'};
    EXPECT_EQ(EOVERLAP_AND_RESET, strncat_s(overlapping.data(), overlapping.size(), overlapping.data(), 2));
    EXPECT_EQ('\0', overlapping[0]);
}

TEST(SprintfS, FormatsAndReturnsTheLength) {
    auto dest = filled<16>();
    EXPECT_EQ(6, sprintf_s(dest.data(), dest.size(), "%s-%03d", "ab", 7));
    EXPECT_STREQ("ab-007", dest.data());
}

TEST(SprintfS, ViolationsReturnMinusOne) {
    auto dest = filled<8>();
    EXPECT_EQ(-1, sprintf_s(nullptr, 8, "%d", 1));
    EXPECT_EQ(-1, sprintf_s(dest.data(), 0, "%d", 1));
    EXPECT_EQ(-1, sprintf_s(dest.data(), kAboveLimit, "%d", 1));
    EXPECT_TRUE(all_bytes_are(dest, 'x'));
    EXPECT_EQ(-1, sprintf_s(dest.data(), dest.size(), nullptr));
    EXPECT_EQ('\0', dest[0]);
    dest = filled<8>();
    EXPECT_EQ(-1, sprintf_s(dest.data(), dest.size(), "%s", "12345678"));  // 8 characters + terminator > 8
    EXPECT_EQ('\0', dest[0]);
}

TEST(SnprintfS, TruncatesAtCountAndSaysSo) {
    auto dest = filled<16>();
    EXPECT_EQ(5, snprintf_s(dest.data(), dest.size(), 10, "%d", 12345));
    EXPECT_STREQ("12345", dest.data());
    EXPECT_EQ(-1, snprintf_s(dest.data(), dest.size(), 3, "%d", 12345));
    EXPECT_STREQ("123", dest.data()) << "the text up to count stays, terminated";
}

TEST(SnprintfS, CountNotBelowDestMaxBoundsByDestMax) {
    auto dest = filled<8>();
    EXPECT_EQ(7, snprintf_s(dest.data(), dest.size(), 100, "%s", "1234567"));
    EXPECT_STREQ("1234567", dest.data());
    EXPECT_EQ(-1, snprintf_s(dest.data(), dest.size(), 100, "%s", "12345678"));
    EXPECT_EQ('\0', dest[0]);
}

TEST(SnprintfS, ViolationsReturnMinusOne) {
    auto dest = filled<8>();
    EXPECT_EQ(-1, snprintf_s(nullptr, 8, 4, "%d", 1));
    EXPECT_EQ(-1, snprintf_s(dest.data(), 0, 4, "%d", 1));
    EXPECT_EQ(-1, snprintf_s(dest.data(), kAboveLimit, 4, "%d", 1));
    EXPECT_TRUE(all_bytes_are(dest, 'x'));
    EXPECT_EQ(-1, snprintf_s(dest.data(), dest.size(), 4, nullptr));
    EXPECT_EQ('\0', dest[0]);
}

int forward_vsnprintf(char* dest, size_t destMax, size_t count, const char* format, ...) {
    va_list args;
    va_start(args, format);
    const int length = vsnprintf_s(dest, destMax, count, format, args);
    va_end(args);
    return length;
}

int forward_vsprintf(char* dest, size_t destMax, const char* format, ...) {
    va_list args;
    va_start(args, format);
    const int length = vsprintf_s(dest, destMax, format, args);
    va_end(args);
    return length;
}

TEST(VprintfS, TheVaListFormsBehaveAsTheVariadicOnes) {
    auto dest = filled<8>();
    EXPECT_EQ(3, forward_vsprintf(dest.data(), dest.size(), "%c%c%c", 'a', 'b', 'c'));
    EXPECT_STREQ("abc", dest.data());
    EXPECT_EQ(-1, forward_vsprintf(dest.data(), dest.size(), "%s", "too long!"));
    EXPECT_EQ('\0', dest[0]);
    EXPECT_EQ(-1, forward_vsnprintf(dest.data(), dest.size(), 2, "%s", "abc"));
    EXPECT_STREQ("ab", dest.data());
}

}  // namespace
