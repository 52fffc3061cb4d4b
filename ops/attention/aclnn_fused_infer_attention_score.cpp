// acl-cpu: aclnnFusedInferAttentionScoreV2/V3/V4, CANN's fused inference attention
// (ops-transformer attention/fused_infer_attention_score), its non-quantised
// Atlas A2 paths: query, key, value and attentionOut FLOAT16 or BF16 in the
// layouts BSH, BSND, BNSD and BNSD_BSND, grouped KV heads, pseShift and
// attenMask (broadcast dims too), actual sequence lengths, scaleValue,
// preTokens/nextTokens and sparseMode 0-4, innerPrecise 0-3 and softmaxLse.  Everything else CANN
// documents (INT8 query or output, INT8/INT4 KV with antiquant parameters,
// page attention, left padding, shared prefixes, per-batch KV tensor lists,
// the TND/NSD/NBSD layouts) is refused with 561002
// and a message naming it, never computed approximately.
//
// Check order: the out-parameters, nulls (161001), the OpDef's dtypes
// (161002: op_host/fused_infer_attention_score_def.cpp), acl-cpu's slice
// (561002), the empty query, acl-cpu's storage guard, then the tiling's
// checks in TilingFusedInferAttentionScore's order
// (fused_infer_attention_score_tiling.cpp: CheckQKV, the layout, CheckOutShape,
// D <= 512) and those of the prompt and incremental tilings it routes to
// (prompt_flash_attention_tiling.cpp: heads, key/value, CheckAttenMaskShape,
// pse, sparse mode and tokens; CheckLseShape), each 561002 with CANN's wording.
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v3.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v4.h"

#include <algorithm>
#include <cstdarg>
#include <string>
#include <vector>

#include "attention/attention_kernel.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kQueryDtypes = {ACL_FLOAT16, ACL_BF16, ACL_INT8};
constexpr DtypeList kKvDtypes = {ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT4};
constexpr DtypeList kPseDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr DtypeList kMaskDtypes = {ACL_BOOL, ACL_INT8, ACL_UINT8};
constexpr DtypeList kOutDtypes = {ACL_FLOAT16, ACL_BF16, ACL_INT8};
constexpr int64_t kMaxHeadDim = 512;
constexpr int64_t kMaxHeads = 256;
constexpr int64_t kMaxGroup = 64;
constexpr int64_t kMaxBatch = 65536;
constexpr int64_t kCompressedMask = 2048;  // sparse modes 2-4 take a 2048 x 2048 mask
// Tokens beyond any sequence reach: keeps the band's sums in int64.
constexpr int64_t kTokenLimit = int64_t{1} << 40;

__attribute__((format(printf, 1, 2))) aclnnStatus tiling_error(const char* format, ...) {
    const std::string prefixed = std::string("FusedInferAttentionScore tiling failed: ") + format;
    va_list args;
    va_start(args, format);
    vreport_error(ACLNN_ERR_INNER_TILING_ERROR, kAclnnInnerTag, prefixed.c_str(), args);
    va_end(args);
    return ACLNN_ERR_INNER_TILING_ERROR;
}

long long ll(int64_t v) { return static_cast<long long>(v); }

enum class Layout { kBsh, kBsnd, kBnsd, kBnsdBsnd };

/// Everything the checks and the plan read, the key and value lists unpacked.
struct FiaCall {
    const aclTensor* query = nullptr;
    const aclTensor* key = nullptr;
    const aclTensor* value = nullptr;
    const aclTensor* pse = nullptr;
    const aclTensor* mask = nullptr;
    const aclTensor* out = nullptr;
    const aclTensor* lse = nullptr;  ///< null unless softmaxLseFlag
    const aclIntArray* queryLengths = nullptr;
    const aclIntArray* kvLengths = nullptr;
    int64_t numHeads = 0;
    double scale = 1.0;
    int64_t preTokens = 0;
    int64_t nextTokens = 0;
    std::string layout;
    int64_t numKvHeads = 0;
    int64_t sparseMode = 0;
    int64_t innerPrecise = 0;
};

/// The sizes CheckOutShape and the prompt tiling derive.
struct FiaSizes {
    Layout layout = Layout::kBnsd;
    int64_t b = 0, n = 0, n2 = 0, s1 = 0, s2 = 0, d = 0;
    std::vector<int64_t> queryLengths;  ///< per batch; empty: all S1
    std::vector<int64_t> kvLengths;     ///< per batch; empty: all S2
};

const Dims& shape_of(const aclTensor* t) { return view_of(t).shape; }

aclnnStatus null_list(const char* name) {
    return param_error(ACLNN_ERR_PARAM_NULLPTR, "Expected a proper TensorList but got null for argument %s.", name);
}

/// The single tensor of key's or value's list (null list or element: 161001).
aclnnStatus unpack_list(const aclTensorList* list, const char* name, const aclTensor** tensor, size_t* count) {
    if (list == nullptr) return null_list(name);
    const std::vector<const aclTensor*> tensors = tensors_of(list);
    if (tensors.empty()) return param_error(ACLNN_ERR_PARAM_INVALID, "The tensor list %s is empty.", name);
    for (const aclTensor* t : tensors) ACLCPU_RETURN_IF_ERROR(check_not_null(t, name));
    *tensor = tensors[0];
    *count = tensors.size();
    return ACLNN_SUCCESS;
}

