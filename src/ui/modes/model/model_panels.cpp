// model_panels.cpp — the Model mode's Text, Next token and Logit lens panels, and the rows it adds to
// Explore's controls while one of its heads is open there (model_mode.hpp).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>

#include "ui/look/theme.hpp"
#include "ui/modes/model/model_mode.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {
namespace {

// A piece as shown on a chip: a leading or inner space as "·", a newline as "\n", a tab as "\t".
std::string chip_text(const std::string& piece) {
  std::string out;
  for (char c : piece)
    out += c == ' '    ? std::string("\xC2\xB7")
           : c == '\n' ? std::string("\\n")
           : c == '\t' ? std::string("\\t")
                       : std::string(1, c);
  return out.empty() ? std::string("?") : out;
}

std::string fixed(double x, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, x);
  return text;
}

std::string percent(double p) {
  char text[32];
  std::snprintf(text, sizeof text, p >= 0.1 ? "%.1f %%" : "%.2f %%", 100.0 * p);
  return text;
}

// The loading bar, or why loading failed; true when the model is ready.
bool model_ready(AppState& state, const Fonts& fonts) {
  ModelUi& m = state.ui.model;
  if (m.load == ModelLoad::Ready && m.file) return true;
  if (m.load == ModelLoad::Failed) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::error()));
    wrapped_text(state, "model/error", fill(tr(Text::ModelLoadFailed), {m.load_error}));
    ImGui::PopStyleColor();
    return false;
  }
  ImGui::PushFont(fonts.small);
  ImGui::TextUnformatted(
      fill(tr(Text::ModelLoading), {std::to_string(int(std::lround(100.0 * m.progress)))}).c_str());
  ImGui::PopFont();
  ImGui::ProgressBar(m.progress, ImVec2(-FLT_MIN, 0.6f * ImGui::GetFontSize()), "");
  record_item_rect(state, "model/progress");
  return false;
}

void draw_text_field(AppState& state) {
  ModelUi& m = state.ui.model;
  const float em = ImGui::GetFontSize();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Text::ModelText));
  ImGui::SameLine(0, 0.6f * em);
  ImGui::SetNextItemWidth(-FLT_MIN);
  char buffer[scene::link::kMaxModelTextBytes + 1];
  std::snprintf(buffer, sizeof buffer, "%s", m.settings.text.c_str());
  if (input_text(state, "model/text", "##model-text", buffer, sizeof buffer)) model_set_text(state, buffer);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::ModelTextTip));
}

// The tokens as chips, wrapped; each with its loss as a bar under it (the first has none: nothing
// predicts it). Generated tokens are tinted; hover shows the id, the loss and a generated token's p.
void draw_chips(AppState& state, const Fonts& fonts) {
  ModelUi& m = state.ui.model;
  const ModelEval& e = m.eval;
  const float em = ImGui::GetFontSize();
  ImGui::PushFont(fonts.small);
  const float pad = 0.25f * em, h = ImGui::GetFontSize() + 2.0f * pad, bar_h = std::max(2.0f, 0.22f * em);
  const float x0 = ImGui::GetCursorScreenPos().x, right = x0 + ImGui::GetContentRegionAvail().x;
  ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const int prompt = int(m.prompt.size());
  double max_loss = 1e-9;
  for (double l : e.per_token_loss) max_loss = std::max(max_loss, l);
  for (std::size_t i = 0; i < e.tokens.size(); ++i) {
    const std::string text = chip_text(e.pieces[i]);
    const float w = ImGui::CalcTextSize(text.c_str()).x + 2.0f * pad;
    if (at.x + w > right && at.x > x0) at = ImVec2(x0, at.y + h + bar_h + 0.35f * em);
    const bool generated = int(i) >= prompt;
    const ImVec2 b(at.x + w, at.y + h);
    dl->AddRectFilled(at, b, generated ? palette::accent_soft() : palette::frame(), 0.25f * em);
    dl->AddText(ImVec2(at.x + pad, at.y + pad), palette::text(), text.c_str());
    if (i > 0) {  // the loss of predicting this token from the ones before it
      const double loss = e.per_token_loss[i - 1];
      dl->AddRectFilled(ImVec2(at.x, b.y + 1.0f),
                        ImVec2(at.x + w * float(loss / max_loss), b.y + 1.0f + bar_h), palette::wrong());
    }
    if (ImGui::IsMouseHoveringRect(at, ImVec2(b.x, b.y + bar_h + 1.0f))) {
      std::string tip = fill(tr(Text::ModelTokenTip), {std::to_string(i), std::to_string(e.tokens[i]),
                                                       i > 0 ? fixed(e.per_token_loss[i - 1], 3) : "-"});
      if (generated) tip += "\np = " + fixed(m.generated_p[i - std::size_t(prompt)], 4);
      ImGui::SetTooltip("%s", tip.c_str());
      outline(dl, at, b, palette::accent(), 1.5f);
    }
    at.x += w + 0.3f * em;
  }
  ImGui::SetCursorScreenPos(ImVec2(x0, at.y));
  ImGui::Dummy(ImVec2(right - x0, h + bar_h + 0.3f * em));
  record_item_rect(state, "model/tokens");
  ImGui::TextColored(
      to_vec4(palette::text_dim()), "%s",
      fill(tr(Text::ModelTokens), {std::to_string(e.tokens.size()), fixed(e.loss, 3)}).c_str());
  if (e.text_tokens > int(m.prompt.size()))
    ImGui::TextColored(
        to_vec4(palette::error()), "%s",
        fill(tr(Text::ModelCut), {std::to_string(e.text_tokens), std::to_string(m.prompt.size())}).c_str());
  if (!m.generated.empty())
    ImGui::TextColored(to_vec4(palette::text_dim()), "%s",
                       fill(tr(Text::ModelGenerated), {std::to_string(m.generated.size())}).c_str());
  ImGui::PopFont();
}

