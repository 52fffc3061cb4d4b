// White-box tests of libhccl's full-mesh algorithms: which bytes each party
// moves (share_of), when the parties' calls disagree (disagreement), and the
// slicing of a count among ranks.  Pure functions on host buffers: the
// tests run every party's share in turn, as the ranks would, and compare
// with what the collective means.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "core/algorithms.hpp"
#include "core/reduction.hpp"

namespace {

using aclcpu::hccl::detail::CallArgs;
using aclcpu::hccl::detail::disagreement;
using aclcpu::hccl::detail::Kind;
using aclcpu::hccl::detail::Parties;
using aclcpu::hccl::detail::Piece;
using aclcpu::hccl::detail::Share;
using aclcpu::hccl::detail::share_of;
using aclcpu::hccl::detail::slice_of;

/// Runs every piece of a share the way run_share does, without threads.
void run(const Share& share) {
    for (const Piece& piece : share.pieces) {
        aclcpu::hccl::detail::reduce(share.op, share.dtype, piece.destinations.data(), piece.destinations.size(),
                                     piece.sources.data(), piece.sources.size(), piece.count);
    }
}

/// Byte ranges [begin, end) a piece list writes and reads.
struct Range {
    const char* begin;
    const char* end;
};
bool overlap(const Range& a, const Range& b) { return a.begin < b.end && b.begin < a.end; }

std::vector<Range> ranges(const std::vector<const void*>& starts, uint64_t bytes) {
    std::vector<Range> out;
    for (const void* start : starts) {
        const char* begin = static_cast<const char*>(start);
        out.push_back(Range{begin, begin + bytes});
    }
    return out;
}

std::vector<Range> written(const Piece& piece, size_t bytes) {
    return ranges(std::vector<const void*>(piece.destinations.begin(), piece.destinations.end()), piece.count * bytes);
}

std::vector<Range> read(const Piece& piece, size_t bytes) { return ranges(piece.sources, piece.count * bytes); }

/// What the kernel allows: a destination is a source exactly, or overlaps no
/// source and no other destination.
bool aliases_only_exactly(const Piece& piece, size_t bytes) {
    const std::vector<Range> out = written(piece, bytes), in = read(piece, bytes);
    for (size_t d = 0; d < out.size(); ++d) {
        for (const Range& r : in) {
            if (overlap(out[d], r) && (out[d].begin != r.begin || out[d].end != r.end)) return false;
        }
        for (size_t e = d + 1; e < out.size(); ++e) {
            if (overlap(out[d], out[e])) return false;
        }
    }
    return true;
}

/// Whether two pieces may run in parallel: neither writes what the other
/// reads or writes.
bool independent(const Piece& a, const Piece& b, size_t bytes) {
    for (const Range& w : written(a, bytes)) {
        for (const std::vector<Range>& other : {written(b, bytes), read(b, bytes)}) {
            for (const Range& r : other) {
                if (overlap(w, r)) return false;
            }
        }
    }
    for (const Range& w : written(b, bytes)) {
        for (const Range& r : read(a, bytes)) {
            if (overlap(w, r)) return false;
        }
    }
    return true;
}

struct Ranks {
    std::vector<std::vector<float>> send, recv;
    std::vector<CallArgs> args;