aclnnStatus check_dtypes(const FiaCall& c) {
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(c.query, "query", kQueryDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{c.key, "key"}, {c.value, "value"}}, kKvDtypes));
    if (c.pse != nullptr) ACLCPU_RETURN_IF_ERROR(check_dtype_supported(c.pse, "pseShift", kPseDtypes));
    if (c.mask != nullptr) ACLCPU_RETURN_IF_ERROR(check_dtype_supported(c.mask, "attenMask", kMaskDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(c.out, "attentionOut", kOutDtypes));
    if (c.lse != nullptr) ACLCPU_RETURN_IF_ERROR(check_dtype_is(c.lse, "softmaxLse", ACL_FLOAT));
    return ACLNN_SUCCESS;
}

aclnnStatus unsupported(const char* what) {
    return tiling_error("acl-cpu implements the non-quantised Atlas A2 paths; %s is not supported.", what);
}

/// acl-cpu's slice of the operator: the optional inputs and dtypes of the
/// paths it does not implement are refused by name.
aclnnStatus check_implemented(const FiaCall& c, size_t kvTensors, std::initializer_list<NamedArg> optionals) {
    for (const NamedArg& arg : optionals) {
        if (arg.tensor != nullptr || arg.intArray != nullptr) return unsupported(arg.name);
    }
    if (kvTensors > 1) return unsupported("a key/value tensor list of more than one tensor (one per batch)");
    if (view_of(c.query).dtype == ACL_INT8 || view_of(c.out).dtype == ACL_INT8) {
        return unsupported("an INT8 query or attentionOut (quantisation)");
    }
    if (view_of(c.key).dtype != view_of(c.query).dtype || view_of(c.value).dtype != view_of(c.query).dtype) {
        return unsupported("key/value of a dtype other than query's (antiquantisation)");
    }
    return ACLNN_SUCCESS;
}

aclnnStatus parse_layout(const std::string& text, Layout* layout) {
    if (text == "SH") return tiling_error("SH layout is not supported!");
    if (text == "BSH") *layout = Layout::kBsh;
    else if (text == "BSND") *layout = Layout::kBsnd;
    else if (text == "BNSD") *layout = Layout::kBnsd;
    else if (text == "BNSD_BSND") *layout = Layout::kBnsdBsnd;
    else return tiling_error("inputLayout %s: acl-cpu implements BSH, BSND, BNSD and BNSD_BSND.", text.c_str());
    return ACLNN_SUCCESS;
}

/// CheckOutShape: query's rank for the layout, D, and out's shape.
aclnnStatus check_out_shape(const FiaCall& c, FiaSizes* z) {
    if (c.numHeads == 0) return tiling_error("Q numhead is 0!");
    const Dims& q = shape_of(c.query);
    const Dims& v = shape_of(c.value);
    const Dims& o = shape_of(c.out);
    const size_t rank = z->layout == Layout::kBsh ? 3 : 4;
    if (q.size() != rank) {
        return tiling_error("Layout is %s, queryDims must be %zu! but actual value is %zu.", c.layout.c_str(), rank,
                            q.size());
    }
    z->b = q[0];
    switch (z->layout) {
        case Layout::kBsh:
            z->s1 = q[1];
            z->d = c.numHeads > 0 ? q[2] / c.numHeads : 0;
            if (q != o) {
                return tiling_error("Layout is BSH and Query shape size%s does NOT match Attention Out shape size%s!",
                                    shape_string(q).c_str(), shape_string(o).c_str());
            }
            break;
        case Layout::kBnsd: {
            z->s1 = q[2];
            z->d = q[3];
            const int64_t vd = v.size() == 4 ? v[3] : -1;
            if (o.size() != 4 || o[0] != q[0] || o[1] != q[1] || o[2] != q[2] || o[3] != vd) {
                return tiling_error("Layout is BNSD and Query shape %s expect Attention Out Shape [%lld, %lld, %lld, "
                                    "%lld] but got Attention Out shape %s!", shape_string(q).c_str(), ll(q[0]), ll(q[1]),
                                    ll(q[2]), ll(vd), shape_string(o).c_str());
            }
            break;
        }
        case Layout::kBsnd:
            z->s1 = q[1];
            z->d = q[3];
            if (q != o) {
                return tiling_error("Layout is BSND and Query shape size%s does NOT match Attention Out shape size%s!",
                                    shape_string(q).c_str(), shape_string(o).c_str());
            }
            break;
        case Layout::kBnsdBsnd:
            z->s1 = q[2];
            z->d = q[3];
            if (o.size() != 4 || o[0] != q[0] || o[1] != q[2] || o[2] != q[1] || o[3] != q[3]) {
                return tiling_error("Layout is BNSD_BSND and Query shape size%s does NOT match Attention Out shape "
                                    "size%s!", shape_string(q).c_str(), shape_string(o).c_str());
            }
            break;
    }
    return ACLNN_SUCCESS;
}

/// key's and value's ranks: query's (CheckKeyValueParam, CheckInputDimAndHeadNum).
aclnnStatus check_key_value_ranks(const FiaCall& c) {
    const size_t q = shape_of(c.query).size(), k = shape_of(c.key).size(), v = shape_of(c.value).size();
    if (k != v) {
        return tiling_error("tensor key shape dimNum(%zu) must be consistent with tensor value shape dimNum(%zu)!", k,
                            v);
    }
    if (k != q) {
        return tiling_error("input dim of q(%zu), k(%zu), v(%zu) must be %zu for %s format!", q, k, v, q,
                            c.layout.c_str());
    }
    return ACLNN_SUCCESS;
}

