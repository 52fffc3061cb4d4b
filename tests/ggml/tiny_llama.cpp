// tiny_llama: a small llama-style decoder written against ggml's public API
// and run, in one process, through ggml's backend scheduler on ggml's CANN
// backend (CANN0: acl-cpu, when ggml is built against acl-cpu's install tree)
// and on ggml's CPU backend, from the same weights and the same prompt; it
// generates greedily on each and compares.
//
// The model: token embedding (GET_ROWS), 4 pre-norm blocks (RMS_NORM,
// grouped-query attention with RoPE over a KV cache -- FLASH_ATTN_EXT, or
// MUL_MAT + SOFT_MAX with a causal mask -- and a SwiGLU feed-forward), a
// final RMS_NORM and the vocabulary projection; d_model 256, 8 query heads
// and 2 KV heads of 32, feed-forward 768, vocabulary 4096.  Weights are
// drawn from a fixed seed; the matrices are F16 or Q4_0 (ggml's quantiser),
// the same bytes on both backends.  The weights carry llama.cpp's tensor
// names: ggml's CANN backend lays the F16 projections out as FRACTAL_NZ
// (aclnnTransMatmulWeight, GGML_CANN_WEIGHT_NZ on by default) by those names,
// as it does for a real model.
//
// Usage: tiny_llama [--weights f16|q4_0] [--attention flash|softmax]
//                   [--prompt N] [--generate N] [--threads N] [--seed N]
//                   [--tolerance X] [--cpu-only | --cann-only]
// Prints each backend's tokens, its prompt and generation speed (tokens per
// second), and, when both ran, their largest logit difference; exits 1 when
// a step's logits differ by more than tolerance x the step's largest
// |logit| (default 0.02 for F16 weights, 0.05 for Q4_0; see README) or the
// tokens part anywhere but at a near tie (see compare()).
#include "acl/acl.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cann.h"
#include "ggml-cpu.h"
#include "ggml.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Hyper {
    int vocab = 4096;
    int embd = 256;
    int layers = 4;
    int heads = 8;
    int kvHeads = 2;
    int headDim = 32;
    int ff = 768;
    int context = 512;
    float normEps = 1e-5f;
    float ropeBase = 10000.0f;
};

struct Options {
    ggml_type weightType = GGML_TYPE_F16;
    bool flash = false;
    int prompt = 16;
    int generate = 64;
    int threads = 2;
    uint64_t seed = 20261207;
    double tolerance = -1;  ///< below 0: the weights' default
    bool cpu = true;
    bool cann = true;
};

/// splitmix64: a fixed, portable sequence for the weights and the prompt.
class Random {
public:
    explicit Random(uint64_t seed) : state_(seed) {}
    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    /// Uniform in [-bound, bound).
    float uniform(float bound) { return bound * (2.0f * static_cast<float>(next() >> 40) / 16777216.0f - 1.0f); }

private:
    uint64_t state_;
};

/// One weight: its ggml shape and type, and its values in fp32.
struct HostWeight {
    std::string name;
    ggml_type type;
    int64_t columns;  // ne0: the input features of a matrix
    int64_t rows;     // ne1 (1 for a vector)
    std::vector<float> values;
};

