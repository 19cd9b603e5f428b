// model_logic.hpp — the Model mode's numbers without drawing (model_logic.cpp): the text's tokens, the
// model on them (the CLI's --lm-eval, bit for bit: the same core calls in the same order), the opened
// head as a scene and the prediction with a scene's edited q, k, v. tests/model_mode_test.cpp checks
// them against the CLI's definitions; model_run.cpp calls them from the UI.
#pragma once

#include <string>
#include <vector>

#include "scene/lm_file.hpp"
#include "scene/scene.hpp"
#include "ui/modes/model/model_state.hpp"

namespace ui::model_logic {

// How many tokens the top list holds (the prediction panel, getModel().top, --lm-eval's "top").
constexpr int kTop = 10;

// The text's tokens, the first n_ctx of them; *total: how many the whole text has.
std::vector<int> encode_text(const scene::LmFile& f, const std::string& text, int* total);

// The k most probable next tokens after `row` (1×V logits): p = softmax (T = 1), most probable first,
// ties to the lower id (a stable sort of the ids, as --lm-eval's "top").
std::vector<ModelToken> top_tokens(const scene::LmFile& f, const attn::Matrix& logits, int row, int k);

// How many of the last positions evaluate() gives the logit lens of (its softmax over the vocabulary
// at every position costs as much as the forward pass itself: the panel shows the last few).
constexpr int kLensPositions = 8;

// The model on `tokens` (1 ≤ n ≤ n_ctx) with the ablation and overrides: every stage, the losses, the
// top 10, each head's role and the logit lens's top token after each layer at the last kLensPositions
// positions (e.lens_from on). With `previous` (an evaluate() of the same file without overrides), the
// pass reuses its rows before the first changed token (forward_reusing: the same bits, a keystroke at
// the end of 128 tokens recomputes a row or two instead of 128).
ModelEval evaluate(const scene::LmFile& f, const std::vector<int>& tokens,
                   const attn::model::Ablation& ablation,
                   const std::vector<attn::model::HeadOverride>& overrides = {},
                   const ModelEval* previous = nullptr);

// The logit lens's top token after each layer at positions `from` … n−1 of `fw` (--lm-eval --lens: the
// whole text from 0; strictly larger p wins, so the lowest id on a tie).
std::vector<std::vector<ModelToken>> lens_of(const scene::LmFile& f, const attn::model::Forward& fw,
                                             int from);

// Head (layer, head) of `e` as an ordinary version-2 scene: tokens = the pieces (newline and tab
// written \n and \t), Q, K, V = its real q, k, v on the text (after LayerNorm and the biases), one
// head, causal, scale 1/√d_head. compute() of it gives the head's scores, pattern and z of `e`.
scene::Scene head_scene(const ModelEval& e, int layer, int head);

// Whether `s` is still computed as the opened head computes: n tokens, d_head columns, direct, one
// head, causal, scale 1/√d_head and no other key that changes the weights (ALiBi, RoPE, a window, a
// W_o, a variant). A custom mask fits: the head runs with it (ANDed with its causal mask).
bool scene_fits_head(const scene::Scene& s, const ModelEval& e, int layer, int head);

// The prediction when head (layer, head) reads the scene's Q, K, V (and its custom mask, if any) in
// place of its own (the model re-run from that head on: HeadOverride), with the ablation; the top 10
// after the last token.
std::vector<ModelToken> prediction_with_scene(const scene::LmFile& f, const ModelEval& e,
                                              const attn::model::Ablation& ablation, const scene::Scene& s,
                                              int layer, int head);

}  // namespace ui::model_logic