/// The prompt tiling's head checks (CheckPFAHeadNum's wording).
aclnnStatus check_heads(const FiaCall& c, FiaSizes* z) {
    const Dims& q = shape_of(c.query);
    const Dims& k = shape_of(c.key);
    const Dims& v = shape_of(c.value);
    if (c.numHeads < 0 || c.numKvHeads < 0) {
        return tiling_error("numHeads(%lld) or numKeyValueHeads(%lld) is negative!", ll(c.numHeads), ll(c.numKvHeads));
    }
    z->n = c.numHeads;
    z->n2 = c.numKvHeads == 0 ? c.numHeads : c.numKvHeads;
    if (z->n > kMaxHeads) return tiling_error("the query's heads num(%lld) should not be more than 256!", ll(z->n));
    if (z->layout == Layout::kBsh) {
        if (q[2] % z->n != 0) {
            return tiling_error("Layout is BSH, H(%lld) must be a multiple of numHeads(%lld).", ll(q[2]), ll(z->n));
        }
    } else {
        const int64_t qn = z->layout == Layout::kBsnd ? q[2] : q[1];
        if (qn != z->n) {
            return tiling_error("numHeads(%lld) in query shape must be equal to numHeads(%lld) in attr!", ll(qn),
                                ll(z->n));
        }
        const size_t headDim = z->layout == Layout::kBsnd ? 2 : 1;
        if (k[headDim] != z->n2) {
            return tiling_error("numHeads(%lld) in key shape do not match numKeyValueHeads(%lld) in attr!",
                                ll(k[headDim]), ll(z->n2));
        }
        if (v[headDim] != z->n2) {
            return tiling_error("numHeads(%lld) in value shape do not match numKeyValueHeads(%lld) in attr!",
                                ll(v[headDim]), ll(z->n2));
        }
    }
    if (z->n % z->n2 != 0) {
        return tiling_error("numHeads(%lld) must be divisible by numKeyValueHeads(%lld)!", ll(z->n), ll(z->n2));
    }
    if (z->n / z->n2 > kMaxGroup) {
        return tiling_error("numHeads / numKeyValueHeads = %lld, cannot be larger than 64", ll(z->n / z->n2));
    }
    return ACLNN_SUCCESS;
}

/// key and value against each other and query (the doc: "key、value中对应
/// tensor的shape需要完全一致"); their S.
aclnnStatus check_key_value(const FiaCall& c, FiaSizes* z) {
    const Dims& q = shape_of(c.query);
    const Dims& k = shape_of(c.key);
    const Dims& v = shape_of(c.value);
    if (k != v) {
        return tiling_error("key shape %s and value shape %s must be the same.", shape_string(k).c_str(),
                            shape_string(v).c_str());
    }
    const bool bnsd = z->layout == Layout::kBnsd || z->layout == Layout::kBnsdBsnd;
    z->s2 = bnsd ? k[2] : k[1];
    const int64_t kd = z->layout == Layout::kBsh ? z->n2 * z->d : k[3];
    const int64_t keyLast = k[k.size() - 1];
    if (k[0] != z->b || keyLast != (z->layout == Layout::kBsh ? kd : z->d)) {
        return tiling_error("key shape %s does not match query shape %s: B and D (H = numKeyValueHeads * D for BSH) "
                            "must be query's.", shape_string(k).c_str(), shape_string(q).c_str());
    }
    if (z->b > kMaxBatch) return tiling_error("batch size should <= 65536, but batch size = %lld", ll(z->b));
    return ACLNN_SUCCESS;
}

/// An actual sequence length list (CheckActualSeqLength's rules and
/// wording): one value for every batch, or at least B values of which the
/// first B count, each in [0, limit]; an empty list is none.
aclnnStatus read_lengths(const aclIntArray* array, const char* whose, int64_t batch, int64_t limit,
                         std::vector<int64_t>* lengths) {
    if (array == nullptr || values_of(array).empty()) return ACLNN_SUCCESS;
    const std::vector<int64_t>& values = values_of(array);
    const int64_t count = static_cast<int64_t>(values.size());
    if (count != 1 && count < batch) {
        return tiling_error("Dim(%lld) of the %s actual sequence lengths must equal to 1 or greater than or equal to "
                            "batch size(%lld)!", ll(count), whose, ll(batch));
    }
    for (int64_t b = 0; b < batch; ++b) {
        const int64_t value = values[static_cast<size_t>(count == 1 ? 0 : b)];
        if (value < 0 || value > limit) {
            return tiling_error("The %s actual sequence lengths[%lld](%lld) must be in range[0, %lld]!", whose, ll(b),
                                ll(value), ll(limit));
        }
        lengths->push_back(value);
    }
    return ACLNN_SUCCESS;
}

/// The actual lengths; the query's count only when S1 > 1 (the doc: "Q_S为1时该参数无效").
aclnnStatus check_lengths(const FiaCall& c, FiaSizes* z) {
    if (z->s1 > 1) ACLCPU_RETURN_IF_ERROR(read_lengths(c.queryLengths, "query's", z->b, z->s1, &z->queryLengths));
    return read_lengths(c.kvLengths, "key/value's", z->b, z->s2, &z->kvLengths);
}