void draw_sampling(AppState& state) {
  ModelUi& m = state.ui.model;
  const float em = ImGui::GetFontSize();
  const bool running = m.generate_target > int(m.generated.size());
  if (running) {
    if (button(state, "model/generate", tr(Text::ModelStop))) model_stop(state);
  } else if (button(state, "model/generate", tr(Text::ModelGenerate))) {
    model_generate(state, kGenerateCount);
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::ModelGenerateTip));
  ImGui::SameLine();
  if (button(state, "model/step", tr(Text::ModelStep))) model_step(state);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::ModelStepTip));
  scene::link::ModelLink s = m.settings;
  bool changed = false;
  const float w = std::max(6.0f * em, 0.5f * ImGui::GetContentRegionAvail().x - 5.0f * em);
  ImGui::SetNextItemWidth(w);
  changed |=
      slider_double(state, "model/temperature", tr(Text::ModelTemperature), &s.temperature, 0.0, 2.0, "%.2f");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::ModelSamplingTip));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w);
  const int vocab = m.file ? m.file->model.n_vocab() : 1024;
  changed |= slider_int(state, "model/top_k", tr(Text::ModelTopK), &s.top_k, 0, vocab);
  ImGui::SetNextItemWidth(w);
  changed |= slider_double(state, "model/top_p", tr(Text::ModelTopP), &s.top_p, 0.01, 1.0, "%.2f");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w);
  int seed = int(std::min<std::uint64_t>(s.seed, 1000000000ull));
  if (input_int(state, "model/seed", tr(Text::ModelSeed), &seed)) {
    s.seed = std::uint64_t(std::max(0, seed));
    changed = true;
  }
  if (changed) model_set_sampling(state, s.temperature, s.top_k, std::max(0.01, s.top_p), s.seed);
}

// The top tokens as rows: the piece, a bar as long as its probability, the percentage.
void draw_top_list(AppState& state, const Fonts& fonts, const std::vector<ModelToken>& top, const char* id) {
  const float em = ImGui::GetFontSize();
  Group group(state, id);
  ImGui::PushFont(fonts.small);
  const float row_h = ImGui::GetTextLineHeightWithSpacing() + 0.05f * em;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float piece_w = std::min(8.0f * em, 0.35f * avail), pct_w = 4.5f * em;
  const float bar_w = std::max(2.0f * em, avail - piece_w - pct_w - 0.6f * em);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  for (std::size_t r = 0; r < top.size(); ++r) {
    const float y = p0.y + float(r) * row_h;
    const std::string piece = fit_text("\"" + chip_text(top[r].piece) + "\"", piece_w);
    dl->AddText(ImVec2(p0.x, y), palette::text(), piece.c_str());
    const float bx = p0.x + piece_w + 0.3f * em;
    dl->AddRectFilled(ImVec2(bx, y + 0.15f * em), ImVec2(bx + bar_w, y + row_h - 0.3f * em),
                      palette::track());
    dl->AddRectFilled(ImVec2(bx, y + 0.15f * em), ImVec2(bx + bar_w * float(top[r].p), y + row_h - 0.3f * em),
                      r == 0 ? palette::accent() : palette::query());
    dl->AddText(ImVec2(bx + bar_w + 0.3f * em, y), palette::text_dim(), percent(top[r].p).c_str());
  }
  ImGui::Dummy(ImVec2(avail, float(top.size()) * row_h));
  ImGui::PopFont();
}

}  // namespace

