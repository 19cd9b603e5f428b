// kv_bill.cpp — the KV-cache bill (formulas in kv_bill.hpp) and published model shapes.
#include "core/kv_bill.hpp"

#include <algorithm>

namespace attn {

std::int64_t kv_bytes_per_token(const KvShape& shape) {
  switch (shape.kind) {
    case KvKind::Latent:
      return std::int64_t{shape.layers} * (shape.latent + shape.rope_dim) * shape.bytes_per_number;
    case KvKind::Linear:
      return 0;
    case KvKind::Heads:
      break;
  }
  return std::int64_t{2} * shape.layers * shape.kv_heads * shape.d_head * shape.bytes_per_number;
}

std::int64_t kv_state_bytes(const KvShape& shape) {
  if (shape.kind != KvKind::Linear) return 0;
  const std::int64_t d = shape.d_head;
  return std::int64_t{shape.layers} * shape.heads * (d * d + d) * shape.bytes_per_number;
}

KvShape kv_as_mha(const KvShape& shape) {
  KvShape mha = shape;
  mha.kind = KvKind::Heads;
  mha.kv_heads = shape.heads;
  mha.latent = mha.rope_dim = 0;
  return mha;
}

std::int64_t kv_tokens_held(const KvShape& shape) {
  return shape.window > 0 ? std::min(shape.context, shape.window + shape.sinks) : shape.context;
}

std::int64_t kv_bytes_per_context(const KvShape& shape) {
  if (shape.kind == KvKind::Linear) return kv_state_bytes(shape);
  return kv_bytes_per_token(shape) * kv_tokens_held(shape);
}

std::string check_kv_shape(const KvShape& s) {
  // Limits keep every product inside 64 bits: 2 · 1000 · 1024 · 1024 · 8 · 10⁸ < 2⁶³.
  if (s.layers < 1 || s.layers > 1000) return "layers: must be 1 to 1000";
  if (s.heads < 1 || s.heads > 1024) return "heads: must be 1 to 1024";
  if (s.kv_heads < 1 || s.heads % s.kv_heads != 0) return "kv_heads: must divide heads";
  if (s.d_head < 1 || s.d_head > 1024) return "d_head: must be 1 to 1024";
  if (s.context < 1 || s.context > 100000000) return "context: must be 1 to 100000000 tokens";
  if (s.bytes_per_number < 1 || s.bytes_per_number > 8) return "bytes per number: must be 1 to 8";
  if (s.window < 0 || s.sinks < 0) return "window, sinks: must be 0 or more";
  if (s.kind == KvKind::Latent && (s.latent < 1 || s.latent > 65536)) return "d_c: must be 1 to 65536";
  if (s.kind == KvKind::Latent && (s.rope_dim < 0 || s.rope_dim > 1024)) return "d_rope: must be 0 to 1024";
  return {};
}

const std::vector<KvPreset>& kv_presets() {
  // {name, {layers, H, H_kv, d_head, context, bytes, window, sinks}, source}; 2 bytes = the fp16/bf16
  // weights the models are released in. One model a row: its name and shape, the source below.
  // clang-format off
  static const std::vector<KvPreset> presets = {
      // Touvron et al. 2023, "Llama 2: Open Foundation and Fine-Tuned Chat Models" (arXiv:2307.09288),
      // Table 1 and the 7B model card: 32 layers, d_model 4096 = 32 heads × 128, multi-head
      // attention (GQA only for 34B/70B), 4k context.
      {"llama-2-7b", {32, 32, 32, 128, 4096, 2, 0, 0},
       "Llama 2 paper (Touvron et al. 2023), Table 1; 7B model card"},
      // The same paper: the 70B model uses grouped-query attention with 8 KV heads; 80 layers,
      // d_model 8192 = 64 heads × 128 (the 70B model card's config).
      {"llama-2-70b", {80, 64, 8, 128, 4096, 2, 0, 0},
       "Llama 2 paper (Touvron et al. 2023), §2.2 and Table 1; 70B model card"},
      // Jiang et al. 2023, "Mistral 7B" (arXiv:2310.06825), Table 1: dim 4096, 32 layers, head_dim
      // 128, 32 heads, 8 KV heads, window 4096, context 8192; its rolling buffer cache holds the
      // last 4096 tokens (§2).
      {"mistral-7b", {32, 32, 8, 128, 8192, 2, 4096, 0},
       "Mistral 7B paper (Jiang et al. 2023), Table 1 and §2 (rolling buffer cache)"},
      // Llama Team, AI @ Meta 2024, "The Llama 3 Herd of Models" (arXiv:2407.21783), Table 3: 8B has
      // 32 layers, model dim 4096, 32 attention heads, 8 key/value heads; 8k context (Llama 3 8B
      // model card; 128k for Llama 3.1).
      {"llama-3-8b", {32, 32, 8, 128, 8192, 2, 0, 0},
       "The Llama 3 Herd of Models (Llama Team, AI @ Meta 2024), Table 3; Llama 3 8B model card"},
      // Almazrouei et al. 2023, "The Falcon Series of Open Language Models" (arXiv:2311.16867):
      // Falcon-7B has 32 layers, d_model 4544 = 71 heads × 64, multi-query attention (one K/V
      // head: its fused query_key_value map has 4544 + 2·64 = 4672 outputs), 2048 context.
      {"falcon-7b", {32, 71, 1, 64, 2048, 2, 0, 0},
       "The Falcon Series of Open Language Models (Almazrouei et al. 2023); Falcon-7B model card"},
      // DeepSeek-AI 2024, "DeepSeek-V2: A Strong, Economical, and Efficient Mixture-of-Experts
      // Language Model" (arXiv:2405.04434), §3.1.2: 60 layers, 128 heads of d_h = 128, KV
      // compression d_c = 512, decoupled RoPE key d_h^R = 64 (§2.1.3); 128K context. Multi-head
      // latent attention caches (d_c + d_h^R) numbers per token and layer (§2.1.4, Table 1).
      {"deepseek-v2", {60, 128, 128, 128, 131072, 2, 0, 0, KvKind::Latent, 512, 64},
       "DeepSeek-V2 paper (DeepSeek-AI 2024, arXiv 2405.04434), §2.1 and §3.1.2"},
      // DeepSeek-AI 2024, "DeepSeek-V3 Technical Report" (arXiv:2412.19437), §4.2: 61 layers,
      // 128 heads of d_h = 128, d_c = 512, d_h^R = 64; 128K context.
      {"deepseek-v3", {61, 128, 128, 128, 131072, 2, 0, 0, KvKind::Latent, 512, 64},
       "DeepSeek-V3 Technical Report (DeepSeek-AI 2024, arXiv 2412.19437), §4.2"},
  };
  // clang-format on
  return presets;
}

}  // namespace attn