aclnnStatus check_out_dtype(const FiaCall& c) {
    const aclDataType q = view_of(c.query).dtype;
    const aclDataType o = view_of(c.out).dtype;
    if (o == q) return ACLNN_SUCCESS;
    return tiling_error("attentionOut dtype %s must be query's dtype %s when neither is INT8.", dtype_name(o),
                        dtype_name(q));
}

/// CheckPseShiftTypeAndShape.
aclnnStatus check_pse(const FiaCall& c, const FiaSizes& z) {
    if (c.pse == nullptr) return ACLNN_SUCCESS;
    const aclDataType q = view_of(c.query).dtype;
    const aclDataType p = view_of(c.pse).dtype;
    if (q != p) {
        return tiling_error("q type is %s, but pse shift type is not %s, pse shift type = %s",
                            q == ACL_BF16 ? "bf16" : "fp16", q == ACL_BF16 ? "bf16" : "fp16", dtype_name(p));
    }
    const Dims& s = shape_of(c.pse);
    if (s.size() != 4) return tiling_error("pse shift shape must be 4 dimension, rather than %zu dimension", s.size());
    if ((s[0] != 1 && s[0] != z.b) || s[1] != z.n || s[2] < z.s1 || s[3] < z.s2) {
        return tiling_error("pse shift shape must be [1 or %lld, %lld, >=%lld, >=%lld], but now it is %s", ll(z.b),
                            ll(z.n), ll(z.s1), ll(z.s2), shape_string(s).c_str());
    }
    return ACLNN_SUCCESS;
}

bool compressed_mode(int64_t sparseMode) { return sparseMode >= 2 && sparseMode <= 4; }

/// CheckAttenMaskShape for S1 > 1: batch 1 or B, S1 and S2 at least the
/// sequences' (2048 x 2048 and batch 1 in the compressed modes).
aclnnStatus check_prompt_mask(const FiaCall& c, const FiaSizes& z) {
    const Dims& m = shape_of(c.mask);
    if (m.size() < 2 || m.size() > 4) return tiling_error("attenMask dim(%zu) must be 2 or 3 or 4!", m.size());
    const int64_t batch = m.size() == 2 ? 1 : m[0];
    const int64_t heads = m.size() == 4 ? m[1] : 1;
    const int64_t ms1 = m[m.size() - 2], ms2 = m[m.size() - 1];
    if (compressed_mode(c.sparseMode)) {
        if (batch != 1 || heads != 1 || ms1 != kCompressedMask || ms2 != kCompressedMask) {
            return tiling_error("attenMask shape must be (2048, 2048) or (1, 2048, 2048) or (1, 1, 2048, 2048) when "
                                "sparse mode = %lld", ll(c.sparseMode));
        }
        return ACLNN_SUCCESS;
    }
    // CANN does not look at a 4-D mask's N; acl-cpu reads it as broadcast, so it must be 1.
    if (ms1 < z.s1 || ms2 < z.s2 || (batch != 1 && batch != z.b) || heads != 1) {
        return tiling_error("attenMask batch(%lld) must be 1 or %lld, attenMask Q_S(%lld) must be larger than "
                            "sQ(%lld), attenMask KV_S(%lld) must be larger than sK(%lld), please check", ll(batch),
                            ll(z.b), ll(ms1), ll(z.s1), ll(ms2), ll(z.s2));
    }
    return ACLNN_SUCCESS;
}

/// The incremental path's masks (S1 = 1): (B, KV_S), (B, 1, KV_S) or
/// (B, 1, 1, KV_S), batch 1 broadcast.
aclnnStatus check_decode_mask(const FiaCall& c, const FiaSizes& z) {
    const Dims& m = shape_of(c.mask);
    bool ok = m.size() >= 2 && m.size() <= 4 && (m[0] == 1 || m[0] == z.b) && m[m.size() - 1] >= z.s2;
    for (size_t d = 1; ok && d + 1 < m.size(); ++d) ok = m[d] == 1;
    if (!ok) {
        return tiling_error("attenMask shape %s must be (B, KV_S), (B, 1, KV_S) or (B, 1, 1, KV_S) with B 1 or %lld "
                            "and KV_S >= %lld when the query's S is 1.", shape_string(m).c_str(), ll(z.b), ll(z.s2));
    }
    return ACLNN_SUCCESS;
}

/// The prompt tiling's sparse mode and token checks.
aclnnStatus check_sparse(const FiaCall& c, const FiaSizes& z) {
    const int64_t mode = c.sparseMode;
    if (mode < 0 || mode > 4) return tiling_error("sparse_mode = %lld is out of range.", ll(mode));
    if (mode != 0 && c.mask == nullptr) {
        return tiling_error("attenMask should not be null when sparse_mode is %lld.", ll(mode));
    }
    if (mode == 4 && c.preTokens < 0 && c.nextTokens < 0) {
        return tiling_error("preTokens and nextTokens must not be negative number in band mode, preTokens = %lld , "
                            "nextTokens = %lld .", ll(c.preTokens), ll(c.nextTokens));
    }
    if (mode != 0 || c.mask == nullptr) return ACLNN_SUCCESS;  // the tokens are set, not read
    if (c.preTokens < 0 && c.nextTokens < 0) {
        return tiling_error("preTokens and nextokens cannot neither be negative number, preTokens = %lld, nextTokens "
                            "= %lld.", ll(c.preTokens), ll(c.nextTokens));
    }
    if (c.nextTokens < -c.preTokens) return tiling_error("nexttoken line should be higher than pretoken line.");
    if (c.nextTokens < 0 && -c.nextTokens >= z.s1) {
        return tiling_error("nextTokens absolute value should be smaller than length of q, nextTokens = %lld, length "
                            "of q = %lld.", ll(c.nextTokens), ll(z.s1));
    }
    if (c.preTokens < 0 && -c.preTokens >= z.s2) {
        return tiling_error("preToken absolute value should be smaller than length of k and v (length of k and v + "
                            "length of prefix when enable prefix), preTokens = %lld, seqLengthKV = %lld, "
                            "actualSharedPrefixLen = 0", ll(c.preTokens), ll(z.s2));
    }
    return ACLNN_SUCCESS;
}