/// The model's weights on the host, in a fixed order.
std::vector<HostWeight> draw_weights(const Hyper& hp, const Options& options) {
    Random random(options.seed);
    std::vector<HostWeight> weights;
    const auto add = [&](std::string name, ggml_type type, int64_t columns, int64_t rows, float bound) {
        HostWeight weight{std::move(name), type, columns, rows, std::vector<float>(columns * rows)};
        for (float& v : weight.values) v = bound == 0.0f ? 1.0f + random.uniform(0.1f) : random.uniform(bound);
        weights.push_back(std::move(weight));
    };
    // Unit-variance activations through each matrix: bound sqrt(3 / fan_in).
    const auto bound = [](int64_t fanIn) { return std::sqrt(3.0f / static_cast<float>(fanIn)); };
    const int kvWidth = hp.kvHeads * hp.headDim;
    add("token_embd.weight", GGML_TYPE_F16, hp.embd, hp.vocab, 1.0f);
    for (int l = 0; l < hp.layers; ++l) {
        const std::string p = "blk." + std::to_string(l) + ".";
        add(p + "attn_norm.weight", GGML_TYPE_F32, hp.embd, 1, 0.0f);
        add(p + "attn_q.weight", options.weightType, hp.embd, hp.embd, bound(hp.embd));
        add(p + "attn_k.weight", options.weightType, hp.embd, kvWidth, bound(hp.embd));
        add(p + "attn_v.weight", options.weightType, hp.embd, kvWidth, bound(hp.embd));
        add(p + "attn_output.weight", options.weightType, hp.embd, hp.embd, 0.5f * bound(hp.embd));
        add(p + "ffn_norm.weight", GGML_TYPE_F32, hp.embd, 1, 0.0f);
        add(p + "ffn_gate.weight", options.weightType, hp.embd, hp.ff, bound(hp.embd));
        add(p + "ffn_up.weight", options.weightType, hp.embd, hp.ff, bound(hp.embd));
        add(p + "ffn_down.weight", options.weightType, hp.ff, hp.embd, 0.5f * bound(hp.ff));
    }
    add("output_norm.weight", GGML_TYPE_F32, hp.embd, 1, 0.0f);
    // Logits with a standard deviation of about 6, so that the greedy choice
    // is rarely a near tie.
    add("output.weight", options.weightType, hp.embd, hp.vocab, 6.0f * bound(hp.embd));
    return weights;
}

/// The bytes of a weight in its ggml type.
std::vector<uint8_t> encoded(const HostWeight& weight) {
    const size_t rowBytes = ggml_row_size(weight.type, weight.columns);
    std::vector<uint8_t> bytes(rowBytes * weight.rows);
    switch (weight.type) {
        case GGML_TYPE_F32: std::memcpy(bytes.data(), weight.values.data(), bytes.size()); break;
        case GGML_TYPE_F16:
            ggml_fp32_to_fp16_row(weight.values.data(), reinterpret_cast<ggml_fp16_t*>(bytes.data()),
                                  static_cast<int64_t>(weight.values.size()));
            break;
        default:
            ggml_quantize_chunk(weight.type, weight.values.data(), bytes.data(), 0, weight.rows, weight.columns,
                                nullptr);
    }
    return bytes;
}

struct Layer {
    ggml_tensor *attnNorm, *wq, *wk, *wv, *wo, *ffnNorm, *wGate, *wUp, *wDown, *kCache, *vCache;
};

