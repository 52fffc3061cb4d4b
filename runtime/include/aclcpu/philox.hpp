// acl-cpu runtime interface: Philox4x32-10, the counter-based generator of
// the device's random numbers -- the runtime's random-number task
// (aclrtRandomNumAsync) and the dropout operators' masks draw from this one
// definition, so that a mask is the same whoever computes it.
#pragma once

#include <array>
#include <cstdint>

namespace aclcpu {

/// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
/// 3"): a 128-bit counter and a 64-bit key (the seed); each counter value
/// gives a block of four 32-bit words, and consecutive calls walk the
/// counter.  Header-only: the operator libraries use it without a call into
/// libascendcl.
class Philox4x32 {
public:
    using Counter = std::array<uint32_t, 4>;

    constexpr Philox4x32(uint64_t seed, const Counter& counter) noexcept
        : key_{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}, counter_(counter) {}

    /// counter + steps, as a 128-bit little-endian integer (wrapping): where
    /// a generator that has used `steps` blocks continues, so that a tile
    /// can start its own generator in the middle of a stream.
    static constexpr Counter advanced(Counter counter, uint64_t steps) noexcept {
        uint64_t carry = steps;
        for (uint32_t& word : counter) {
            const uint64_t sum = uint64_t{word} + (carry & 0xFFFFFFFFu);
            word = static_cast<uint32_t>(sum);
            carry = (carry >> 32) + (sum >> 32);
        }
        return counter;
    }

    constexpr uint32_t next32() noexcept {
        if (used_ == block_.size()) refill();
        return block_[used_++];
    }
    constexpr uint64_t next64() noexcept {
        const uint64_t low = next32();
        return low | (uint64_t{next32()} << 32);
    }
    /// Uniform in [0, 1) with 53 random bits: the upper bits of next64().
    constexpr double next_unit() noexcept { return static_cast<double>(next64() >> 11) * 0x1.0p-53; }

private:
    static constexpr uint32_t kMultiplier0 = 0xD2511F53u;
    static constexpr uint32_t kMultiplier1 = 0xCD9E8D57u;
    static constexpr uint32_t kWeyl0 = 0x9E3779B9u;
    static constexpr uint32_t kWeyl1 = 0xBB67AE85u;
    static constexpr int kRounds = 10;

    constexpr void refill() noexcept {
        Counter state = counter_;
        std::array<uint32_t, 2> key = key_;
        for (int round = 0; round < kRounds; ++round) {
            const uint64_t product0 = uint64_t{kMultiplier0} * state[0];
            const uint64_t product1 = uint64_t{kMultiplier1} * state[2];
            state = {static_cast<uint32_t>(product1 >> 32) ^ state[1] ^ key[0], static_cast<uint32_t>(product1),
                     static_cast<uint32_t>(product0 >> 32) ^ state[3] ^ key[1], static_cast<uint32_t>(product0)};
            key[0] += kWeyl0;
            key[1] += kWeyl1;
        }
        block_ = state;
        used_ = 0;
        counter_ = advanced(counter_, 1);
    }

    std::array<uint32_t, 2> key_;
    Counter counter_;
    Counter block_{};
    unsigned used_ = 4;
};

}  // namespace aclcpu
