// model_state.hpp — the Model mode's state (ui/modes/model/): the language model (loaded on first use),
// the typed text and what the model does on it, the ablated heads, the sampling settings and the tokens
// generated, and the head opened in Explore. Part of UiState; plain structs, no ImGui.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/head_roles.hpp"
#include "core/model.hpp"
#include "core/sampling.hpp"
#include "scene/link.hpp"
#include "scene/lm_file.hpp"
#include "ui/widgets/run_pacer.hpp"

namespace ui {

enum class ModelLoad { Idle, Loading, Ready, Failed };

// One token with its probability (the prediction panel, the logit lens, a generated token).
struct ModelToken {
  int token = 0;
  std::string piece;  // tokenizer's display_piece: valid UTF-8
  double p = 0.0;
};

// The model on the tokens (prompt + generated), with the ablation: every stage and what it predicts.
struct ModelEval {
  std::vector<int> tokens;
  std::vector<std::string> pieces;
  attn::model::Forward forward;
  std::vector<double> per_token_loss;  // n − 1: −log p(t_{i+1} | t_0 … t_i)
  double loss = 0.0;
  std::vector<ModelToken> top;                // the 10 most probable next tokens, p at T = 1
  std::vector<attn::model::HeadRole> roles;   // layer-major, as head_roles() gives them
  std::vector<std::vector<ModelToken>> lens;  // [layer][position − lens_from]: the lens's top token
  int lens_from = 0;                          // the first position the lens holds
  int text_tokens = 0;                        // the typed text's tokens before the cut
};

struct ModelUi {
  // --- the model file (its row's `file`, fetched on first use through Sharing::fetch_file; the web
  // shows a progress bar, the desktop reads it from --model's path)
  ModelLoad load = ModelLoad::Idle;
  float progress = 0.0f;   // 0 … 1 while loading
  std::string load_error;  // why it failed ("model file: …", "download: …")
  std::shared_ptr<const scene::LmFile> file;

  // --- what a link carries (scene::link::ModelLink): text, sampling, seed, generated, ablate, open
  scene::link::ModelLink settings;
  std::string text_draft;  // the text field while it is being typed (applied at once)

  // --- derived
  attn::model::Ablation ablation;                     // from settings.ablate
  std::vector<int> prompt;                            // the text's tokens (cut to n_ctx)
  std::vector<int> generated;                         // tokens drawn after the prompt
  std::vector<double> generated_p;                    // each one's probability where it was drawn
  std::shared_ptr<attn::model::Generator> generator;  // continues the draw (Step, Generate)
  int generate_target = 0;                            // Generate: draw until generated.size() reaches this
  RunPacer pace{30.0f};                               // Generate's pace: 30 tokens per second
  ModelEval eval;                                     // the model on prompt + generated
  std::uint64_t eval_version = 0;                     // bumped whenever eval is recomputed

  // --- the head opened in Explore
  int opened_layer = -1, opened_head = -1;
  attn::Matrix opened_q, opened_k, opened_v;  // the model's own numbers (Reset)
  attn::Matrix seen_q, seen_k, seen_v;        // the scene's numbers the prediction was last run on
  attn::MaskMatrix seen_mask;                 // … and its custom mask (empty: the causal mask alone)
  std::vector<ModelToken> opened_top;         // the prediction with the scene's q, k, v
  bool opened_edited = false, opened_mismatch = false;
  int hover_layer = -1, hover_head = -1;  // the thumbnail under the mouse (large view)

  // --- the heads grid's pictures (the painter reads them after the frame): every head's pattern in one
  // mosaic (ModelHeads), and the hovered head large (ModelHeadLarge)
  std::vector<float> mosaic, large;
  std::uint64_t mosaic_version = 0, large_version = 0;
  int large_layer = -1, large_head = -1;
};

}  // namespace ui