/// The model on one backend: its weights and KV cache in one buffer, and a
/// scheduler over the backend (and the CPU backend for what it declines).
class Model {
public:
    Model(const Hyper& hp, const Options& options, const std::vector<HostWeight>& weights, ggml_backend_t backend,
          ggml_backend_t cpu)
        : hp_(hp), options_(options), backend_(backend) {
        const size_t tensors = weights.size() + 2 * static_cast<size_t>(hp.layers);
        ggml_init_params params{tensors * ggml_tensor_overhead(), nullptr, true};
        context_ = ggml_init(params);
        std::vector<ggml_tensor*> made;
        for (const HostWeight& weight : weights) {
            ggml_tensor* t = weight.rows == 1 ? ggml_new_tensor_1d(context_, weight.type, weight.columns)
                                              : ggml_new_tensor_2d(context_, weight.type, weight.columns, weight.rows);
            ggml_set_name(t, weight.name.c_str());
            made.push_back(t);
        }
        size_t next = 0;
        tokenEmbd_ = made[next++];
        layers_.resize(hp.layers);
        const int64_t kvWidth = int64_t{hp.kvHeads} * hp.headDim;
        for (Layer& layer : layers_) {
            layer.attnNorm = made[next++];
            layer.wq = made[next++];
            layer.wk = made[next++];
            layer.wv = made[next++];
            layer.wo = made[next++];
            layer.ffnNorm = made[next++];
            layer.wGate = made[next++];
            layer.wUp = made[next++];
            layer.wDown = made[next++];
            layer.kCache = ggml_new_tensor_2d(context_, GGML_TYPE_F16, kvWidth, hp.context);
            layer.vCache = ggml_new_tensor_2d(context_, GGML_TYPE_F16, kvWidth, hp.context);
        }
        outputNorm_ = made[next++];
        output_ = made[next++];
        buffer_ = ggml_backend_alloc_ctx_tensors(context_, backend);
        if (buffer_ == nullptr) {
            std::fprintf(stderr, "tiny_llama: cannot allocate the weights on %s\n", ggml_backend_name(backend));
            std::exit(2);
        }
        // Masked cache positions not written yet must hold numbers (0 x -inf
        // weights nothing; NaN would poison the softmax).
        ggml_backend_buffer_clear(buffer_, 0);
        for (size_t i = 0; i < weights.size(); ++i) {
            const std::vector<uint8_t> bytes = encoded(weights[i]);
            ggml_backend_tensor_set(made[i], bytes.data(), 0, bytes.size());
        }
        // ggml's CANN backend converts each F16 projection to FRACTAL_NZ with
        // aclnnTransMatmulWeight on the default stream (ggml-cann.cpp,
        // weight_format_to_nz) and never orders that stream before the one
        // it computes on: the first products could read a weight still
        // being converted (ACLCPU_CHECK=race reports each pair).  Waiting
        // for the device closes that race, as a careful caller must.
        if (backend != cpu && aclrtSynchronizeDevice() != ACL_SUCCESS) {
            std::fprintf(stderr, "tiny_llama: aclrtSynchronizeDevice failed\n");
            std::exit(2);
        }
        std::vector<ggml_backend_t> backends{backend};
        if (cpu != backend) backends.push_back(cpu);
        scheduler_ = ggml_backend_sched_new(backends.data(), nullptr, static_cast<int>(backends.size()), kGraphSize,
                                            false, true);
        graphMemory_.resize(ggml_tensor_overhead() * kGraphSize + ggml_graph_overhead_custom(kGraphSize, false));
    }

    ~Model() {
        ggml_backend_sched_free(scheduler_);
        ggml_backend_buffer_free(buffer_);
        ggml_free(context_);
    }

    Model(const Model&) = delete;
    Model& operator=(const Model&) = delete;

    /// Runs tokens at positions past.., and returns the logits of the last.
    std::vector<float> step(const std::vector<int32_t>& tokens, int past) {
        ggml_init_params params{graphMemory_.size(), graphMemory_.data(), true};
        ggml_context* ctx = ggml_init(params);
        ggml_cgraph* graph = ggml_new_graph_custom(ctx, kGraphSize, false);
        const int count = static_cast<int>(tokens.size());
        Inputs in = inputs(ctx, count, past);
        ggml_tensor* logits = forward(ctx, graph, in, count, past);
        ggml_set_output(logits);
        ggml_build_forward_expand(graph, logits);
        ggml_backend_sched_reset(scheduler_);
        if (!ggml_backend_sched_alloc_graph(scheduler_, graph)) {
            std::fprintf(stderr, "tiny_llama: cannot allocate the graph on %s\n", ggml_backend_name(backend_));
            std::exit(2);
        }
        set_inputs(in, tokens, past);
        if (ggml_backend_sched_graph_compute(scheduler_, graph) != GGML_STATUS_SUCCESS) {
            std::fprintf(stderr, "tiny_llama: the graph failed on %s\n", ggml_backend_name(backend_));
            std::exit(2);
        }
        splits_ = ggml_backend_sched_get_n_splits(scheduler_);
        std::vector<float> result(static_cast<size_t>(hp_.vocab));
        ggml_backend_tensor_get(logits, result.data(), 0, result.size() * sizeof(float));
        ggml_free(ctx);
        return result;
    }

