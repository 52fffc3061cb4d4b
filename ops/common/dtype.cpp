// acl-cpu ops/common: dtype support lists, promotion and CanCast.
#include "common/dtype.hpp"

#include <algorithm>

namespace aclcpu::ops {

bool contains(DtypeList list, aclDataType dtype) noexcept {
    return std::find(list.begin(), list.end(), dtype) != list.end();
}

std::string dtype_list_string(DtypeList list) {
    std::string text = "[";
    for (aclDataType dtype : list) {
        if (text.size() > 1) text += ',';
        text += dtype_name(dtype);
    }
    return text + "]";
}

namespace {

bool is_wide_unsigned(aclDataType dtype) noexcept {
    return dtype == ACL_UINT16 || dtype == ACL_UINT32 || dtype == ACL_UINT64;
}

/// Position in the widening order of one category; a larger rank wins.
int rank_in_category(aclDataType dtype) noexcept {
    switch (dtype) {
        case ACL_UINT8: return 0;
        case ACL_INT8: return 1;
        case ACL_INT16: return 2;
        case ACL_INT32: return 3;
        case ACL_INT64: return 4;
        case ACL_FLOAT16: case ACL_BF16: return 0;
        case ACL_FLOAT: return 1;
        case ACL_DOUBLE: return 2;
        case ACL_COMPLEX32: return 0;
        case ACL_COMPLEX64: return 1;
        case ACL_COMPLEX128: return 2;
        default: return -1;
    }
}

aclDataType wider(aclDataType a, aclDataType b) noexcept {
    return rank_in_category(a) >= rank_in_category(b) ? a : b;
}

aclDataType promote_integral(aclDataType a, aclDataType b) noexcept {
    // UINT8 with INT8 needs a type holding both ranges.
    if ((a == ACL_UINT8 && b == ACL_INT8) || (a == ACL_INT8 && b == ACL_UINT8)) return ACL_INT16;
    return wider(a, b);
}

aclDataType promote_floating(aclDataType a, aclDataType b) noexcept {
    // FLOAT16 and BF16 have the same rank but neither holds the other.
    if (rank_in_category(a) == 0 && rank_in_category(b) == 0) return ACL_FLOAT;
    return wider(a, b);
}

/// The complex dtype whose parts are at least as wide as floating dtype f.
aclDataType complex_holding(aclDataType f) noexcept {
    switch (f) {
        case ACL_DOUBLE: return ACL_COMPLEX128;
        case ACL_FLOAT: return ACL_COMPLEX64;
        default: return ACL_COMPLEX32;
    }
}

}  // namespace

aclDataType promote_types(aclDataType a, aclDataType b) noexcept {
    if (a == b) return a;
    if (a == ACL_BOOL) return b;
    if (b == ACL_BOOL) return a;
    if (is_wide_unsigned(a) || is_wide_unsigned(b)) return ACL_DT_UNDEFINED;
    if (is_complex(a) && is_complex(b)) return wider(a, b);
    if (is_complex(a) || is_complex(b)) {
        const aclDataType c = is_complex(a) ? a : b;
        const aclDataType other = is_complex(a) ? b : a;
        return is_floating(other) ? wider(c, complex_holding(other)) : c;
    }
    if (is_floating(a) && is_floating(b)) return promote_floating(a, b);
    if (is_floating(a)) return is_integral(b) ? a : ACL_DT_UNDEFINED;
    if (is_floating(b)) return is_integral(a) ? b : ACL_DT_UNDEFINED;
    if (is_integral(a) && is_integral(b)) return promote_integral(a, b);
    return ACL_DT_UNDEFINED;
}

bool can_cast(aclDataType from, aclDataType to) noexcept {
    if (is_complex(from) && !is_complex(to)) return false;
    if (is_floating(from) && (is_integral(to) || to == ACL_BOOL)) return false;
    if (from != ACL_BOOL && to == ACL_BOOL) return false;
    return true;
}

}  // namespace aclcpu::ops
