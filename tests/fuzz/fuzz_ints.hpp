// The integer arguments of the operator fuzz targets (fuzz_layout,
// fuzz_rows): a dim, a diagonal, a shift or an implMode as one byte, and
// integer lists (aclIntArray), both sometimes wild.
#pragma once

#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"
#include "fuzz_support.hpp"

namespace aclcpu::fuzz {

/// A small int (b % 32 - 10), or for byte 255 a raw 8-byte word.
inline int64_t int_of(Decoder& in) {
    const uint8_t choice = in.byte();
    return choice == 255 ? static_cast<int64_t>(in.word()) : static_cast<int64_t>(choice % 32) - 10;
}

/// An aclIntArray of a count byte (% 10) of int_of values, or (rare) null;
/// destroyed with the object.
class Ints {
public:
    explicit Ints(Decoder& in) {
        std::vector<int64_t> values(in.byte() % 10);
        for (int64_t& value : values) value = int_of(in);
        if (!in.rare()) array_ = aclCreateIntArray(values.data(), values.size());
    }
    ~Ints() {
        if (array_ != nullptr) aclDestroyIntArray(array_);
    }
    Ints(const Ints&) = delete;
    Ints& operator=(const Ints&) = delete;
    const aclIntArray* get() const { return array_; }

private:
    aclIntArray* array_ = nullptr;
};

}  // namespace aclcpu::fuzz