    int splits() const { return splits_; }

private:
    static constexpr size_t kGraphSize = 2048;

    /// The cache positions a step attends over: past + count rounded up to
    /// kSpanStep, so that consecutive decoding steps build the same graph
    /// (ggml's CANN backend then replays its captured graph, as llama.cpp's
    /// padded KV cache lets it), the positions not yet written masked out.
    static constexpr int kSpanStep = 64;
    int span(int count, int past) const {
        return std::min(hp_.context, (past + count + kSpanStep - 1) / kSpanStep * kSpanStep);
    }

    /// The step's inputs; the cache rows written are an input too (not a
    /// view offset), for the same reason.
    struct Inputs {
        ggml_tensor* tokens;
        ggml_tensor* positions;
        ggml_tensor* cacheRows;
        ggml_tensor* mask;
    };

    Inputs inputs(ggml_context* ctx, int count, int past) const {
        Inputs in{};
        in.tokens = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, count);
        in.positions = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, count);
        in.cacheRows = ggml_new_tensor_1d(ctx, GGML_TYPE_I64, count);
        in.mask = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, span(count, past), count);
        for (ggml_tensor* t : {in.tokens, in.positions, in.cacheRows, in.mask}) ggml_set_input(t);
        return in;
    }

    void set_inputs(const Inputs& in, const std::vector<int32_t>& tokens, int past) const {
        const int count = static_cast<int>(tokens.size());
        std::vector<int32_t> positions(tokens.size());
        std::vector<int64_t> rows(tokens.size());
        for (int i = 0; i < count; ++i) rows[i] = positions[i] = past + i;
        // Causal: token i sees positions 0 .. past + i.
        const int seen = span(count, past);
        std::vector<ggml_fp16_t> mask(static_cast<size_t>(seen) * count);
        for (int i = 0; i < count; ++i) {
            for (int j = 0; j < seen; ++j) mask[i * seen + j] = ggml_fp32_to_fp16(j <= past + i ? 0.0f : -INFINITY);
        }
        ggml_backend_tensor_set(in.tokens, tokens.data(), 0, tokens.size() * sizeof(int32_t));
        ggml_backend_tensor_set(in.positions, positions.data(), 0, positions.size() * sizeof(int32_t));
        ggml_backend_tensor_set(in.cacheRows, rows.data(), 0, rows.size() * sizeof(int64_t));
        ggml_backend_tensor_set(in.mask, mask.data(), 0, mask.size() * sizeof(ggml_fp16_t));
    }

    ggml_tensor* norm(ggml_context* ctx, ggml_tensor* x, ggml_tensor* weight) const {
        return ggml_mul(ctx, ggml_rms_norm(ctx, x, hp_.normEps), weight);
    }

    ggml_tensor* rope(ggml_context* ctx, ggml_tensor* x, ggml_tensor* positions) const {
        return ggml_rope_ext(ctx, x, positions, nullptr, hp_.headDim, GGML_ROPE_TYPE_NORMAL, hp_.context, hp_.ropeBase,
                             1.0f, 0.0f, 1.0f, 0.0f, 0.0f);
    }

    /// The cache's first `seen` positions as [headDim, seen, kvHeads].
    ggml_tensor* cached(ggml_context* ctx, ggml_tensor* cache, int seen) const {
        return ggml_view_3d(ctx, cache, hp_.headDim, seen, hp_.kvHeads, cache->nb[1],
                            ggml_row_size(cache->type, hp_.headDim), 0);
    }

    /// Self-attention of count tokens at positions past.. over the cache
    /// (after storing their K and V in it); [embd, count].
    ggml_tensor* attention(ggml_context* ctx, ggml_cgraph* graph, const Layer& layer, ggml_tensor* h,
                           const Inputs& in, int count, int past) const {
        ggml_tensor* q = rope(ctx, ggml_reshape_3d(ctx, ggml_mul_mat(ctx, layer.wq, h), hp_.headDim, hp_.heads, count),
                              in.positions);
        ggml_tensor* k = rope(ctx, ggml_reshape_3d(ctx, ggml_mul_mat(ctx, layer.wk, h), hp_.headDim, hp_.kvHeads, count),
                              in.positions);
        ggml_tensor* v = ggml_mul_mat(ctx, layer.wv, h);
        const int64_t kvWidth = int64_t{hp_.kvHeads} * hp_.headDim;
        for (auto [value, cache] : {std::pair{k, layer.kCache}, std::pair{v, layer.vCache}}) {
            ggml_build_forward_expand(graph,
                                      ggml_set_rows(ctx, cache, ggml_reshape_2d(ctx, value, kvWidth, count), in.cacheRows));
        }
        const int seen = span(count, past);
        ggml_tensor* keys = cached(ctx, layer.kCache, seen);
        ggml_tensor* values = cached(ctx, layer.vCache, seen);
        ggml_tensor* queries = ggml_permute(ctx, q, 0, 2, 1, 3);  // [headDim, count, heads]
        const float scale = 1.0f / std::sqrt(static_cast<float>(hp_.headDim));
        ggml_tensor* heads;  // [headDim, heads, count]
        if (options_.flash) {
            heads = ggml_flash_attn_ext(ctx, queries, keys, values, in.mask, scale, 0.0f, 0.0f);
            ggml_flash_attn_ext_set_prec(heads, GGML_PREC_F32);
        } else {
            ggml_tensor* scores = ggml_soft_max_ext(ctx, ggml_mul_mat(ctx, keys, queries), in.mask, scale, 0.0f);
            ggml_tensor* valuesByPosition = ggml_cont(ctx, ggml_transpose(ctx, values));  // [seen, headDim, kvHeads]
            heads = ggml_cont(ctx, ggml_permute(ctx, ggml_mul_mat(ctx, valuesByPosition, scores), 0, 2, 1, 3));
        }
        return ggml_mul_mat(ctx, layer.wo, ggml_reshape_2d(ctx, heads, hp_.embd, count));
    }

    ggml_tensor* feed_forward(ggml_context* ctx, const Layer& layer, ggml_tensor* h) const {
        ggml_tensor* gated = ggml_swiglu_split(ctx, ggml_mul_mat(ctx, layer.wGate, h), ggml_mul_mat(ctx, layer.wUp, h));
        return ggml_mul_mat(ctx, layer.wDown, gated);
    }

    ggml_tensor* forward(ggml_context* ctx, ggml_cgraph* graph, const Inputs& in, int count, int past) const {
        ggml_tensor* x = ggml_get_rows(ctx, tokenEmbd_, in.tokens);
        for (const Layer& layer : layers_) {
            x = ggml_add(ctx, x, attention(ctx, graph, layer, norm(ctx, x, layer.attnNorm), in, count, past));
            x = ggml_add(ctx, x, feed_forward(ctx, layer, norm(ctx, x, layer.ffnNorm)));
        }
        ggml_tensor* last = ggml_view_2d(ctx, x, hp_.embd, 1, x->nb[1], (count - 1) * x->nb[1]);
        return ggml_mul_mat(ctx, output_, norm(ctx, last, outputNorm_));
    }

    const Hyper& hp_;
    const Options& options_;
    ggml_backend_t backend_;
    ggml_context* context_ = nullptr;
    ggml_backend_buffer_t buffer_ = nullptr;
    ggml_backend_sched_t scheduler_ = nullptr;
    std::vector<uint8_t> graphMemory_;
    ggml_tensor* tokenEmbd_ = nullptr;
    ggml_tensor* outputNorm_ = nullptr;
    ggml_tensor* output_ = nullptr;
    std::vector<Layer> layers_;
    int splits_ = 0;
};

