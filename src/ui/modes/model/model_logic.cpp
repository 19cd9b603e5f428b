// model_logic.cpp — the Model mode's numbers (model_logic.hpp).
#include "ui/modes/model/model_logic.hpp"

#include <algorithm>
#include <cstddef>

#include "scene/json_text.hpp"

namespace ui::model_logic {

namespace model = attn::model;

std::vector<int> encode_text(const scene::LmFile& f, const std::string& text, int* total) {
  std::vector<int> tokens;
  if (f.tokenizer) {
    tokens = attn::bpe::encode(*f.tokenizer, text);
  } else {
    std::string error;  // a symbol model: the longest symbols; text it cannot read gives no tokens
    tokens = model::tokenize(f.model, text, &error);
  }
  if (total) *total = static_cast<int>(tokens.size());
  if (static_cast<int>(tokens.size()) > f.model.n_ctx())
    tokens.resize(static_cast<std::size_t>(f.model.n_ctx()));
  return tokens;
}

std::vector<ModelToken> top_tokens(const scene::LmFile& f, const attn::Matrix& logits, int row, int k) {
  const int V = f.model.n_vocab();
  const std::vector<double> p = model::softmax_row(logits.data() + static_cast<std::ptrdiff_t>(row) * V, V);
  std::vector<int> order(static_cast<std::size_t>(V));
  for (int v = 0; v < V; ++v) order[static_cast<std::size_t>(v)] = v;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return p[static_cast<std::size_t>(a)] > p[static_cast<std::size_t>(b)];
  });
  std::vector<ModelToken> top;
  for (int r = 0; r < k && r < V; ++r) {
    const int id = order[static_cast<std::size_t>(r)];
    top.push_back({id, f.model.vocab[static_cast<std::size_t>(id)], p[static_cast<std::size_t>(id)]});
  }
  return top;
}

std::vector<std::vector<ModelToken>> lens_of(const scene::LmFile& f, const model::Forward& fw, int from) {
  std::vector<std::vector<ModelToken>> lens;
  const int V = f.model.n_vocab();
  // Only the rows from `from` on (the lens's rows are each computed alone: the same bits).
  for (const attn::Matrix& logits : model::logit_lens(f.model, fw, std::max(0, from))) {
    std::vector<ModelToken> layer;
    for (Eigen::Index i = 0; i < logits.rows(); ++i) {
      const std::vector<double> p = model::softmax_row(logits.data() + i * V, V);
      int best = 0;
      for (int v = 1; v < V; ++v)
        best = p[static_cast<std::size_t>(v)] > p[static_cast<std::size_t>(best)] ? v : best;
      layer.push_back(
          {best, f.model.vocab[static_cast<std::size_t>(best)], p[static_cast<std::size_t>(best)]});
    }
    lens.push_back(std::move(layer));
  }
  return lens;
}

ModelEval evaluate(const scene::LmFile& f, const std::vector<int>& tokens, const model::Ablation& ablation,
                   const std::vector<model::HeadOverride>& overrides, const ModelEval* previous) {
  ModelEval e;
  e.tokens = tokens;
  for (int t : tokens) e.pieces.push_back(f.model.vocab[static_cast<std::size_t>(t)]);
  if (tokens.empty()) return e;
  e.forward = previous && overrides.empty() && !previous->tokens.empty()
                  ? model::forward_reusing(f.model, previous->forward, tokens, ablation)
                  : model::forward(f.model, tokens, ablation, overrides);
  const model::TokenLoss loss = model::next_token_loss(e.forward.logits, tokens);
  e.loss = loss.value;
  e.per_token_loss = loss.per_token;
  e.top = top_tokens(f, e.forward.logits, static_cast<int>(tokens.size()) - 1, kTop);
  e.roles = model::head_roles(e.forward);
  e.lens_from = std::max(0, static_cast<int>(tokens.size()) - kLensPositions);
  e.lens = lens_of(f, e.forward, e.lens_from);
  return e;
}

namespace {

std::string label_of(const std::string& piece) {
  std::string out;
  for (char c : piece)
    out += c == '\n' ? std::string("\\n") : c == '\t' ? std::string("\\t") : std::string(1, c);
  if (out.size() > scene::kMaxTokenBytes) out = scene::json_text::clip_utf8(out, scene::kMaxTokenBytes - 3);
  return out.empty() ? std::string("?") : out;
}

}  // namespace

scene::Scene head_scene(const ModelEval& e, int layer, int head) {
  const model::HeadStages& h =
      e.forward.layers[static_cast<std::size_t>(layer)].heads[static_cast<std::size_t>(head)];
  scene::Scene s;
  for (const std::string& piece : e.pieces) s.tokens.push_back(label_of(piece));
  s.mode = scene::Mode::Direct;
  s.Q = h.q;
  s.K = h.k;
  s.V = h.v;
  s.causal = true;
  s.scale.mode = attn::ScaleMode::SqrtDk;
  return s;
}

bool scene_fits_head(const scene::Scene& s, const ModelEval& e, int layer, int head) {
  if (layer < 0 || layer >= static_cast<int>(e.forward.layers.size())) return false;
  const auto& heads = e.forward.layers[static_cast<std::size_t>(layer)].heads;
  if (head < 0 || head >= static_cast<int>(heads.size())) return false;
  const model::HeadStages& h = heads[static_cast<std::size_t>(head)];
  const Eigen::Index n = static_cast<Eigen::Index>(e.tokens.size());
  return s.mode == scene::Mode::Direct && s.n() == n && s.Q.rows() == n && s.K.rows() == n &&
         s.V.rows() == n && s.Q.cols() == h.q.cols() && s.K.cols() == h.k.cols() &&
         s.V.cols() == h.v.cols() && s.causal && s.scale.mode == attn::ScaleMode::SqrtDk && s.heads == 1 &&
         s.kv() == 1 && s.Wo.size() == 0 && !s.rope_on && s.window == 0 && !s.alibi &&
         !scene::has_variants(s);
}

std::vector<ModelToken> prediction_with_scene(const scene::LmFile& f, const ModelEval& e,
                                              const model::Ablation& ablation, const scene::Scene& s,
                                              int layer, int head) {
  if (!scene_fits_head(s, e, layer, head)) return {};
  std::vector<model::HeadOverride> over = {
      {layer, head, 'q', s.Q}, {layer, head, 'k', s.K}, {layer, head, 'v', s.V}};
  if (s.mask.size() != 0) over.push_back({layer, head, 'm', s.mask.cast<double>()});
  const model::Forward fw = model::forward(f.model, e.tokens, ablation, over);
  return top_tokens(f, fw.logits, static_cast<int>(e.tokens.size()) - 1, kTop);
}

}  // namespace ui::model_logic
