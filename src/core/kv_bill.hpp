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
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

struct KvShape {
  int layers = 1;
  int heads = 1;     // H (query heads; not in the formula, shown beside H_kv)
  int kv_heads = 1;  // H_kv
  int d_head = 64;
  std::int64_t context = 1;  // tokens of context
  int bytes_per_number = 2;  // 2 = fp16/bf16, 4 = fp32, 1 = int8
  std::int64_t window = 0;   // 0 = the cache keeps every token; else it keeps the last `window`
  std::int64_t sinks = 0;    //   … plus the first `sinks`
};

// 2 · layers · H_kv · d_head · bytes_per_number.
std::int64_t kv_bytes_per_token(const KvShape& shape);
// min(context, window + sinks) when a window is set, else context.
std::int64_t kv_tokens_held(const KvShape& shape);
// kv_bytes_per_token · kv_tokens_held.
std::int64_t kv_bytes_per_context(const KvShape& shape);
// "" or a sentence naming the bad field (every count ≥ 1, H_kv dividing H, window and sinks ≥ 0).
std::string check_kv_shape(const KvShape& shape);

// Published model shapes (sources in kv_bill.cpp beside each row, and in README.md).
struct KvPreset {
  const char* name;  // e.g. "llama-2-7b"
  KvShape shape;
  const char* source;  // paper or model card the numbers come from
};
const std::vector<KvPreset>& kv_presets();

}  // namespace attn