    Parties parties() const {
        Parties out;
        for (const CallArgs& a : args) out.push_back(&a);
        return out;
    }
};

/// n ranks of kind with `count`, rank r sending r * 100 + i; `inPlace`
/// makes recv the send buffer.
Ranks make_ranks(Kind kind, uint32_t n, uint64_t count, uint64_t sendElements, uint64_t recvElements, bool inPlace) {
    Ranks ranks;
    ranks.send.resize(n);
    ranks.recv.resize(n);
    for (uint32_t r = 0; r < n; ++r) {
        ranks.send[r].resize(sendElements);
        for (uint64_t i = 0; i < sendElements; ++i) ranks.send[r][i] = static_cast<float>(r * 100 + i);
        ranks.recv[r].assign(recvElements, -1.0f);
    }
    for (uint32_t r = 0; r < n; ++r) {
        CallArgs a;
        a.kind = kind;
        a.send = ranks.send[r].data();
        a.recv = inPlace ? ranks.send[r].data() : ranks.recv[r].data();
        a.count = count;
        a.dtype = HCCL_DATA_TYPE_FP32;
        a.recvType = HCCL_DATA_TYPE_FP32;
        a.op = HCCL_REDUCE_SUM;
        ranks.args.push_back(a);
    }
    return ranks;
}

TEST(HcclAlgorithms, SlicesCoverTheCountFrontLoaded) {
    for (uint32_t slices : {1u, 3u, 8u}) {
        for (uint64_t total : {0ull, 1ull, 7ull, 1001ull}) {
            uint64_t next = 0;
            for (uint32_t i = 0; i < slices; ++i) {
                const auto slice = slice_of(total, slices, i);
                EXPECT_EQ(slice.begin, next);
                EXPECT_LE(slice.count, total / slices + 1);
                EXPECT_GE(slice.count, total / slices);
                next += slice.count;
            }
            EXPECT_EQ(next, total) << total << " over " << slices;
        }
    }
}

// The bug this guards against: an in-place AllReduce whose copies of the
// reduced slice ran beside the reduction overwrote peers' inputs before they
// were read (a rank summed its own value several times).  Every party's
// pieces must be independent of each other, and within a piece the
// destinations may be sources only exactly (the kernel reads a chunk of
// every source before it writes that chunk anywhere).
TEST(HcclAlgorithms, AllReducePiecesAreIndependentAndAliasOnlyExactlyInPlace) {
    const uint32_t n = 4;
    Ranks ranks = make_ranks(Kind::kAllReduce, n, 1001, 1001, 1001, true);
    for (uint32_t r = 0; r < n; ++r) {
        const Share share = share_of(ranks.parties(), r);
        for (size_t a = 0; a < share.pieces.size(); ++a) {
            EXPECT_TRUE(aliases_only_exactly(share.pieces[a], sizeof(float))) << "rank " << r;
            for (size_t b = a + 1; b < share.pieces.size(); ++b) {
                EXPECT_TRUE(independent(share.pieces[a], share.pieces[b], sizeof(float))) << "rank " << r;
            }
        }
    }
}

/// Every party's share, run party by party as the ranks would (a slice is
/// only touched by its owner, so any order gives the same bytes).
void run_all(const Ranks& ranks) {
    const Parties parties = ranks.parties();
    for (uint32_t r = 0; r < parties.size(); ++r) run(share_of(parties, r));
}

TEST(HcclAlgorithms, AllReduceInPlaceAndOutOfPlaceSumInRankOrder) {
    for (bool inPlace : {false, true}) {
        const uint32_t n = 3;
        Ranks ranks = make_ranks(Kind::kAllReduce, n, 1001, 1001, 1001, inPlace);
        run_all(ranks);
        for (uint32_t r = 0; r < n; ++r) {
            const std::vector<float>& out = inPlace ? ranks.send[r] : ranks.recv[r];
            for (uint64_t i = 0; i < 1001; ++i) {
                const float expected = (0.0f + static_cast<float>(i)) + static_cast<float>(100 + i) +
                                       static_cast<float>(200 + i);
                ASSERT_EQ(out[i], expected) << "rank " << r << " element " << i << (inPlace ? " in place" : "");
            }
        }
    }
}

TEST(HcclAlgorithms, ReduceScatterAllGatherAndAlltoAllMoveTheirBlocks) {
    const uint32_t n = 4;
    const uint64_t block = 5;
    Ranks scatter = make_ranks(Kind::kReduceScatter, n, block, block * n, block, false);
    run_all(scatter);
    for (uint32_t r = 0; r < n; ++r) {
        for (uint64_t i = 0; i < block; ++i) {
            const uint64_t at = r * block + i;
            EXPECT_EQ(scatter.recv[r][i], static_cast<float>(0 + 100 + 200 + 300 + 4 * at));
        }
    }
    Ranks gather = make_ranks(Kind::kAllGather, n, block, block, block * n, false);
    run_all(gather);
    for (uint32_t r = 0; r < n; ++r) {
        for (uint64_t i = 0; i < block * n; ++i) {
            EXPECT_EQ(gather.recv[r][i], static_cast<float>(i / block * 100 + i % block));
        }
    }
    Ranks alltoall = make_ranks(Kind::kAlltoAll, n, block, block * n, block * n, false);
    for (CallArgs& a : alltoall.args) a.recvCount = block;
    run_all(alltoall);
    for (uint32_t r = 0; r < n; ++r) {
        for (uint64_t i = 0; i < block * n; ++i) {
            const uint64_t from = i / block;
            EXPECT_EQ(alltoall.recv[r][i], static_cast<float>(from * 100 + r * block + i % block));
        }
    }
}

TEST(HcclAlgorithms, AlltoAllVCPacksByTheCountMatrix) {
    const uint32_t n = 3;
    // Rank i sends (i + j) elements to rank j.
    std::vector<uint64_t> matrix;
    for (uint32_t i = 0; i < n; ++i) {
        for (uint32_t j = 0; j < n; ++j) matrix.push_back(i + j);
    }
    Ranks ranks = make_ranks(Kind::kAlltoAllVC, n, 0, 16, 16, false);
    for (CallArgs& a : ranks.args) a.countMatrix = matrix;
    run_all(ranks);
    for (uint32_t r = 0; r < n; ++r) {
        uint64_t at = 0;
        for (uint32_t i = 0; i < n; ++i) {
            uint64_t sendOffset = 0;
            for (uint32_t j = 0; j < r; ++j) sendOffset += i + j;
            for (uint64_t k = 0; k < i + r; ++k, ++at) {
                EXPECT_EQ(ranks.recv[r][at], static_cast<float>(i * 100 + sendOffset + k)) << "rank " << r;
            }
        }
        EXPECT_EQ(ranks.recv[r][at], -1.0f) << "rank " << r << " received past its share";
    }
}

TEST(HcclAlgorithms, DisagreementsNameWhatDiffers) {
    Ranks ranks = make_ranks(Kind::kAllReduce, 3, 8, 8, 8, false);
    EXPECT_EQ(disagreement(ranks.parties()), "");
    ranks.args[2].count = 9;
    EXPECT_NE(disagreement(ranks.parties()).find("count"), std::string::npos);
    ranks.args[2].count = 8;
    ranks.args[1].dtype = HCCL_DATA_TYPE_INT32;
    EXPECT_NE(disagreement(ranks.parties()).find("data type"), std::string::npos);
    ranks.args[1].dtype = HCCL_DATA_TYPE_FP32;
    ranks.args[1].op = HCCL_REDUCE_MAX;
    EXPECT_NE(disagreement(ranks.parties()).find("reduce op"), std::string::npos);
    ranks.args[1].op = HCCL_REDUCE_SUM;
    ranks.args[0].kind = Kind::kBroadcast;
    EXPECT_NE(disagreement(ranks.parties()).find("HcclBroadcast"), std::string::npos);
}

TEST(HcclAlgorithms, AlltoAllVDisagreesWhenASendIsNotTheMatchingReceive) {
    const uint32_t n = 2;
    Ranks ranks = make_ranks(Kind::kAlltoAllV, n, 0, 8, 8, false);
    for (CallArgs& a : ranks.args) {
        a.sendCounts = {2, 2};
        a.sendDispls = {0, 2};
        a.recvCounts = {2, 2};
        a.recvDispls = {0, 2};
    }
    EXPECT_EQ(disagreement(ranks.parties()), "");
    ranks.args[1].recvCounts = {3, 2};
    EXPECT_NE(disagreement(ranks.parties()).find("rank 0 sends 2 elements to rank 1, which expects 3"),
              std::string::npos);
}

}  // namespace
