// circuits_state.hpp — the Circuits mode's state (ui/modes/circuits/): the run of the attention-only
// transformer (core/model_train.hpp), its pace, the typed sample sequence and what the model does on
// it, the ablated heads, the head opened in Explore and the guide's step. Part of UiState.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/model_scores.hpp"
#include "core/model_train.hpp"
#include "scene/link.hpp"
#include "ui/widgets/run_pacer.hpp"

namespace ui {

// The sample sequence the mode starts with (a link writes the text only when it differs).
inline constexpr const char* kCircuitsText = "abcdefghij abcdefghij";

// The model on the typed text: one forward pass (with the ablated heads off) and what it predicts.
struct CircuitsSample {
  std::vector<int> tokens;                           // the text's symbols (≥ 2 to predict anything)
  attn::model::Forward forward;                      // every stage, per layer and head
  std::vector<attn::model::Prediction> predictions;  // after each position
  double loss = 0.0;                                 // the text's mean next-token loss
  std::string error;                                 // the text is not usable ("" when it is)
};

struct CircuitsUi {
  attn::model::TrainConfig config;                     // task, sizes, seed, lr (the recipe)
  std::shared_ptr<attn::model::ModelTrainer> trainer;  // the run; null until the mode is first shown
  bool running = false;                                // Play (true) / Pause (false)
  int rebuild_to = 0;                                  // a link's recipe: train to this step at full speed
  RunPacer pace{120.0f, 0.0, 5.0};                     // Play's pace, what a step takes, the frame's work
  attn::model::Ablation ablation;                      // heads switched off (the toggles)
  attn::model::Scores scores;                          // the evaluation set's scores, ablation applied
  std::string text = kCircuitsText;                    // the typed sample sequence
  std::string text_draft, text_error;                  // a typed text that was refused, and why
  CircuitsSample sample;                               // the model on `text`
  std::uint64_t sample_version = 0;                    // bumped whenever `sample` is recomputed
  // Every head's pattern on the text, one texture: L·n rows × H·n columns, head (l, h) the block at
  // rows l·n…, columns h·n…; above the diagonal (masked by causality) kMaskedValue, drawn hatched.
  std::vector<float> mosaic;
  std::uint64_t mosaic_version = 0;                         // the sample_version it was built from
  int opened_layer = -1, opened_head = -1;                  // the head shown in Explore (−1: none)
  std::optional<scene::link::CircuitsProbe> pending_probe;  // a link's probe, applied once rebuilt
  int guide_step = -1;                                      // the guided explanation's step (−1: closed)
};

}  // namespace ui
