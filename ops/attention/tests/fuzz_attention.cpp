// Fuzzes phase 1 (and, for small tensors, phase 2) of
// aclnnFusedInferAttentionScoreV2/V3/V4, the attention engine: tensors query, key,
// value, pseShift, attenMask, attentionOut, softmaxLse; a layout byte (% 7:
// BNSD, BSND, BSH, BNSD_BSND, TND, SH, a null string); ints numHeads,
// numKeyValueHeads, preTokens, nextTokens, sparseMode, innerPrecise (int_of);
// a softmaxLseFlag bit; a byte whose bits put a second tensor in the key and
// value lists (bit 0), pass a null key list (bit 1), pass a blockTable (bit
// 2, a refused path), choose the entry (bits 3-4: V3 for 2, V4 for 3, else
// V2) and, in V3 and V4, pass a queryRope (bit 5, a refused path).
// tests/fuzz/make_seeds.py (attention_seeds) writes the seeds.
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v3.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v4.h"
#include "aclcpu_testkit/tensor_copy.hpp"
#include "fuzz_support.hpp"

namespace {

/// An aclTensorList of copies of tensors (null ones skipped), destroyed with it.
class KvList {
public:
    KvList(const aclTensor* tensor, bool twice, bool null) {
        if (null || tensor == nullptr) return;
        const aclTensor* copies[2] = {aclcpu::testkit::copy_tensor(tensor), nullptr};
        if (twice) copies[1] = aclcpu::testkit::copy_tensor(tensor);
        list_ = aclCreateTensorList(copies, twice ? 2 : 1);
    }
    ~KvList() {
        if (list_ != nullptr) aclDestroyTensorList(list_);
    }
    KvList(const KvList&) = delete;
    KvList& operator=(const KvList&) = delete;
    const aclTensorList* get() const { return list_; }

private:
    aclTensorList* list_ = nullptr;
};

}  // namespace

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    static char layouts[][10] = {"BNSD", "BSND", "BSH", "BNSD_BSND", "TND", "SH"};
    const aclTensor* query = call.input(in.tensor());
    const aclTensor* key = call.input(in.tensor());
    const aclTensor* value = call.input(in.tensor());
    const aclTensor* pse = call.input(in.tensor());
    const aclTensor* mask = call.input(in.tensor());
    const aclTensor* out = call.output(in.tensor());
    const aclTensor* lse = call.output(in.tensor());
    const uint8_t layoutChoice = in.byte() % 7;
    char* layout = layoutChoice < 6 ? layouts[layoutChoice] : nullptr;
    const int64_t numHeads = int_of(in);
    const int64_t numKvHeads = int_of(in);
    const int64_t preTokens = int_of(in);
    const int64_t nextTokens = int_of(in);
    const int64_t sparseMode = int_of(in);
    const int64_t innerPrecise = int_of(in);
    const bool lseFlag = in.bit();
    const uint8_t lists = in.byte();
    const KvList keys(key, (lists & 1) != 0, (lists & 2) != 0);
    const KvList values(value, (lists & 1) != 0, false);
    const aclTensor* blockTable = (lists & 4) != 0 ? mask : nullptr;
    const aclTensor* rope = (lists & 32) != 0 ? mask : nullptr;
    const double scale = 1.0 / 8;
    const aclTensor* const none = nullptr;
    const aclIntArray* const noInts = nullptr;
    switch ((lists >> 3) & 3) {
        case 2:
            call.run(ACLCPU_FUZZ_API(aclnnFusedInferAttentionScoreV3), in, query, keys.get(), values.get(), pse, mask,
                     noInts, noInts, none, none, none, none, none, none, none, blockTable, none, none, none, none,
                     none, none, none, none, noInts, rope, none, none, numHeads, scale, preTokens, nextTokens, layout,
                     numKvHeads, sparseMode, innerPrecise, int64_t{0}, int64_t{0}, lseFlag, int64_t{0}, int64_t{0},
                     out, lse);
            break;
        case 3:
            call.run(ACLCPU_FUZZ_API(aclnnFusedInferAttentionScoreV4), in, query, keys.get(), values.get(), pse, mask,
                     noInts, noInts, none, none, none, none, none, none, none, blockTable, none, none, none, none,
                     none, none, none, none, noInts, rope, none, none, none, none, numHeads, scale, preTokens,
                     nextTokens, layout, numKvHeads, sparseMode, innerPrecise, int64_t{0}, int64_t{0}, lseFlag,
                     int64_t{0}, int64_t{0}, int64_t{0}, out, lse);
            break;
        default:
            call.run(ACLCPU_FUZZ_API(aclnnFusedInferAttentionScoreV2), in, query, keys.get(), values.get(), pse, mask,
                     noInts, noInts, none, none, none, none, none, none, none, blockTable, none, none, none, none,
                     none, none, none, none, noInts, numHeads, scale, preTokens, nextTokens, layout, numKvHeads,
                     sparseMode, innerPrecise, int64_t{0}, int64_t{0}, lseFlag, int64_t{0}, int64_t{0}, out, lse);
    }
}