/// CheckLseShape: [B, N, S1, 1].
aclnnStatus check_lse(const FiaCall& c, const FiaSizes& z) {
    if (c.lse == nullptr) return ACLNN_SUCCESS;
    const Dims& l = shape_of(c.lse);
    if (l.size() != 4) return tiling_error("SoftmaxLse shape dim should be 4!");
    if (l[0] != z.b || l[1] != z.n || l[2] != z.s1 || l[3] != 1) {
        return tiling_error("SoftmaxLse shape size%s does not match BNS1[%lld, %lld, %lld, 1]!", shape_string(l).c_str(),
                            ll(z.b), ll(z.n), ll(z.s1));
    }
    return ACLNN_SUCCESS;
}

aclnnStatus check_tiling(const FiaCall& c, FiaSizes* z) {
    ACLCPU_RETURN_IF_ERROR(check_out_shape(c, z));
    if (z->d > kMaxHeadDim) {
        return tiling_error("D should be less than or equal to 512 of Q/KV shape! but now D = %lld. When layout is "
                            "BNSD, D is the last dimension of Q/KV shape, and layout is BSH, D = h / n", ll(z->d));
    }
    if (z->s1 == 1 && z->layout == Layout::kBnsdBsnd) {
        return tiling_error("BNSD_BSND layout is not supported when S is 1!");
    }
    ACLCPU_RETURN_IF_ERROR(check_key_value_ranks(c));
    ACLCPU_RETURN_IF_ERROR(check_heads(c, z));
    ACLCPU_RETURN_IF_ERROR(check_key_value(c, z));
    ACLCPU_RETURN_IF_ERROR(check_lengths(c, z));
    ACLCPU_RETURN_IF_ERROR(check_out_dtype(c));
    if (c.mask != nullptr) ACLCPU_RETURN_IF_ERROR(z->s1 == 1 ? check_decode_mask(c, *z) : check_prompt_mask(c, *z));
    ACLCPU_RETURN_IF_ERROR(check_pse(c, *z));
    if (z->s1 > 1) ACLCPU_RETURN_IF_ERROR(check_sparse(c, *z));
    if (c.innerPrecise < 0 || c.innerPrecise > 3) {
        return tiling_error("innerPrecise [%lld] should be 0,1,2,3, please check.", ll(c.innerPrecise));
    }
    return check_lse(c, *z);
}

// ---- the plan ----

/// A [B, N, S, D] view of a query/key/value/out tensor in its layout.
TensorView bnsd_view(const TensorView& t, Layout layout, int64_t heads) {
    TensorView v = t;
    const Dims& s = t.shape;
    const Dims& st = t.strides;
    if (layout == Layout::kBsh) {
        const int64_t d = s[2] / heads;
        v.shape = Dims{s[0], heads, s[1], d};
        v.strides = Dims{st[0], d * st[2], st[1], st[2]};
    } else if (layout == Layout::kBsnd) {
        v.shape = Dims{s[0], s[2], s[1], s[3]};
        v.strides = Dims{st[0], st[2], st[1], st[3]};
    }
    return v;
}

/// pse [1 or B, N, >= S1, >= S2] cut to [.., S1, S2].
TensorView pse_view(const TensorView& t, const FiaSizes& z) {
    TensorView v = t;
    v.shape = Dims{t.shape[0], t.shape[1], z.s1, z.s2};
    return v;
}

/// The mask as [1 or B, 1, S1, S2]: batch is dim 0 unless the mask is the
/// 2-D (S1, S2) of the prompt path; S1 the second-to-last dim (none for the
/// decode path's 2-D (B, KV_S)).
TensorView mask_view(const TensorView& t, const FiaSizes& z) {
    const Dims& s = t.shape;
    const Dims& st = t.strides;
    const size_t rank = s.size();
    const bool hasBatch = rank > 2 || z.s1 == 1;
    const bool hasRows = rank > 2 || z.s1 > 1;
    TensorView v = t;
    v.shape = Dims{hasBatch ? s[0] : 1, 1, z.s1, z.s2};
    v.strides = Dims{hasBatch ? st[0] : 0, 0, hasRows ? st[rank - 2] : 0, st[rank - 1]};
    return v;
}

