/*
 * acl-cpu: AscendCL on the CPU.
 *
 * securec.h -- the bounded memory and string functions CANN's toolkit ships
 * as securec (the openEuler libboundscheck library): memcpy_s, memmove_s,
 * memset_s, strcpy_s, strncpy_s, strcat_s, strncat_s and the *printf_s
 * family, with their errno_t return codes.  Declarations only, as
 * libboundscheck declares them; a program that calls them links a securec
 * library (libc_sec, libboundscheck) as it does with CANN.  C99 and C++11
 * clean.
 */
#ifndef SECUREC_H_5D13A042_DC3F_4ED9_A8D1_882811274C27
#define SECUREC_H_5D13A042_DC3F_4ED9_A8D1_882811274C27

#include <stdarg.h>
#include <stddef.h>
#include <errno.h>

/* errno_t, unless the C library provides it (C11 Annex K with __STDC_WANT_LIB_EXT1__). */
#if defined(SECUREC_NEED_ERRNO_TYPE) || !defined(__STDC_WANT_LIB_EXT1__) || \
    (defined(__STDC_WANT_LIB_EXT1__) && (!__STDC_WANT_LIB_EXT1__))
#ifndef SECUREC_DEFINED_ERRNO_TYPE
#define SECUREC_DEFINED_ERRNO_TYPE
#ifndef errno_t
typedef int errno_t;
#endif
#endif
#endif

/* Return codes: EOK on success; the *_AND_RESET codes say the destination was cleared. */
#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET 150
#endif
#ifndef ERANGE
#define ERANGE 34
#endif
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET 162
#endif
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET 182
#endif

/* How the functions are declared (extern unless a DLL build says otherwise). */
#ifndef SECUREC_API
#if defined(SECUREC_DLL_EXPORT)
#if defined(_MSC_VER)
#define SECUREC_API __declspec(dllexport)
#else
#define SECUREC_API __attribute__((visibility("default")))
#endif
#elif defined(SECUREC_DLL_IMPORT)
#if defined(_MSC_VER)
#define SECUREC_API __declspec(dllimport)
#else
#define SECUREC_API
#endif
#else
#if defined(_MSC_VER)
#define SECUREC_API
#else
#define SECUREC_API extern
#endif
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Memory: destMax is the size of dest in bytes; count bytes are set, moved or copied. */
SECUREC_API errno_t memset_s(void* dest, size_t destMax, int c, size_t count);
SECUREC_API errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count);
SECUREC_API errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count);

/* Strings: destMax counts the terminating null character. */
SECUREC_API errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc);
SECUREC_API errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count);
SECUREC_API errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc);
SECUREC_API errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count);

/* Formatted output: the number of characters written, or -1 on error (and on truncation for the n forms). */
SECUREC_API int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList);
SECUREC_API int sprintf_s(char* strDest, size_t destMax, const char* format, ...);
SECUREC_API int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list argList);
SECUREC_API int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...);

#ifdef __cplusplus
}
#endif

#endif /* SECUREC_H_5D13A042_DC3F_4ED9_A8D1_882811274C27 */