void draw_model_text(AppState& state, const Fonts& fonts) {
  panel_header(state, fonts, tr(Text::ModelTitle), tr(Text::ModelHint), 2);
  if (!model_ready(state, fonts)) return;
  draw_text_field(state);
  draw_chips(state, fonts);
  draw_sampling(state);
}

void draw_model_prediction(AppState& state, const Fonts& fonts) {
  panel_header(state, fonts, tr(Text::ModelPredTitle), tr(Text::ModelPredHint), 1);
  if (!model_ready(state, fonts)) return;
  draw_top_list(state, fonts, state.ui.model.eval.top, "model/prediction");
}

// The logit lens: for the last few positions (columns), the top token after each layer (rows).
void draw_model_lens(AppState& state, const Fonts& fonts) {
  panel_header(state, fonts, tr(Text::ModelLensTitle), tr(Text::ModelLensHint), 1);
  if (!model_ready(state, fonts)) return;
  const ModelEval& e = state.ui.model.eval;
  if (e.lens.empty() || e.tokens.empty()) return;
  const float em = ImGui::GetFontSize();
  Group group(state, "model/lens");
  ImGui::PushFont(fonts.small);
  const int n = int(e.tokens.size());
  const float label_w = 6.5f * em;
  const int cols = std::clamp(int((ImGui::GetContentRegionAvail().x - label_w) / (6.0f * em)), 1, 6);
  const int first = std::max(e.lens_from, n - cols);
  const float col_w = (ImGui::GetContentRegionAvail().x - label_w) / float(cols);
  const float row_h = 2.0f * ImGui::GetTextLineHeight() + 0.2f * em;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  for (int c = 0; c < n - first; ++c)
    dl->AddText(
        ImVec2(p0.x + label_w + float(c) * col_w, p0.y), palette::text_dim(),
        fit_text("\"" + chip_text(e.pieces[std::size_t(first + c)]) + "\" \xE2\x86\x92", col_w - 0.3f * em)
            .c_str());
  for (std::size_t l = 0; l < e.lens.size(); ++l) {
    const float y = p0.y + ImGui::GetTextLineHeightWithSpacing() + float(l) * row_h;
    dl->AddText(ImVec2(p0.x, y), palette::text_dim(),
                fill(tr(Text::ModelLensLayer), {std::to_string(l)}).c_str());
    for (int c = 0; c < n - first; ++c) {
      const ModelToken& t = e.lens[l][std::size_t(first + c - e.lens_from)];
      const float x = p0.x + label_w + float(c) * col_w;
      dl->AddText(ImVec2(x, y), palette::text(),
                  fit_text("\"" + chip_text(t.piece) + "\"", col_w - 0.3f * em).c_str());
      dl->AddText(ImVec2(x, y + ImGui::GetTextLineHeight()), palette::text_dim(), percent(t.p).c_str());
    }
  }
  ImGui::Dummy(ImVec2(ImGui::GetContentRegionAvail().x,
                      ImGui::GetTextLineHeightWithSpacing() + float(e.lens.size()) * row_h));
  ImGui::PopFont();
}

void draw_model_back(AppState& state, const Fonts& fonts) {
  ModelUi& m = state.ui.model;
  if (m.opened_layer < 0 || state.ui.settings.mode != scene::link::kDefaultMode || !m.file) return;
  model_update_opened(state);
  if (button(state, "model/back", tr(Text::ModelBack))) {
    model_back(state);
    return;
  }
  ImGui::SameLine();
  if (button(state, "model/reset", tr(Text::ModelReset))) model_reset_head(state);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::ModelResetTip));
  ImGui::PushFont(fonts.small);
  ImGui::TextColored(
      to_vec4(palette::text_dim()), "%s",
      fill(tr(Text::ModelOpened), {std::to_string(m.opened_layer), std::to_string(m.opened_head)}).c_str());
  ImGui::PopFont();
  ImGui::PushFont(fonts.heading);
  ImGui::TextUnformatted(tr(Text::ModelNow));
  ImGui::PopFont();
  if (m.opened_mismatch) {
    ImGui::TextColored(to_vec4(palette::error()), "%s", tr(Text::ModelMismatch));
  } else {
    if (m.opened_edited) {
      ImGui::PushFont(fonts.small);
      ImGui::TextColored(to_vec4(palette::accent()), "%s", tr(Text::ModelEdited));
      ImGui::PopFont();
    }
    draw_top_list(state, fonts, m.opened_top, "model/now");
  }
  ImGui::Separator();
}

}  // namespace ui