/// The band of keys each row sees, j - i in [low, high] (CANN's
/// preTokens/nextTokens as the prompt tiling and GetSparseParam set them:
/// modes 3 and 4 count from each batch's right-down corner), bounded by
/// +-(S1 + S2).
void set_band(const FiaCall& c, const FiaSizes& z, AttentionPlan* plan) {
    const int64_t pre = std::clamp(c.preTokens, -kTokenLimit, kTokenLimit);
    const int64_t next = std::clamp(c.nextTokens, -kTokenLimit, kTokenLimit);
    int64_t low = -kTokenLimit, high = kTokenLimit;
    if (z.s1 > 1) {
        switch (c.sparseMode) {
            case 0:
                if (c.mask != nullptr) low = -pre, high = next;
                break;
            case 2: high = 0; break;
            case 3: high = 0, plan->fromCorner = true; break;
            case 4: low = -pre, high = next, plan->fromCorner = true; break;
            default: break;
        }
    }
    const int64_t reach = z.s1 + z.s2;
    plan->bandLow = std::clamp(low, -reach, reach);
    plan->bandHigh = std::clamp(high, -reach, reach);
}

/// Hands back the kernel over inputs (query, key, value, then pse and mask
/// when given) and outputs (attentionOut, then softmaxLse when asked).
aclnnStatus hand_back(const FiaCall& c, const FiaSizes& z, TensorSpan inputs, TensorSpan outputs,
                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    AttentionPlan sizes;
    sizes.batch = z.b;
    sizes.heads = z.n;
    sizes.kvHeads = z.n2;
    sizes.s1 = z.s1;
    sizes.s2 = z.s2;
    sizes.dk = z.d;
    sizes.dv = z.d;
    sizes.scale = static_cast<float>(c.scale);
    sizes.cubeInput = view_of(c.query).dtype;
    sizes.queryLengths = z.queryLengths;
    sizes.kvLengths = z.kvLengths;
    set_band(c, z, &sizes);

    AttentionOperands ops;
    ops.query = StridedLayout::of(bnsd_view(view_of(c.query), z.layout, z.n));
    ops.key = StridedLayout::of(bnsd_view(view_of(c.key), z.layout, z.n2));
    ops.value = StridedLayout::of(bnsd_view(view_of(c.value), z.layout, z.n2));
    const Layout outLayout = z.layout == Layout::kBnsdBsnd ? Layout::kBsnd : z.layout;
    ops.out = StridedLayout::of(bnsd_view(view_of(c.out), outLayout, z.n));
    ops.inputCount = inputs.size();
    const Dims scoreShape{z.b, z.n, z.s1, z.s2};
    if (c.pse != nullptr) {
        ops.pseInput = 3;
        ops.pse = StridedLayout::broadcast_to(pse_view(view_of(c.pse), z), scoreShape);
    }
    // The compressed masks of sparse modes 2-4 stand for the band, which the kernel computes.
    if (c.mask != nullptr && (z.s1 == 1 || !compressed_mode(c.sparseMode))) {
        ops.maskInput = c.pse != nullptr ? 4 : 3;
        ops.mask = StridedLayout::broadcast_to(mask_view(view_of(c.mask), z), scoreShape);
    }
    if (c.lse != nullptr) {
        ops.hasLse = true;
        TensorView lse = view_of(c.lse);
        lse.shape = Dims{z.b, z.n, z.s1};
        lse.strides = Dims{lse.strides[0], lse.strides[1], lse.strides[2]};
        ops.lse = StridedLayout::of(lse);
    }
    return hand_back_kernel<AttentionKernel>(inputs, outputs, 0, workspaceSize, executor,
                                             "aclnnFusedInferAttentionScoreV2",
                                             plan_attention(std::move(sizes), soc_profile()), ops);
}

/// acl-cpu's storage guard of every tensor given.
aclnnStatus check_storage(const FiaCall& c) {
    const std::pair<const aclTensor*, const char*> tensors[] = {
        {c.query, "query"}, {c.key, "key"},       {c.value, "value"},           {c.pse, "pseShift"},
        {c.mask, "attenMask"}, {c.out, "attentionOut"}, {c.lse, "softmaxLse"}};
    for (const auto& [tensor, name] : tensors) {
        if (tensor != nullptr) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(tensor, name));
    }
    return ACLNN_SUCCESS;
}

aclnnStatus check_empty_query(const FiaCall& c) {
    if (is_empty(c.out)) return ACLNN_SUCCESS;
    return tiling_error("Query head should not be 0, or when attentionOut is not empty tensor, query input shoud not "
                        "be empty tensor!");
}

}  // namespace
}  // namespace aclcpu::ops

// CANN's V2, V3 and V4 call one inner operator, the older ones with null
// for the optional inputs they lack (aclnn_fused_infer_attention_score_v4.cpp):
// here V2 and V3 call V4.  blockSize (page attention), antiquantMode,
// keyAntiquantMode, valueAntiquantMode and queryQuantMode choose among the
// quantised and paged paths, whose inputs V4 refuses: they change nothing.