struct Run {
    std::string backend;
    std::vector<int32_t> tokens;
    std::vector<std::vector<float>> logits;  // per step: the prompt's last, then each generated token's
    double promptSeconds = 0;
    double generateSeconds = 0;
    int splits = 0;
};

int32_t greedy(const std::vector<float>& logits) {
    return static_cast<int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Run generate(const Hyper& hp, const Options& options, const std::vector<HostWeight>& weights,
             const std::vector<int32_t>& prompt, ggml_backend_t backend, ggml_backend_t cpu) {
    Model model(hp, options, weights, backend, cpu);
    Run run;
    run.backend = ggml_backend_name(backend);
    model.step(prompt, 0);  // untimed: the first graph's allocations, the threads' start
    auto start = std::chrono::steady_clock::now();
    run.logits.push_back(model.step(prompt, 0));
    run.promptSeconds = seconds_since(start);
    start = std::chrono::steady_clock::now();
    for (int i = 0; i < options.generate; ++i) {
        run.tokens.push_back(greedy(run.logits.back()));
        if (i + 1 < options.generate) {
            run.logits.push_back(model.step({run.tokens.back()}, static_cast<int>(prompt.size()) + i));
        }
    }
    run.generateSeconds = seconds_since(start);
    run.splits = model.splits();
    return run;
}

void print_run(const Run& run, const Options& options) {
    std::printf("%s: %zu tokens:", run.backend.c_str(), run.tokens.size());
    for (int32_t token : run.tokens) std::printf(" %d", token);
    std::printf("\n%s: prompt %d tokens %.1f tok/s, generation %.1f tok/s, %d graph splits\n", run.backend.c_str(),
                options.prompt, options.prompt / run.promptSeconds,
                std::max(options.generate - 1, 0) / std::max(run.generateSeconds, 1e-9), run.splits);
}

/// The largest |logit| of a step and the largest difference between two.
struct StepDifference {
    double largest = 0;
    double difference = 0;
};

StepDifference difference_of(const std::vector<float>& a, const std::vector<float>& b) {
    StepDifference d;
    for (size_t i = 0; i < a.size(); ++i) {
        d.largest = std::max(d.largest, std::fabs(double{a[i]}));
        d.difference = std::max(d.difference, std::fabs(double{a[i]} - double{b[i]}));
    }
    return d;
}

/// The gap between a step's two largest logits.
double top_two_gap(const std::vector<float>& logits) {
    std::vector<float> sorted(logits);
    std::partial_sort(sorted.begin(), sorted.begin() + 2, sorted.end(), std::greater<float>());
    return double{sorted[0]} - double{sorted[1]};
}

/// Compares two runs step by step while their tokens agree: each step's
/// logits within tolerance x its largest |logit|.  Where the tokens part,
/// they agree only at a near tie -- the reference's two best logits closer
/// than the two runs' logits differ at that step, so that either choice is
/// within the runs' difference -- and the steps after it (other contexts)
/// are not compared.  Returns whether the runs agree.
bool compare(const Run& reference, const Run& other, double tolerance) {
    double worst = 0;
    const size_t steps = std::min(reference.logits.size(), other.logits.size());
    for (size_t s = 0; s < steps; ++s) {
        const StepDifference d = difference_of(reference.logits[s], other.logits[s]);
        const double relative = d.difference / std::max(d.largest, 1e-30);
        worst = std::max(worst, relative);
        if (!(relative <= tolerance)) {
            std::printf("step %zu: logits differ by %.3g of the largest |logit| (tolerance %.3g)\n", s, relative,
                        tolerance);
            return false;
        }
        if (reference.tokens[s] == other.tokens[s]) continue;
        const double gap = top_two_gap(reference.logits[s]);
        std::printf("tokens part at step %zu (%d vs %d): the reference's two best logits %.3g apart, the logits "
                    "%.3g apart; largest logit difference until then %.3g of the largest |logit| (tolerance %.3g)\n",
                    s, reference.tokens[s], other.tokens[s], gap, d.difference, worst, tolerance);
        return gap <= d.difference;
    }
    std::printf("tokens identical; largest logit difference %.3g of the step's largest |logit| (tolerance %.3g)\n",
                worst, tolerance);
    return true;
}

bool parse(int argc, char** argv, Options& options) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (arg == "--weights") {
            const std::string type = value();
            if (type != "f16" && type != "q4_0") return false;
            options.weightType = type == "f16" ? GGML_TYPE_F16 : GGML_TYPE_Q4_0;
        } else if (arg == "--attention") {
            const std::string kind = value();
            if (kind != "flash" && kind != "softmax") return false;
            options.flash = kind == "flash";
        } else if (arg == "--prompt") {
            options.prompt = std::atoi(value().c_str());
        } else if (arg == "--generate") {
            options.generate = std::atoi(value().c_str());
        } else if (arg == "--threads") {
            options.threads = std::atoi(value().c_str());
        } else if (arg == "--seed") {
            options.seed = std::strtoull(value().c_str(), nullptr, 10);
        } else if (arg == "--tolerance") {
            options.tolerance = std::atof(value().c_str());
        } else if (arg == "--cpu-only") {
            options.cann = false;
        } else if (arg == "--cann-only") {
            options.cpu = false;
        } else {
            return false;
        }
    }
    return options.prompt >= 1 && options.generate >= 1 && options.threads >= 1;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    if (!parse(argc, argv, options)) {
        std::fprintf(stderr, "usage: tiny_llama [--weights f16|q4_0] [--attention flash|softmax] [--prompt N] "
                             "[--generate N] [--threads N] [--seed N] [--tolerance X] [--cpu-only|--cann-only]\n");
        return 2;
    }
    if (options.tolerance < 0) options.tolerance = options.weightType == GGML_TYPE_F16 ? 0.02 : 0.05;
    const Hyper hp;
    if (options.prompt + options.generate > hp.context) {
        std::fprintf(stderr, "tiny_llama: prompt + generate must be at most %d\n", hp.context);
        return 2;
    }
    const std::vector<HostWeight> weights = draw_weights(hp, options);
    Random random(options.seed ^ 0x5eedULL);
    std::vector<int32_t> prompt(static_cast<size_t>(options.prompt));
    for (int32_t& token : prompt) token = static_cast<int32_t>(random.next() % static_cast<uint64_t>(hp.vocab));

    std::printf("tiny_llama: %s weights, %s attention, prompt %d, generate %d, %d threads\n",
                ggml_type_name(options.weightType), options.flash ? "FLASH_ATTN_EXT" : "MUL_MAT + SOFT_MAX",
                options.prompt, options.generate, options.threads);
    ggml_backend_t cpu = ggml_backend_cpu_init();
    ggml_backend_cpu_set_n_threads(cpu, options.threads);
    std::vector<Run> runs;
    if (options.cpu) runs.push_back(generate(hp, options, weights, prompt, cpu, cpu));
    if (options.cann) {
        ggml_backend_t cann = ggml_backend_cann_init(0);
        if (cann == nullptr) {
            std::fprintf(stderr, "tiny_llama: no CANN0 backend\n");
            return 2;
        }
        runs.push_back(generate(hp, options, weights, prompt, cann, cpu));
        ggml_backend_free(cann);
    }
    ggml_backend_free(cpu);
    for (const Run& run : runs) print_run(run, options);
    if (runs.size() == 2) {
        std::printf("speed CANN0 / CPU: prompt %.2f, generation %.2f\n", runs[0].promptSeconds / runs[1].promptSeconds,
                    runs[0].generateSeconds / runs[1].generateSeconds);
        return compare(runs[0], runs[1], options.tolerance) ? 0 : 1;
    }
    return 0;
}
