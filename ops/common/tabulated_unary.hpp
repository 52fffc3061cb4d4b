// acl-cpu ops/common: unary operators on 16-bit floats, by table.
//
// A FLOAT16 or BF16 input has 65,536 values.  A unary operator computes in
// fp32 and rounds once (elementwise-inl.h), so its result is a function of
// the input's bit pattern alone; over a large tensor, computing that
// function for every pattern once and looking each element up costs two
// loads and a store per element, where the transcendental functions cost
// tens of vector operations per element, more than the memory they stream.
// The table is filled by the operator's own block function, on the same
// path a launch takes, so a looked-up element is bit for bit the element the
// vector kernel writes.
#pragma once

#include "common/internal.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <new>

#include "common/elementwise.hpp"

namespace aclcpu::ops {

/// Every 16-bit pattern's result, indexed by the input's bits.
using HalfTable = std::unique_ptr<const uint16_t[]>;

/// Unary launches of at least this many elements are tabulated: the
/// table costs what computing 65,536 elements costs, at most 1/16 of the
/// launch, and lookups stream at the speed of memory whatever the function.
inline constexpr int64_t kTabulatedElements = int64_t{1} << 20;

/// Whether a launch over operands is tabulated: FLOAT16 or BF16 throughout,
/// streamed (ElementwiseOperands::streamed_dtype), kTabulatedElements or more.
bool tabulates(const ElementwiseOperands<1>& operands) noexcept;

/// The 65,536 16-bit patterns in order: the input a table is computed from.
const uint16_t* every_half_pattern() noexcept;

/// The table of the unary operator whose block function is Block, with
/// params, in dtype (FLOAT16 or BF16); nullptr when the host is out of
/// memory (the caller computes instead).
template <class Params, void (*Block)(const ElementwiseJob<1>&, const BlockSlice&, const Params&)>
HalfTable tabulate(aclDataType dtype, const Params& params) noexcept {
    constexpr int64_t kPatterns = 65536;
    std::unique_ptr<uint16_t[]> table(new (std::nothrow) uint16_t[kPatterns]);
    if (table == nullptr) return nullptr;
    const ElementwiseTiling tiling{BlockSplit(), kPatterns};
    const ElementwiseOperands<1> operands{{StridedLayout::linear(kPatterns, dtype)},
                                          StridedLayout::linear(kPatterns, dtype), dtype};
    const void* inputs[] = {every_half_pattern()};
    void* outputs[] = {table.get()};
    const LaunchArgs args{inputs, outputs, nullptr, 0};
    const ElementwiseJob<1> job{tiling, operands, args, UbStaging::per_worker(0), operands.streamed_dtype()};
    Block(job, BlockSlice{0, Range{0, kPatterns}}, params);
    return table;
}

/// The kernel of a tabulated launch: each element of the output's blocks
/// looked up, run by run of the input.  Immutable; launch() may run
/// concurrently.
class TabulatedUnaryKernel final : public TiledKernel {
public:
    TabulatedUnaryKernel(const char* name, ElementwiseTiling tiling, ElementwiseOperands<1> operands,
                         HalfTable table) noexcept
        : TiledKernel(name, tiling), operands_(operands), table_(std::move(table)) {}

    aclError launch(const LaunchArgs& args) const noexcept override;

private:
    ElementwiseOperands<1> operands_;
    HalfTable table_;
};

}  // namespace aclcpu::ops