extern "C" aclnnStatus aclnnFusedInferAttentionScoreV4GetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value, const aclTensor* pseShiftOptional,
    const aclTensor* attenMaskOptional, const aclIntArray* actualSeqLengthsOptional,
    const aclIntArray* actualSeqLengthsKvOptional, const aclTensor* deqScale1Optional,
    const aclTensor* quantScale1Optional, const aclTensor* deqScale2Optional, const aclTensor* quantScale2Optional,
    const aclTensor* quantOffset2Optional, const aclTensor* antiquantScaleOptional,
    const aclTensor* antiquantOffsetOptional, const aclTensor* blockTableOptional,
    const aclTensor* queryPaddingSizeOptional, const aclTensor* kvPaddingSizeOptional,
    const aclTensor* keyAntiquantScaleOptional, const aclTensor* keyAntiquantOffsetOptional,
    const aclTensor* valueAntiquantScaleOptional, const aclTensor* valueAntiquantOffsetOptional,
    const aclTensor* keySharedPrefixOptional, const aclTensor* valueSharedPrefixOptional,
    const aclIntArray* actualSharedPrefixLenOptional, const aclTensor* queryRopeOptional,
    const aclTensor* keyRopeOptional, const aclTensor* keyRopeAntiquantScaleOptional,
    const aclTensor* dequantScaleQueryOptional, const aclTensor* learnableSinkOptional, int64_t numHeads,
    double scaleValue, int64_t preTokens, int64_t nextTokens, char* inputLayout, int64_t numKeyValueHeads,
    int64_t sparseMode, int64_t innerPrecise, int64_t /*blockSize*/, int64_t /*antiquantMode*/, bool softmaxLseFlag,
    int64_t /*keyAntiquantMode*/, int64_t /*valueAntiquantMode*/, int64_t /*queryQuantMode*/,
    const aclTensor* attentionOut, const aclTensor* softmaxLse, uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclcpu::ops;
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null(query, "query"));
    FiaCall c;
    size_t keys = 0, values = 0;
    ACLCPU_RETURN_IF_ERROR(unpack_list(key, "key", &c.key, &keys));
    ACLCPU_RETURN_IF_ERROR(unpack_list(value, "value", &c.value, &values));
    ACLCPU_RETURN_IF_ERROR(check_not_null(attentionOut, "attentionOut"));
    if (softmaxLseFlag) ACLCPU_RETURN_IF_ERROR(check_not_null(softmaxLse, "softmaxLse"));
    if (inputLayout == nullptr) {
        return param_error(ACLNN_ERR_PARAM_NULLPTR, "Expected a proper string but got null for argument inputLayout.");
    }
    c.query = query;
    c.pse = pseShiftOptional;
    c.mask = attenMaskOptional;
    c.out = attentionOut;
    c.lse = softmaxLseFlag ? softmaxLse : nullptr;
    c.queryLengths = actualSeqLengthsOptional;
    c.kvLengths = actualSeqLengthsKvOptional;
    c.numHeads = numHeads;
    c.scale = scaleValue;
    c.preTokens = preTokens;
    c.nextTokens = nextTokens;
    c.layout = inputLayout;
    c.numKvHeads = numKeyValueHeads;
    c.sparseMode = sparseMode;
    c.innerPrecise = innerPrecise;
    ACLCPU_RETURN_IF_ERROR(check_dtypes(c));
    ACLCPU_RETURN_IF_ERROR(check_implemented(
        c, std::max(keys, values),
        {{deqScale1Optional, "deqScale1"}, {quantScale1Optional, "quantScale1"}, {deqScale2Optional, "deqScale2"},
         {quantScale2Optional, "quantScale2"}, {quantOffset2Optional, "quantOffset2"},
         {antiquantScaleOptional, "antiquantScale"}, {antiquantOffsetOptional, "antiquantOffset"},
         {blockTableOptional, "blockTable (page attention)"}, {queryPaddingSizeOptional, "queryPaddingSize"},
         {kvPaddingSizeOptional, "kvPaddingSize"}, {keyAntiquantScaleOptional, "keyAntiquantScale"},
         {keyAntiquantOffsetOptional, "keyAntiquantOffset"}, {valueAntiquantScaleOptional, "valueAntiquantScale"},
         {valueAntiquantOffsetOptional, "valueAntiquantOffset"}, {keySharedPrefixOptional, "keySharedPrefix"},
         {valueSharedPrefixOptional, "valueSharedPrefix"}, {actualSharedPrefixLenOptional, "actualSharedPrefixLen"},
         {queryRopeOptional, "queryRope (multi-head latent attention)"}, {keyRopeOptional, "keyRope"},
         {keyRopeAntiquantScaleOptional, "keyRopeAntiquantScale"}, {dequantScaleQueryOptional, "dequantScaleQuery"},
         {learnableSinkOptional, "learnableSink"}}));
    FiaSizes z;
    ACLCPU_RETURN_IF_ERROR(parse_layout(c.layout, &z.layout));
    std::vector<const aclTensor*> inputs = {query, c.key, c.value};
    for (const aclTensor* t : {c.pse, c.mask}) {
        if (t != nullptr) inputs.push_back(t);
    }
    std::vector<const aclTensor*> outputs = {attentionOut};
    if (c.lse != nullptr) outputs.push_back(c.lse);
    if (is_empty(query)) {
        ACLCPU_RETURN_IF_ERROR(check_empty_query(c));
        return hand_back_empty_executor(inputs, outputs, workspaceSize, executor);
    }
    ACLCPU_RETURN_IF_ERROR(check_storage(c));
    ACLCPU_RETURN_IF_ERROR(check_tiling(c, &z));
    return hand_back(c, z, inputs, outputs, workspaceSize, executor);

}

