// train_page.cpp — the Train mode's part of the page API: getTraining() (its row's page_call hook,
// modes/modes.cpp).
#include "core/train.hpp"
#include "ui/modes/train/train_mode.hpp"

namespace ui {

// "get": {"running", "task", "step", "loss", "accuracy", "lr", "seed", "heads", "workMs"}: loss is the
// last step's batch cross-entropy (null before the first step), accuracy the share of right answers on
// 64 fresh sequences (null until measured), workMs the CPU ms the last frame spent training.
PageJson train_page_call(AppState& state, std::string_view call, std::string_view) {
  if (call != "get") return nullptr;
  const TrainUi& t = state.ui.train;
  const attn::train::Trainer* run = t.trainer.get();
  PageJson j;
  j["running"] = t.running;
  j["task"] = attn::train::task_name(t.config.task);
  j["step"] = run ? run->steps() : 0;
  j["loss"] = run && !run->losses().empty() ? PageJson(run->losses().back()) : PageJson(nullptr);
  j["accuracy"] = t.accuracy >= 0 ? PageJson(t.accuracy) : PageJson(nullptr);
  j["lr"] = run ? run->lr() : attn::train::default_lr(t.config.optimizer);
  j["seed"] = t.config.seed;
  j["heads"] = t.config.heads;
  j["workMs"] = t.pace.last_work_ms;
  return j;
}

}  // namespace ui
