// kv_bill.hpp — what a decoder's key/value cache costs in memory, for real model shapes.
//
// Every layer keeps, for each token in the cache, one key and one value vector per KV head:
//
//   bytes per token   = 2 × layers × H_kv × d_head × bytes per number      (2: K and V)
//   bytes per context = bytes per token × tokens held
//
// tokens held = the context length, or at most w (+ s sinks) when the cache keeps only the last w
// (Mistral's rolling buffer, StreamingLLM's sinks + window). Grouped-query attention divides the
// bill by H / H_kv: the queries keep all H heads, the cache only H_kv.
//
// Two other kinds of attention keep other things:
//   multi-head latent attention (DeepSeek-V2, arXiv 2405.04434 §2.1): each layer caches one latent
//     c_KV of d_c numbers and the decoupled RoPE key of d_rope, shared by all heads:
//       bytes per token = layers × (d_c + d_rope) × bytes per number
//   linear attention (Katharopoulos et al. 2020 §3.4): each head keeps a state S = Σ φ(k) vᵀ of
//     d_head × d_head and its normaliser z = Σ φ(k) of d_head, whatever the context:
//       bytes of state  = layers × H × (d_head² + d_head) × bytes per number,  nothing per token
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

// What a layer keeps for the tokens before: K and V per KV head, MLA's latent, or linear attention's state.
enum class KvKind { Heads, Latent, Linear };

struct KvShape {
  int layers = 1;
  int heads = 1;     // H (query heads; not in the formula, shown beside H_kv)
  int kv_heads = 1;  // H_kv
  int d_head = 64;
  std::int64_t context = 1;  // tokens of context
  int bytes_per_number = 2;  // 2 = fp16/bf16, 4 = fp32, 1 = int8
  std::int64_t window = 0;   // 0 = the cache keeps every token; else it keeps the last `window`
  std::int64_t sinks = 0;    //   … plus the first `sinks`
  KvKind kind = KvKind::Heads;
  int latent = 0;    // Latent: d_c, the latent's numbers per token and layer
  int rope_dim = 0;  // Latent: d_rope, the decoupled RoPE key's (shared by the heads)
};

// Heads: 2 · layers · H_kv · d_head · bytes_per_number; Latent: layers · (d_c + d_rope) · bytes;
// Linear: 0 (its state does not grow).
std::int64_t kv_bytes_per_token(const KvShape& shape);
// min(context, window + sinks) when a window is set, else context.
std::int64_t kv_tokens_held(const KvShape& shape);
// Linear: layers · H · (d_head² + d_head) · bytes; the others keep no fixed state (0).
std::int64_t kv_state_bytes(const KvShape& shape);
// kv_bytes_per_token · kv_tokens_held (Linear: its state).
std::int64_t kv_bytes_per_context(const KvShape& shape);
// "" or a sentence naming the bad field (every count ≥ 1, H_kv dividing H, window and sinks ≥ 0,
// MLA's d_c ≥ 1 and d_rope ≥ 0).
std::string check_kv_shape(const KvShape& shape);
// The same heads as plain multi-head attention (kind Heads, H_kv = H): what MLA and GQA are measured against.
KvShape kv_as_mha(const KvShape& shape);

// Published model shapes (sources in kv_bill.cpp beside each row, and in README.md).
struct KvPreset {
  const char* name;  // e.g. "llama-2-7b"
  KvShape shape;
  const char* source;  // paper or model card the numbers come from
};
const std::vector<KvPreset>& kv_presets();

}  // namespace attn
