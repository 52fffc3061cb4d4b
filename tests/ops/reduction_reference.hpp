// What the reduction engine's tests (ops/reduce, ops/lp_norm) share to build
// their double references: a reduced shape, a dim list for a mask, where
// each input element's output is, the comparison of a result rounded into
// its dtype, and a fixture running both phases.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace optest {

/// shape with the dims in mask dropped, or 1 with keepDim.
inline Shape reduced(const Shape& shape, uint32_t mask, bool keepDim) {
    Shape out;
    for (size_t d = 0; d < shape.size(); ++d) {
        if ((mask >> d & 1u) == 0) out.push_back(shape[d]);
        else if (keepDim) out.push_back(1);
    }
    return out;
}

/// The dims in mask as a dim list; negative dims for odd masks (they wrap).
inline std::vector<int64_t> dims_of(uint32_t mask, size_t rank) {
    std::vector<int64_t> dims;
    for (size_t d = 0; d < rank; ++d) {
        if ((mask >> d & 1u) != 0) dims.push_back((mask & 1u) != 0 ? int64_t(d) - int64_t(rank) : int64_t(d));
    }
    return dims;
}

/// The row-major index, among the outputs of reducing shape over mask, of
/// the output that input element i (row-major) goes to.
inline int64_t output_of(int64_t i, const Shape& shape, uint32_t mask) {
    int64_t rest = i;
    int64_t o = 0;
    int64_t scale = 1;
    for (size_t d = shape.size(); d-- > 0;) {
        const int64_t index = rest % shape[d];
        rest /= shape[d];
        if ((mask >> d & 1u) != 0) continue;
        o += index * scale;
        scale *= shape[d];
    }
    return o;
}

/// The reduction tests' fixture: an operator's both phases.
class ReductionTest : public AclTest {
protected:
    /// Both phases of phase1(args...); *workspace (optional) receives the
    /// size phase 1 asked for.
    template <class Entry, class... Args>
    aclnnStatus two_phases(Entry phase1, Phase2 phase2, uint64_t* workspace, const Args&... args) {
        return run_two_phases(
            [&](uint64_t* size, aclOpExecutor** executor) { return phase1(args..., size, executor); }, phase2,
            stream_, workspace);
    }
};

/// out against a double reference rounded once into dtype (the result the
/// operator stores): exact for integer dtypes, tolerance_for otherwise.
inline void expect_rounded_into(const DeviceTensor& out, std::vector<double> expected, aclDataType dtype) {
    for (double& e : expected) e = in_dtype(e, dtype);
    expect_close(out.read(), expected, is_integral(dtype) ? Tolerance{0, 0} : tolerance_for(dtype));
}

}  // namespace optest
