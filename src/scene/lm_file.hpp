// lm_file.hpp — the language model's compact file: what web/models/ ships and every --lm-* flag reads.
//
// Layout (little-endian):
//   "ALM1"                          4 bytes, the magic
//   header length H                 uint32
//   header                          H bytes of JSON: {"format": "attention-lab-model", "version": 1,
//                                   "n_ctx", "d_model", "layers", "heads", "d_mlp", "vocab",
//                                   "tokenizer" (scene/tokenizer_json.hpp) or "symbols" [V strings],
//                                   "tensors": [{"name", "rows", "cols", "dtype"} …], "training": {…}}
//   the tensors, in the header's order, each
//     "int8":  rows float32 scales s_r, then rows×cols int8 q (row-major); the weight is q · s_r
//     "f32":   rows×cols float32
// Names are model.hpp's named_weights ("W_E", "layers[0].heads[1].W_Q", "layers[1].mlp.b_in", …).
// Matrices of ≥ 2 rows and ≥ 2 columns are int8 with one scale per row, s_r = max_c |w_rc| / 127
// rounded to float32 (0 rows: s_r = 0); q = round(w / s_r) clamped to ±127. Vectors (biases,
// LayerNorm) are float32. Every stored value is a double exactly (an int8 times a float32), so
// de-quantizing loses nothing further: the file's model is exactly what is evaluated and reported.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/lm_train.hpp"
#include "core/model.hpp"
#include "core/tokenizer.hpp"

namespace scene {

struct LmFile {
  attn::model::Model model;
  std::optional<attn::bpe::Tokenizer> tokenizer;
  std::string training;  // the header's "training" object as compact JSON ("" when absent)
};

// The model rounded as the file stores it (int8 rows, float32 vectors), as doubles.
attn::model::Model quantized(const attn::model::Model& m);

// The file's bytes for m (quantized as above), its tokenizer (or m.vocab as "symbols") and the
// training record (compact JSON of an object, or "").
std::string write_lm_file(const attn::model::Model& m, const std::optional<attn::bpe::Tokenizer>& tokenizer,
                          const std::string& training);

bool is_lm_file(std::string_view bytes);  // starts with the magic

struct LmFileParse {
  std::optional<LmFile> file;
  std::string error;  // "model file: <what is wrong>" (truncated, a shape, NaN, an unknown tensor, …)
  bool ok() const { return file.has_value(); }
};
LmFileParse read_lm_file(std::string_view bytes);

// The trainer's checkpoint: "ALC1", uint32 header length, a JSON header {"config": {…}, "step", "rng"
// (the data stream's state as a decimal string)}, then every weight, Adam's m, Adam's v as float64
// (little-endian, weights_of order). Resuming from it continues the run bit for bit.
std::string write_checkpoint(const attn::model::LmTrainer& trainer, const std::string& config_json);
// The state for a trainer of the same config (config_json compared as written); error when not.
bool read_checkpoint(std::string_view bytes, const std::string& config_json,
                     attn::model::LmTrainer::State* state, std::string* error);

// A model from either form: the compact file (by its magic) or the JSON contract (model_json.hpp).
LmFileParse read_any_model(std::string_view bytes);

}  // namespace scene
