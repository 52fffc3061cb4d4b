// CANN's dtype rules as the operator tests model them, in double precision
// (std::complex<double> for complex values): how a value is held in a dtype,
// how CANN's Cast converts it (hicann/ops-math
// docs/zh/context/conversion_relationship.md), deterministic inputs of any
// dtype, and the tolerance of a result against such a reference.  Written
// for the tests, never with the library's kernels.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ops/op_test_support.hpp"

namespace optest {

// ---------------------------------------------------------------------------
// Dtypes.

inline bool is_floating(aclDataType t) {
    return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_DOUBLE || t == ACL_BF16;
}
inline bool is_complex(aclDataType t) { return t == ACL_COMPLEX64 || t == ACL_COMPLEX128; }
/// Integer dtypes, BOOL not included (as CANN's IsIntegralType counts them
/// without its includeBool flag).
inline bool is_integral(aclDataType t) {
    return t == ACL_INT8 || t == ACL_INT16 || t == ACL_INT32 || t == ACL_INT64 || t == ACL_UINT8 ||
           t == ACL_UINT16 || t == ACL_UINT32 || t == ACL_UINT64;
}

/// CANN's name of a dtype, for traces.
inline std::string name(aclDataType t) {
    switch (t) {
        case ACL_FLOAT: return "DT_FLOAT";
        case ACL_FLOAT16: return "DT_FLOAT16";
        case ACL_DOUBLE: return "DT_DOUBLE";
        case ACL_BF16: return "DT_BF16";
        case ACL_INT8: return "DT_INT8";
        case ACL_UINT8: return "DT_UINT8";
        case ACL_INT16: return "DT_INT16";
        case ACL_UINT16: return "DT_UINT16";
        case ACL_INT32: return "DT_INT32";
        case ACL_UINT32: return "DT_UINT32";
        case ACL_INT64: return "DT_INT64";
        case ACL_UINT64: return "DT_UINT64";
        case ACL_BOOL: return "DT_BOOL";
        case ACL_COMPLEX64: return "DT_COMPLEX64";
        case ACL_COMPLEX128: return "DT_COMPLEX128";
        default: return "dtype " + std::to_string(static_cast<int>(t));
    }
}

// ---------------------------------------------------------------------------
// Values as the device holds them.

/// [min, max] of an integer dtype.
inline std::pair<double, double> integer_range(aclDataType t) {
    switch (t) {
        case ACL_INT8: return {-128.0, 127.0};
        case ACL_UINT8: return {0.0, 255.0};
        case ACL_INT16: return {-32768.0, 32767.0};
        case ACL_UINT16: return {0.0, 65535.0};
        case ACL_INT32: return {-2147483648.0, 2147483647.0};
        case ACL_UINT32: return {0.0, 4294967295.0};
        case ACL_INT64: return {-0x1p63, 0x1p63};  // as close as a double gets
        default: return {0.0, 0x1p64};
    }
}

/// A finite integer value wrapped modulo 2^bits into integer dtype t (exact
/// for |v| < 2^53).
inline double wrap(double v, aclDataType t) {
    const auto [lo, hi] = integer_range(t);
    const double span = hi - lo + 1;
    if (t == ACL_INT64) return v;  // the tests stay inside the range
    if (t == ACL_UINT64) return v < 0 ? v + 0x1p64 : v;  // two's complement, as near as a double gets
    double m = std::fmod(v - lo, span);
    if (m < 0) m += span;
    return m + lo;
}

/// A floating value converted to integer dtype t: truncated toward zero and
/// saturated, NaN giving 0 (acl-cpu's float -> integer cast, which also
/// defines integer division by zero: 1/0 -> max, -1/0 -> min, 0/0 -> 0).
inline double saturate(double v, aclDataType t) {
    if (std::isnan(v)) return 0;
    const auto [lo, hi] = integer_range(t);
    const double r = std::trunc(v);
    return r < lo ? lo : r > hi ? hi : r;
}

/// An exact result as it is once computed in dtype t: floats round to
/// nearest even, integers wrap (and follow saturate() for inf / NaN, which
/// only integer division by zero produces), BOOL is value != 0.
inline double in_dtype(double v, aclDataType t) {
    if (t == ACL_BOOL) return v != 0 ? 1.0 : 0.0;
    if (is_integral(t)) return std::isfinite(v) ? wrap(std::trunc(v), t) : saturate(v, t);
    return representable(v, t);
}
inline Complex in_dtype(Complex v, aclDataType t) {
    if (is_complex(t)) return representable(v, t);
    return {in_dtype(v.real(), t), 0.0};
}

/// value, held in dtype from, cast to dtype to as CANN's Cast does: to BOOL
/// is != 0, floating (or a complex's real part) -> integer truncates and
/// saturates (NaN -> 0), integer -> integer wraps, anything -> floating rounds.
inline double cast(double v, aclDataType from, aclDataType to) {
    if (to == ACL_BOOL) return v != 0 ? 1.0 : 0.0;
    if (is_integral(to)) return is_floating(from) || is_complex(from) ? saturate(v, to) : wrap(v, to);
    return representable(v, to);
}
inline Complex cast(Complex v, aclDataType from, aclDataType to) {
    if (is_complex(to)) return representable(v, to);
    return {cast(v.real(), from, to), 0.0};
}

// ---------------------------------------------------------------------------
// Inputs.

/// n deterministic values of dtype t in [lo, hi): integers rounded (and
/// kept inside t's range), BOOL a mix of 0 and 1, complex numbers with an
/// imaginary part from the same range.  Already representable in t.
inline std::vector<Complex> sample(aclDataType t, size_t n, uint32_t seed, double lo = -4, double hi = 4) {
    const std::vector<double> re = uniform(n, lo, hi, seed);
    const std::vector<double> im = uniform(n, lo, hi, seed + 7919);
    std::vector<Complex> values(n);
    for (size_t i = 0; i < n; ++i) {
        double v = re[i];
        if (t == ACL_BOOL) {
            v = (i % 3 == 1) ? 0 : (re[i] > (lo + hi) / 2 ? 1 : 0);
        } else if (is_integral(t)) {
            const auto [tlo, thi] = integer_range(t);
            v = std::min(std::max(std::round(v), tlo), thi);
            if (t == ACL_UINT8 && re[i] < 0) v = std::round(-re[i]);
        }
        values[i] = {v, is_complex(t) ? im[i] : 0.0};
    }
    return representable(values, t);
}

/// Real values as complex numbers (imaginary part 0).
inline std::vector<Complex> complexes(const std::vector<double>& values) {
    return std::vector<Complex>(values.begin(), values.end());
}

// ---------------------------------------------------------------------------
// Comparison.

/// Tolerance of a result computed in compute and stored in out, against a
/// reference that already rounds to compute: the coarser of the two floating
/// dtypes (DOUBLE to a few double ulps); exact when both are integers or BOOL.
inline Tolerance tolerance_of(aclDataType compute, aclDataType out) {
    const auto rank = [](aclDataType t) {
        switch (t) {
            case ACL_BF16: return 1;
            case ACL_FLOAT16: return 2;
            case ACL_FLOAT: case ACL_COMPLEX64: return 3;
            case ACL_DOUBLE: case ACL_COMPLEX128: return 4;
            default: return 5;  // integers, BOOL: no rounding of their own
        }
    };
    const aclDataType coarser = rank(compute) <= rank(out) ? compute : out;
    switch (rank(coarser)) {
        case 1: return tolerance_for(ACL_BF16);
        case 2: return tolerance_for(ACL_FLOAT16);
        case 3: return tolerance_for(ACL_FLOAT);
        case 4: return {1e-14, 1e-300};
        default: return {0, 0};
    }
}

/// Every element within tol of the reference (complex: |actual - expected|
/// <= atol + rtol * |expected|, NaN and infinite parts matched exactly).
inline void expect_close(const std::vector<Complex>& actual, const std::vector<Complex>& expected, Tolerance tol) {
    ASSERT_EQ(actual.size(), expected.size());
    int reported = 0;
    for (size_t i = 0; i < actual.size(); ++i) {
        const Complex a = actual[i], e = expected[i];
        bool ok;
        if (!std::isfinite(e.real()) || !std::isfinite(e.imag())) {
            ok = optest::close(a.real(), e.real(), {0, 0}) && optest::close(a.imag(), e.imag(), {0, 0});
        } else {
            ok = std::abs(a - e) <= tol.atol + tol.rtol * std::abs(e);
        }
        if (ok) continue;
        ADD_FAILURE() << "element " << i << ": got " << a << ", expected " << e << " (rtol " << tol.rtol
                      << ", atol " << tol.atol << ")";
        if (++reported == 10) return;
    }
}

/// Bit-level expectations where the value alone says too little: each
/// element equal to the expected one, NaN matching NaN and the sign of a
/// zero matching (so -0.0 is not +0.0).
inline void expect_identical(const std::vector<double>& actual, const std::vector<double>& expected) {
    ASSERT_EQ(actual.size(), expected.size());
    for (size_t i = 0; i < actual.size(); ++i) {
        const double a = actual[i], e = expected[i];
        const bool same = std::isnan(e) ? std::isnan(a) : (a == e && std::signbit(a) == std::signbit(e));
        EXPECT_TRUE(same) << "element " << i << ": got " << a << ", expected " << e;
    }
}

}  // namespace optest