extern "C" aclnnStatus aclnnFusedInferAttentionScoreV3GetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value, const aclTensor* pseShiftOptional,
    const aclTensor* attenMaskOptional, const aclIntArray* actualSeqLengthsOptional,
    const aclIntArray* actualSeqLengthsKvOptional, const aclTensor* deqScale1Optional,
    const aclTensor* quantScale1Optional, const aclTensor* deqScale2Optional, const aclTensor* quantScale2Optional,
    const aclTensor* quantOffset2Optional, const aclTensor* antiquantScaleOptional,
    const aclTensor* antiquantOffsetOptional, const aclTensor* blockTableOptional,
    const aclTensor* queryPaddingSizeOptional, const aclTensor* kvPaddingSizeOptional,
    const aclTensor* keyAntiquantScaleOptional, const aclTensor* keyAntiquantOffsetOptional,
    const aclTensor* valueAntiquantScaleOptional, const aclTensor* valueAntiquantOffsetOptional,
    const aclTensor* keySharedPrefixOptional, const aclTensor* valueSharedPrefixOptional,
    const aclIntArray* actualSharedPrefixLenOptional, const aclTensor* queryRopeOptional,
    const aclTensor* keyRopeOptional, const aclTensor* keyRopeAntiquantScaleOptional, int64_t numHeads,
    double scaleValue, int64_t preTokens, int64_t nextTokens, char* inputLayout, int64_t numKeyValueHeads,
    int64_t sparseMode, int64_t innerPrecise, int64_t blockSize, int64_t antiquantMode, bool softmaxLseFlag,
    int64_t keyAntiquantMode, int64_t valueAntiquantMode, const aclTensor* attentionOut, const aclTensor* softmaxLse,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclnnFusedInferAttentionScoreV4GetWorkspaceSize(
        query, key, value, pseShiftOptional, attenMaskOptional, actualSeqLengthsOptional, actualSeqLengthsKvOptional,
        deqScale1Optional, quantScale1Optional, deqScale2Optional, quantScale2Optional, quantOffset2Optional,
        antiquantScaleOptional, antiquantOffsetOptional, blockTableOptional, queryPaddingSizeOptional,
        kvPaddingSizeOptional, keyAntiquantScaleOptional, keyAntiquantOffsetOptional, valueAntiquantScaleOptional,
        valueAntiquantOffsetOptional, keySharedPrefixOptional, valueSharedPrefixOptional,
        actualSharedPrefixLenOptional, queryRopeOptional, keyRopeOptional, keyRopeAntiquantScaleOptional, nullptr,
        nullptr, numHeads, scaleValue, preTokens, nextTokens, inputLayout, numKeyValueHeads, sparseMode, innerPrecise,
        blockSize, antiquantMode, softmaxLseFlag, keyAntiquantMode, valueAntiquantMode, 0, attentionOut, softmaxLse,
        workspaceSize, executor);
}

extern "C" aclnnStatus aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value, const aclTensor* pseShiftOptional,
    const aclTensor* attenMaskOptional, const aclIntArray* actualSeqLengthsOptional,
    const aclIntArray* actualSeqLengthsKvOptional, const aclTensor* deqScale1Optional,
    const aclTensor* quantScale1Optional, const aclTensor* deqScale2Optional, const aclTensor* quantScale2Optional,
    const aclTensor* quantOffset2Optional, const aclTensor* antiquantScaleOptional,
    const aclTensor* antiquantOffsetOptional, const aclTensor* blockTableOptional,
    const aclTensor* queryPaddingSizeOptional, const aclTensor* kvPaddingSizeOptional,
    const aclTensor* keyAntiquantScaleOptional, const aclTensor* keyAntiquantOffsetOptional,
    const aclTensor* valueAntiquantScaleOptional, const aclTensor* valueAntiquantOffsetOptional,
    const aclTensor* keySharedPrefixOptional, const aclTensor* valueSharedPrefixOptional,
    const aclIntArray* actualSharedPrefixLenOptional, int64_t numHeads, double scaleValue, int64_t preTokens,
    int64_t nextTokens, char* inputLayout, int64_t numKeyValueHeads, int64_t sparseMode, int64_t innerPrecise,
    int64_t blockSize, int64_t antiquantMode, bool softmaxLseFlag, int64_t keyAntiquantMode,
    int64_t valueAntiquantMode, const aclTensor* attentionOut, const aclTensor* softmaxLse, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
    return aclnnFusedInferAttentionScoreV3GetWorkspaceSize(
        query, key, value, pseShiftOptional, attenMaskOptional, actualSeqLengthsOptional, actualSeqLengthsKvOptional,
        deqScale1Optional, quantScale1Optional, deqScale2Optional, quantScale2Optional, quantOffset2Optional,
        antiquantScaleOptional, antiquantOffsetOptional, blockTableOptional, queryPaddingSizeOptional,
        kvPaddingSizeOptional, keyAntiquantScaleOptional, keyAntiquantOffsetOptional, valueAntiquantScaleOptional,
        valueAntiquantOffsetOptional, keySharedPrefixOptional, valueSharedPrefixOptional,
        actualSharedPrefixLenOptional, nullptr, nullptr, nullptr, numHeads, scaleValue, preTokens, nextTokens,
        inputLayout, numKeyValueHeads, sparseMode, innerPrecise, blockSize, antiquantMode, softmaxLseFlag,
        keyAntiquantMode, valueAntiquantMode, attentionOut, softmaxLse, workspaceSize, executor);
}

ACLCPU_DEFINE_PHASE2(aclnnFusedInferAttentionScoreV2)
ACLCPU_DEFINE_PHASE2(aclnnFusedInferAttentionScoreV3)
ACLCPU_DEFINE_PHASE2(aclnnFusedInferAttentionScoreV4)
