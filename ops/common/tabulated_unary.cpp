#include "common/tabulated_unary.hpp"

#include <algorithm>

namespace aclcpu::ops {

bool tabulates(const ElementwiseOperands<1>& operands) noexcept {
    const aclDataType dtype = operands.streamed_dtype();
    return (dtype == ACL_FLOAT16 || dtype == ACL_BF16) && operands.output.numel() >= kTabulatedElements;
}

const uint16_t* every_half_pattern() noexcept {
    static const auto patterns = [] {
        std::array<uint16_t, 65536> all{};
        for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint16_t>(i);
        return all;
    }();
    return patterns.data();
}

aclError TabulatedUnaryKernel::launch(const LaunchArgs& args) const noexcept {
    if (aclError status = check_tensor_addresses(name_, args, 1, 1); status != ACL_SUCCESS) return status;
    const StridedLayout& input = operands_.inputs[0];
    const auto* source = static_cast<const uint16_t*>(args.inputs[0]);
    uint16_t* out = static_cast<uint16_t*>(args.outputs[0]) + operands_.output.offset();
    const uint16_t* table = table_.get();
    return launch_block_slices(name_, tiling_.blocks, 2 * int64_t{sizeof(uint16_t)}, tiling_.chunkElements,
                               [&](const BlockSlice& slice) {
        for (int64_t begin = slice.units.begin; begin < slice.units.end;) {
            const int64_t length = std::min(slice.units.end - begin, input.run_length_at(begin));
            const uint16_t* from = source + input.position_of(begin);
            uint16_t* to = out + begin;
            for (int64_t i = 0; i < length; ++i) to[i] = table[from[i]];
            begin += length;
        }
    });
}

}  // namespace aclcpu::ops
