// panels.cpp — the screen: layout, top bar with the formula strip, Controls, Mask and Output.
//
// [SECTION] Shared helpers (headers, numbers, highlight links)
// [SECTION] Formula strip
// [SECTION] Controls
// [SECTION] Mask
// [SECTION] Output
// [SECTION] Layout: draw_screen
#include "ui/panels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/colormap.hpp"
#include "ui/gallery_panel.hpp"
#include "ui/panel_parts.hpp"
#include "ui/theme.hpp"

namespace ui {

//-------------------------------------------------------------------------------------------------
// [SECTION] Shared helpers
//-------------------------------------------------------------------------------------------------

namespace {
// On short displays (phones in landscape) the panels drop their hint lines to keep the sliders in view.
bool g_compact_headers = false;
}  // namespace

void panel_header(const Fonts& fonts, const char* title, const char* hint, int min_hint_lines) {
  ImGui::PushFont(fonts.heading);
  ImGui::TextUnformatted(title);
  ImGui::PopFont();
  if (hint && *hint && !g_compact_headers) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::kTextDim));
    ImGui::PushFont(fonts.small);
    const float top = ImGui::GetCursorPosY();
    ImGui::TextWrapped("%s", hint);
    // Side-by-side panels reserve the same hint height, so their contents line up.
    const float want = float(min_hint_lines) * ImGui::GetTextLineHeightWithSpacing();
    if (ImGui::GetCursorPosY() - top < want) ImGui::Dummy(ImVec2(0, want - (ImGui::GetCursorPosY() - top)));
    ImGui::PopFont();
    ImGui::PopStyleColor();
  }
  ImGui::Dummy(ImVec2(0, 0.15f * ImGui::GetFontSize()));
}

bool term_lit(const AppState& state, Term term) {
  const Term h = state.hovered_term;
  if (h == Term::None) return false;
  if (h == term) return true;
  switch (term) {
    case Term::Tokens:
      return h == Term::Queries || h == Term::Keys || h == Term::Values;
    case Term::Queries:
    case Term::Keys:
      return h == Term::Scores || h == Term::Tokens;
    case Term::Values:
      return h == Term::Tokens || h == Term::Output;
    default:
      return false;
  }
}

std::string fit_text(const std::string& text, float width) {
  auto fits = [&](const std::string& t) { return ImGui::CalcTextSize(t.c_str()).x <= width; };
  if (fits(text)) return text;
  std::size_t len = text.size();
  while (len > 0) {
    // Step back one whole UTF-8 code point (continuation bytes are 10xxxxxx).
    do {
      --len;
    } while (len > 0 && (static_cast<unsigned char>(text[len]) & 0xC0) == 0x80);
    std::string candidate = text.substr(0, len) + "…";
    if (fits(candidate)) return candidate;
  }
  return fits("…") ? "…" : "";
}

int column_label_lines(const std::vector<std::string>& tokens, float cell, int step) {
  const float room = cell * float(step) - 0.2f * ImGui::GetFontSize();
  for (std::size_t k = 0; k < tokens.size(); k += std::size_t(step)) {
    if (ImGui::CalcTextSize(tokens[k].c_str()).x > room) return 2;
  }
  return 1;
}

void draw_column_labels(ImDrawList* draw_list, const std::vector<std::string>& tokens, ImVec2 origin,
                        float cell, int step, int lines, int lit, ImU32 color) {
  const float em = ImGui::GetFontSize(), line = ImGui::GetTextLineHeight();
  const int n = int(tokens.size());
  for (int k = 0, index = 0; k < n; k += step, ++index) {
    // Two lines: even labels on the top line, odd ones below, each with two columns of room.
    const int row = lines == 2 ? index % 2 : 0;
    const float room = cell * float(step * lines) - 0.2f * em;
    const std::string text = fit_text(tokens[std::size_t(k)], room);
    if (text.empty() || text == "…") continue;
    const float w = ImGui::CalcTextSize(text.c_str()).x;
    const float y = origin.y - float(lines - row) * line - 0.2f * em;
    draw_list->AddText(ImVec2(origin.x + cell * (float(k) + 0.5f) - 0.5f * w, y),
                       k == lit ? palette::kText : color, text.c_str());
  }
}

float check_question_height(const Fonts& fonts) {
  return fonts.small->FontSize + ImGui::GetStyle().ItemSpacing.y;
}

void check_question(const Fonts& fonts, const char* question, const char* answer) {
  ImGui::PushFont(fonts.small);
  const float bottom = ImGui::GetWindowContentRegionMax().y - check_question_height(fonts);
  // The panel reserved this line; the last item's trailing spacing may overlap it.
  if (ImGui::GetCursorPosY() <= bottom + ImGui::GetStyle().ItemSpacing.y + 1.0f) {
    ImGui::SetCursorPosY(bottom);
    const char* label = "Check yourself:";
    const char* prompt = "(hover for the answer)";
    ImGui::TextColored(to_vec4(palette::kAccent), "%s", label);
    ImGui::SameLine();
    const float room = ImGui::GetContentRegionAvail().x;
    const bool with_prompt =
        ImGui::CalcTextSize(question).x + ImGui::CalcTextSize(prompt).x + 1.0f * ImGui::GetFontSize() < room;
    const std::string text = fit_text(question, room);
    ImGui::TextDisabled("%s", text.c_str());
    const bool hovered = ImGui::IsItemHovered();
    if (with_prompt && !hovered) {
      ImGui::SameLine();
      ImGui::TextColored(to_vec4(palette::kAccent), "%s", prompt);
    }
    if (hovered) ImGui::SetTooltip("%s\n\n%s", question, answer);
  }
  ImGui::PopFont();
}

void outline(ImDrawList* draw_list, ImVec2 min, ImVec2 max, ImU32 color, float thickness) {
  draw_list->AddRect(min, max, color, 0.0f, 0, thickness);
}

namespace {

// Hover a region → it becomes this frame's hovered term (unless something more specific claimed it).
void claim_hover(AppState& state, Term term) {
  if (state.next_hovered_term == Term::None &&
      ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows |
                             ImGuiHoveredFlags_AllowWhenBlockedByActiveItem)) {
    state.next_hovered_term = term;
  }
}

// Lit panels get an accent border (drawn outside the window's clip rect).
void panel_border(const AppState& state, Term term) {
  if (!term_lit(state, term)) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
  dl->PushClipRectFullScreen();
  dl->AddRect(p, ImVec2(p.x + s.x, p.y + s.y), palette::kAccent, ImGui::GetStyle().WindowRounding, 0,
              std::max(1.5f, 0.12f * ImGui::GetFontSize()));
  dl->PopClipRect();
}

const char* term_caption(const AppState& state, Term term) {
  switch (term) {
    case Term::Output:
      return "Y = A V: each output row is the value rows blended with that token's weights.";
    case Term::Weights:
      return "softmax turns each row of scores into weights ≥ 0 that sum to 1.";
    case Term::Scores:
      return "QKᵀ: every query dotted with every key: how well token i's question matches token j's label.";
    case Term::Queries:
      return "Q: one query per token, what am I looking for?";
    case Term::Keys:
      return "Kᵀ: the keys, transposed (scores = Q @ K.T). A key says: what do I have?";
    case Term::Values:
      return "V: what each token gives when it is found. Values never enter the scores.";
    case Term::Tokens:
      return "Each token plays three roles: a query, a key and a value.";
    case Term::Scale:
      switch (state.scene.scale.mode) {
        case attn::ScaleMode::None:
          return "No scaling: the scores go into softmax as they are (the NumPy lesson).";
        case attn::ScaleMode::SqrtDk:
          return "÷ √d_k keeps scores from growing with the dimension, so softmax does not saturate.";
        case attn::ScaleMode::Temperature:
          return "÷ T: a small temperature sharpens the weights, a large one flattens them.";
      }
      return "";
    case Term::Mask:
      return "M is 0 where a token may look and −∞ where it may not, so those weights become exactly 0.";
    case Term::None:
      break;
  }
  return "Hover any part of the formula or any panel to see how they connect.";
}

}  // namespace

//-------------------------------------------------------------------------------------------------
// [SECTION] Formula strip: Y = softmax( QKᵀ / √d_k + M ) V
//-------------------------------------------------------------------------------------------------

namespace {

void draw_formula_strip(AppState& state, const Fonts& fonts, ImVec2 center, float max_width) {
  struct Segment {
    std::string text;
    Term term;
    ImU32 color;
  };
  // The formula as the scene computes it: no divisor without scaling, "/ √d_k", or "/ T" with T's
  // value after the formula.
  const attn::ScaleMode mode = state.scene.scale.mode;
  const bool has_mask = state.scene.causal || state.scene.mask.size() > 0;
  std::vector<Segment> segments = {
      {"Y", Term::Output, palette::kText},         {"=", Term::None, palette::kTextDim},
      {"softmax(", Term::Weights, palette::kText}, {"Q", Term::Queries, palette::kQuery},
      {"Kᵀ", Term::Keys, palette::kKey},
  };
  if (mode == attn::ScaleMode::SqrtDk) segments.push_back({"/ √d_k", Term::Scale, palette::kText});
  if (mode == attn::ScaleMode::Temperature) segments.push_back({"/ T", Term::Scale, palette::kText});
  segments.push_back({"+ M", Term::Mask, has_mask ? palette::kText : palette::kTextDim});
  segments.push_back({")", Term::Weights, palette::kText});
  segments.push_back({"V", Term::Values, palette::kValue});
  if (mode == attn::ScaleMode::Temperature) {
    segments.push_back(
        {",  T = " + format_number(state.scene.scale.temperature, 3), Term::Scale, palette::kTextDim});
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImFont* font = fonts.formula;
  float size = font->FontSize;
  const float space = 0.3f * size;
  auto width_of = [&](const std::string& t) { return font->CalcTextSizeA(size, 1e9f, 0, t.c_str()).x; };
  float total = 0;
  for (const Segment& s : segments) total += width_of(s.text) + space;
  total -= space;
  if (total > max_width && total > 0) {  // shrink to fit a narrow display
    size *= max_width / total;
    total = max_width;
  }
  const float sp = 0.3f * size;
  float x = center.x - 0.5f * total;
  const float y = center.y - 0.5f * size;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool window_hovered = ImGui::IsWindowHovered();
  for (const Segment& s : segments) {
    const float w = font->CalcTextSizeA(size, 1e9f, 0, s.text.c_str()).x;
    const ImVec2 a(x - 0.15f * size, y - 0.1f * size), b(x + w + 0.15f * size, y + 1.1f * size);
    if (s.term != Term::None && window_hovered && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y &&
        mouse.y < b.y) {
      state.next_hovered_term = s.term;
    }
    const bool lit = s.term != Term::None && term_lit(state, s.term);
    if (lit) dl->AddRectFilled(a, b, palette::kAccentSoft, 0.2f * size);
    dl->AddText(font, size, ImVec2(x, y), lit ? palette::kAccent : s.color, s.text.c_str());
    x += w + sp;
  }
}

}  // namespace

//-------------------------------------------------------------------------------------------------
// [SECTION] Controls
//-------------------------------------------------------------------------------------------------

void draw_controls_panel(AppState& state, const Fonts& fonts) {
  panel_header(fonts, "Controls",
               "Pick a lesson example, then drag any slider and watch every panel follow.");
  scene::Scene& s = state.scene;
  const float em = ImGui::GetFontSize();
  const float label_w = 5.2f * em;
  auto row_label = [&](const char* text) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(text);
    ImGui::SameLine(label_w);
  };

  // Preset picker.
  row_label("Example");
  ImGui::SetNextItemWidth(-FLT_MIN);
  std::string preview = state.preset_name.empty() ? std::string("(custom scene)") : state.preset_name;
  if (state.edited) preview += "  · edited";
  if (ImGui::BeginCombo("##preset", preview.c_str())) {
    for (const scene::PresetInfo& p : scene::preset_list()) {
      const bool selected = p.name == state.preset_name;
      if (ImGui::Selectable(p.name.c_str(), selected)) load_preset(state, p.name);
      ImGui::PushFont(fonts.small);
      ImGui::TextDisabled("   %s", p.description.c_str());
      ImGui::PopFont();
    }
    ImGui::EndCombo();
  }
  record_item_rect(state, "preset");

  // Sizes.
  row_label("Tokens n");
  int n = s.n();
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::SliderInt("##tokens", &n, 1, std::max(12, s.n()), "%d tokens")) set_token_count(state, n);
  record_item_rect(state, "tokens");

  const float half =
      0.5f * (ImGui::GetContentRegionAvail().x - label_w) - 0.5f * ImGui::GetStyle().ItemSpacing.x;
  row_label("d_k, d_v");
  int d_k = s.d_k(), d_v = s.d_v();
  ImGui::SetNextItemWidth(half);
  if (ImGui::SliderInt("##dk", &d_k, 1, std::max(8, d_k), "d_k = %d")) set_key_dim(state, d_k);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("d_k: length of each query and key");
  record_item_rect(state, "dk");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(half);
  if (ImGui::SliderInt("##dv", &d_v, 1, std::max(8, d_v), "d_v = %d")) set_value_dim(state, d_v);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("d_v: length of each value (and output row)");
  record_item_rect(state, "dv");

  // Scale: none / √d_k / temperature.
  row_label("Scale");
  ImGui::BeginGroup();
  int mode = int(s.scale.mode);
  bool scale_changed = false;
  scale_changed |= ImGui::RadioButton("none", &mode, int(attn::ScaleMode::None));
  ImGui::SameLine();
  scale_changed |= ImGui::RadioButton("÷ √d_k", &mode, int(attn::ScaleMode::SqrtDk));
  ImGui::SameLine();
  scale_changed |= ImGui::RadioButton("÷ T", &mode, int(attn::ScaleMode::Temperature));
  ImGui::EndGroup();
  record_item_rect(state, "scale");
  if (scale_changed && mode != int(s.scale.mode)) {
    s.scale.mode = attn::ScaleMode(mode);
    state.dirty = true;
  }
  if (s.scale.mode == attn::ScaleMode::Temperature) {
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + label_w);
    ImGui::SetNextItemWidth(-FLT_MIN);
    double t = s.scale.temperature;
    const double t_lo = 0.05, t_hi = 20.0;
    if (ImGui::SliderScalar("##temperature", ImGuiDataType_Double, &t, &t_lo, &t_hi, "T = %.3f",
                            ImGuiSliderFlags_Logarithmic)) {
      if (std::isfinite(t)) {
        s.scale.temperature = std::clamp(t, scene::kMinTemperature, scene::kMaxTemperature);
        state.dirty = true;
      }
    }
    record_item_rect(state, "temperature");
  }
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + label_w);
  ImGui::PushFont(fonts.small);
  if (state.computed) {
    switch (s.scale.mode) {
      case attn::ScaleMode::None:
        ImGui::TextDisabled("softmax sees QKᵀ as it is (the NumPy lesson)");
        break;
      case attn::ScaleMode::SqrtDk:
        ImGui::TextDisabled("softmax sees QKᵀ / √d_k, √%d = %s", s.d_k(),
                            format_number(state.result.divisor, 3).c_str());
        break;
      case attn::ScaleMode::Temperature:
        ImGui::TextDisabled("softmax sees QKᵀ / T: a small T sharpens");
        break;
    }
  }
  ImGui::PopFont();

  // Causal mask.
  bool causal = s.causal;
  if (ImGui::Checkbox("Causal mask", &causal)) {
    s.causal = causal;
    state.dirty = true;
  }
  record_item_rect(state, "causal");
  ImGui::SameLine();
  ImGui::PushFont(fonts.small);
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("token i sees only tokens 0..i");
  ImGui::PopFont();

  const float reset_w = ImGui::CalcTextSize("Reset").x + 2.0f * ImGui::GetStyle().FramePadding.x;
  // Reset at the right end of the causal row when it fits, else on its own row.
  if (ImGui::GetItemRectMax().x + em + reset_w <=
      ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) {
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - reset_w);
  }
  if (ImGui::Button("Reset")) {
    scene::Scene original = state.reset_scene;
    const std::string preset = state.preset_name;
    load_scene(state, std::move(original), preset);
  }
  record_item_rect(state, "reset");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Back to the example as loaded");
  if (s.mask.size() > 0) {
    ImGui::SameLine();
    if (ImGui::Button("Clear custom mask")) clear_custom_mask(state);
    record_item_rect(state, "clear-mask");
  }
  draw_share_buttons(state, fonts);  // Gallery, Copy link, Export/Import JSON, Export PNG

  if (!state.notice.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::kAccent));
    ImGui::PushFont(fonts.small);
    ImGui::TextWrapped("%s", state.notice.c_str());
    ImGui::PopFont();
    ImGui::PopStyleColor();
  }
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Mask: the allowed-mask grid; click a cell to toggle it in the custom mask
//-------------------------------------------------------------------------------------------------

void draw_mask_panel(AppState& state, MatrixPainter& painter, const Fonts& fonts) {
  panel_header(fonts, "Mask  M",
               "1 = may attend, 0 = hidden (−∞ before softmax). Hatched = hidden by the causal mask. "
               "Click a cell to toggle it.");
  GridGeometry& grid = state.mask_grid;
  grid.visible = false;
  if (!state.computed) return;
  const attn::Result& r = state.result;
  const scene::Scene& s = state.scene;
  const int n = int(r.allowed.rows());
  const float em = ImGui::GetFontSize();
  ImDrawList* dl = ImGui::GetWindowDrawList();

  // Values: 1 allowed, 0 hidden by the custom mask, kMaskedValue (hatched) hidden by causal.
  // Rebuilt only when the result changed (causal and mask edits recompute it).
  static std::vector<float> values;
  static std::uint64_t values_version = 0;
  if (values_version != state.result_version) {
    values_version = state.result_version;
    values.assign(std::size_t(n) * n, 0.0f);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        values[std::size_t(i) * n + j] = (s.causal && j > i) ? kMaskedValue : float(r.allowed(i, j));
      }
    }
  }

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 start = ImGui::GetCursorScreenPos();
  // Token labels as in the heatmaps: queries down the left, keys across the top, long ones cut.
  float longest = 0;
  for (const std::string& t : s.tokens) longest = std::max(longest, ImGui::CalcTextSize(t.c_str()).x);
  const float label_w = std::min(longest, 4.5f * em) + 0.6f * em;
  const float line = ImGui::GetTextLineHeight();
  // Cells as large as the panel allows (up to kMaxCellEm), the grid centred; the key labels take
  // one line, or two when they do not fit their columns.
  auto fit_cell = [&](int label_lines) {
    const float reserved_h = float(label_lines) * line + 0.3f * em + check_question_height(fonts);
    float c = std::min((avail.x - label_w) / float(n), (avail.y - reserved_h) / float(n));
    c = std::clamp(c, 0.1f, kMaxCellEm * em);
    return c >= 4.0f ? std::floor(c) : c;
  };
  float cell = fit_cell(1);
  const int label_step = std::max(1, int(std::ceil(line / cell)));
  const int label_lines = column_label_lines(s.tokens, cell, label_step);
  if (label_lines == 2) cell = fit_cell(2);
  const float grid_w = cell * float(n);
  const float header_h = float(label_lines) * line + 0.2f * em;
  const float free_h = avail.y - header_h - grid_w - 0.1f * em - check_question_height(fonts);
  const ImVec2 origin(std::floor(start.x + label_w + std::max(0.0f, 0.5f * (avail.x - label_w - grid_w))),
                      std::floor(start.y + header_h + std::max(0.0f, 0.5f * free_h)));
  const ImVec2 grid_max(origin.x + grid_w, origin.y + grid_w);

  MatrixImage image;
  image.slot = MatrixSlot::Mask;
  image.rows = image.cols = n;
  image.values = values.data();
  image.version = state.result_version;
  image.colormap = Colormap::Mask;
  image.lo = 0;
  image.hi = 1;
  image.gap_px = cell >= 8 ? std::max(1.0f, std::round(std::min(0.06f * cell, 3.0f))) : 0.0f;
  painter.paint(dl, origin, grid_max, image);

  grid.visible = true;
  grid.origin = origin;
  grid.cell = cell;
  grid.rows = grid.cols = n;
  grid.clip =
      ImVec4(dl->GetClipRectMin().x, dl->GetClipRectMin().y, dl->GetClipRectMax().x, dl->GetClipRectMax().y);

  // Labels: every k-th when crowded (a label needs a line of height); 0/1 in the cells when they fit.
  const int lit_i = state.hovered_row, lit_j = state.hovered_col;
  for (int k = 0; k < n; k += label_step) {
    const std::string t = fit_text(s.tokens[k], label_w - 0.5f * em);
    const float w = ImGui::CalcTextSize(t.c_str()).x;
    dl->AddText(ImVec2(origin.x - 0.4f * em - w, origin.y + cell * (float(k) + 0.5f) - 0.5f * line),
                k == lit_i ? palette::kText : palette::kQuery, t.c_str());
  }
  draw_column_labels(dl, s.tokens, origin, cell, label_step, label_lines, lit_j, palette::kKey);
  ImGui::PushFont(fonts.small);
  if (cell >= 1.3f * ImGui::GetTextLineHeight()) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        const char* t = r.allowed(i, j) ? "1" : "0";
        const ImVec2 size = ImGui::CalcTextSize(t);
        dl->AddText(ImVec2(origin.x + cell * (float(j) + 0.5f) - 0.5f * size.x,
                           origin.y + cell * (float(i) + 0.5f) - 0.5f * size.y),
                    r.allowed(i, j) ? IM_COL32(235, 245, 243, 255) : palette::kTextDim, t);
      }
    }
  }
  ImGui::PopFont();

  // Clicks: one invisible button over the grid, the cell from the mouse position.
  ImGui::SetCursorScreenPos(origin);
  ImGui::InvisibleButton("##maskgrid", ImVec2(std::max(grid_w, 1.0f), std::max(grid_w, 1.0f)));
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (ImGui::IsItemHovered()) {
    const int i = std::clamp(int((mouse.y - origin.y) / cell), 0, n - 1);
    const int j = std::clamp(int((mouse.x - origin.x) / cell), 0, n - 1);
    state.next_hovered_row = i;
    state.next_hovered_col = j;
    state.next_hovered_term = Term::Mask;
    const bool causal_hidden = s.causal && j > i;
    ImGui::BeginTooltip();
    ImGui::Text("M[%d][%d]: may \"%s\" (query %d) look at \"%s\" (key %d)?", i, j, s.tokens[i].c_str(), i,
                s.tokens[j].c_str(), j);
    if (causal_hidden) {
      ImGui::TextDisabled("No: key %d comes after query %d and the causal mask is on.", j, i);
    } else if (r.allowed(i, j)) {
      ImGui::TextDisabled("Yes. Click to hide it (its weight becomes 0 and the row renormalizes).");
    } else {
      ImGui::TextDisabled("No: hidden by the custom mask. Click to allow it again.");
    }
    ImGui::EndTooltip();
    if (ImGui::IsItemClicked()) {
      if (causal_hidden) {
        state.notice = "That cell is hidden by the causal mask: turn causal off to edit it.";
      } else {
        toggle_mask_cell(state, i, j);
      }
    }
  }
  if (lit_i >= 0 && lit_j >= 0 && lit_i < n && lit_j < n) {
    const ImVec2 a(origin.x + cell * float(lit_j), origin.y + cell * float(lit_i));
    outline(dl, a, ImVec2(a.x + cell, a.y + cell), IM_COL32(255, 255, 255, 230), std::max(1.5f, 0.12f * em));
  }
  check_question(fonts, "causal on: which tokens does token 2 see?",
                 "Tokens 0, 1 and 2. Tokens 3 and 4 are in its future: their scores become −∞,\n"
                 "so softmax gives them exactly 0 and the first three weights sum to 1.");
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Output: each row of Y = A V as bars with values
//-------------------------------------------------------------------------------------------------

void draw_output_panel(AppState& state, const Fonts& fonts) {
  panel_header(fonts, "Output  Y = A V",
               "Row i blends the value rows with row i's weights: y_i = Σ_j a_ij · v_j. "
               "Ticks mark each v_j; the brighter, the larger its weight.");
  if (!state.computed) return;
  const attn::Result& r = state.result;
  const scene::Scene& s = state.scene;
  const int n = int(r.output.rows()), d_v = int(r.output.cols());
  const float em = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();

  // Bars share one scale: |y| ≤ max |v| because each y is a convex blend of the value rows.
  double vmax = 1e-9;
  for (int k = 0; k < r.V.size(); ++k) vmax = std::max(vmax, std::abs(r.V.data()[k]));
  const bool masked_row_any = !r.masked_rows.empty();

  // Leave one line below the rows for the check question.
  // Boxes share the width down to the narrowest that holds "−0.00"; beyond that (many components
  // in a narrow panel) the rows scroll sideways instead of being cut at the panel's edge.
  ImGui::PushFont(fonts.small);
  const float text3_w = ImGui::CalcTextSize("−0.000").x, text2_w = ImGui::CalcTextSize("−0.00").x;
  ImGui::PopFont();
  const float min_box_w = text2_w + 0.6f * em;
  const float outer_w = ImGui::GetContentRegionAvail().x;
  const float fit_box_w =
      (outer_w - std::min(6.0f * em, 0.25f * outer_w) - style.ItemSpacing.x * float(d_v)) / float(d_v);
  ImGui::BeginChild("##output", ImVec2(0, -check_question_height(fonts)), false,
                    fit_box_w < min_box_w ? ImGuiWindowFlags_HorizontalScrollbar : 0);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float label_w = std::min(6.0f * em, 0.25f * ImGui::GetContentRegionAvail().x);
  const float box_w =
      std::clamp((ImGui::GetContentRegionAvail().x - label_w - style.ItemSpacing.x * float(d_v)) / float(d_v),
                 min_box_w, 14.0f * em);
  const float avail =
      std::max(ImGui::GetContentRegionAvail().x, label_w + float(d_v) * (box_w + style.ItemSpacing.x));
  const int decimals = box_w >= text3_w + 0.6f * em ? 3 : 2;
  // Rows fill the height down to 2.2 em before the list scrolls (5 tokens fit a 720 px window).
  const float row_h =
      std::clamp(ImGui::GetContentRegionAvail().y / float(std::max(n, 1)), 2.2f * em, 2.5f * em);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool hovered_window = ImGui::IsWindowHovered();

  ImGuiListClipper clipper;
  clipper.Begin(n, row_h);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const bool row_lit = state.hovered_row == i;
      if (row_lit)
        dl->AddRectFilled(p, ImVec2(p.x + avail, p.y + row_h - 0.15f * em), palette::kAccentSoft, 0.2f * em);
      const std::string label = fit_text(s.tokens[i], label_w - 0.5f * em);
      dl->AddText(ImVec2(p.x, p.y + 0.5f * (row_h - ImGui::GetTextLineHeight())), palette::kText,
                  label.c_str());
      const bool masked_row = std::find(r.masked_rows.begin(), r.masked_rows.end(), i) != r.masked_rows.end();
      // The key whose weight is almost (not exactly) 1, if any: y_i is then almost v_j.
      int one_hot_j = -1;
      for (int j = 0; j < n && !masked_row; ++j) {
        const double w = r.weights(i, j);
        if (w < 1.0 && w > 0.9995) one_hot_j = j;
      }
      for (int c = 0; c < d_v; ++c) {
        // A box per component: the value on top, below it a track with 0 in the middle, the bar
        // from 0 to y, and a tick at every visible v_j[c] (brighter = larger weight a_ij).
        const float x0 = p.x + label_w + float(c) * (box_w + style.ItemSpacing.x);
        const ImVec2 a(x0, p.y + 0.1f * em), b(x0 + box_w, p.y + row_h - 0.25f * em);
        dl->AddRectFilled(a, b, IM_COL32(38, 43, 53, 255), 0.15f * em);
        const double y = r.output(i, c);
        ImGui::PushFont(fonts.small);
        // A near-one-hot row returns almost exactly one value row (the soft dictionary): show
        // enough digits that 1.000091 does not read as v_j's 1.000, as far as the box allows.
        std::string text = format_number(y, decimals);
        if (one_hot_j >= 0) {
          const float room = box_w - 0.4f * em;
          const int max_chars = std::max(1, int(room / ImGui::CalcTextSize("0").x));
          for (int chars = max_chars; chars >= 4; --chars) {
            text = format_distinct(y, r.V(one_hot_j, c), decimals, chars);
            if (ImGui::CalcTextSize(text.c_str()).x <= room) break;
          }
        }
        const ImVec2 size = ImGui::CalcTextSize(text.c_str());
        dl->AddText(ImVec2(0.5f * (a.x + b.x - size.x), a.y + 0.1f * em), palette::kText, text.c_str());
        ImGui::PopFont();
        const float track_top = a.y + size.y + 0.2f * em, track_bottom = b.y - 0.2f * em;
        const float mid = 0.5f * (a.x + b.x);
        const float half = 0.5f * box_w - 0.3f * em;
        if (n <= 24) {
          for (int j = 0; j < n; ++j) {
            if (!r.allowed(i, j)) continue;
            const float x = mid + float(r.V(j, c) / vmax) * half;
            const int alpha = 50 + int(205.0 * r.weights(i, j));
            dl->AddLine(ImVec2(x, track_top), ImVec2(x, track_bottom), IM_COL32(170, 215, 120, alpha),
                        std::max(1.0f, 0.1f * em));
          }
        }
        const float x = mid + float(y / vmax) * half;
        const float inset = 0.22f * (track_bottom - track_top);
        dl->AddRectFilled(ImVec2(std::min(mid, x), track_top + inset),
                          ImVec2(std::max(mid, x), track_bottom - inset), IM_COL32(94, 200, 190, 220),
                          0.1f * em);
        dl->AddLine(ImVec2(mid, track_top), ImVec2(mid, track_bottom), IM_COL32(120, 128, 142, 255));

        if (hovered_window && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y) {
          state.next_hovered_row = i;
          state.next_hovered_term = Term::Output;
          ImGui::BeginTooltip();
          ImGui::Text("y_%d[%d] = Σ_j a[%d][j] · v_j[%d]", i, c, i, c);
          if (masked_row) {
            ImGui::TextDisabled("Every key is hidden from this query: the output row is 0.");
          } else {
            std::string terms;
            int shown = 0;
            for (int j = 0; j < n; ++j) {
              if (!r.allowed(i, j)) continue;
              if (shown == 8) {
                terms += " + …";
                break;
              }
              if (shown > 0) terms += " + ";
              terms += format_weight(r.weights(i, j), 3) + "·" + format_number(r.V(j, c), 2);
              ++shown;
            }
            ImGui::Text("= %s", terms.c_str());
            ImGui::Text("= %s", format_number(y, 6).c_str());
          }
          ImGui::EndTooltip();
        }
      }
      if (masked_row) {
        ImGui::PushFont(fonts.small);
        dl->AddText(ImVec2(p.x, p.y + row_h - 0.55f * em), palette::kError, "no visible key");
        ImGui::PopFont();
      }
      ImGui::Dummy(ImVec2(avail, row_h - style.ItemSpacing.y));
    }
  }
  clipper.End();
  if (masked_row_any) {
    ImGui::PushFont(fonts.small);
    ImGui::TextDisabled("A row with every key masked has no weights: its output is 0.");
    ImGui::PopFont();
  }
  ImGui::EndChild();
  check_question(fonts, "why does a query close to one key return almost that key's value?",
                 "Its weight row is nearly one-hot: y_i = Σ_j a_ij v_j ≈ v_j of the matching key.\n"
                 "Attention is a soft dictionary lookup (see the soft-dictionary example).");
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Layout: draw_screen
//-------------------------------------------------------------------------------------------------

namespace {

constexpr ImGuiWindowFlags kPanelFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                         ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings |
                                         ImGuiWindowFlags_NoBringToFrontOnFocus |
                                         ImGuiWindowFlags_NoFocusOnAppearing;

// A fixed panel window at (pos, size).
bool begin_panel(const char* name, ImVec2 pos, ImVec2 size, ImGuiWindowFlags extra = 0) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  return ImGui::Begin(name, nullptr, kPanelFlags | extra);
}

// Panels are child windows of one page window that fills the display below the top bar. They sit
// at computed places; when the layout is taller than the display (phones), the page scrolls.
struct PanelHost {
  float page_top = 0;  // y of the page window in display coordinates
  bool open(const char* name, ImVec2 pos, ImVec2 size, ImGuiWindowFlags extra = 0) const {
    ImGui::SetCursorPos(ImVec2(pos.x, pos.y - page_top));
    ImGui::PushStyleColor(ImGuiCol_ChildBg, to_vec4(palette::kPanel));
    ImGui::PushStyleVar(ImGuiStyleVar_ChildRounding, ImGui::GetStyle().WindowRounding);
    const bool visible = ImGui::BeginChild(name, size, true, extra);
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
    return visible;
  }
  void close() const { ImGui::EndChild(); }
};

void draw_top_bar(AppState& state, const Fonts& fonts, ImVec2 pos, ImVec2 size) {
  ImGui::PushStyleColor(ImGuiCol_WindowBg, to_vec4(palette::kBackground));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  begin_panel("##top", pos, size);
  const float em = ImGui::GetFontSize();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const bool compact = size.x < 60.0f * em;
  const float title_w = compact ? 0.0f : 9.5f * em;
  if (!compact) {
    ImGui::PushFont(fonts.heading);
    dl->AddText(ImVec2(pos.x + 0.8f * em, pos.y + 0.5f * (size.y - fonts.heading->FontSize) - 0.4f * em),
                palette::kAccent, "Attention Lab");
    ImGui::PopFont();
    ImGui::PushFont(fonts.small);
    dl->AddText(ImVec2(pos.x + 0.8f * em, pos.y + 0.5f * size.y + 0.25f * em), palette::kTextDim,
                "attention you can touch");
    ImGui::PopFont();
  }
  const float formula_cx = pos.x + title_w + 0.5f * (size.x - 2.0f * title_w) + 0.5f * title_w;
  draw_formula_strip(state, fonts, ImVec2(formula_cx, pos.y + 0.36f * size.y), size.x - 2.2f * title_w);

  // Caption: what the hovered term means; an error replaces it until dismissed.
  ImGui::PushFont(fonts.small);
  std::string caption = state.error.empty() ? term_caption(state, state.hovered_term) : state.error;
  caption = fit_text(caption, size.x - 2.0f * em);
  const ImVec2 cs = ImGui::CalcTextSize(caption.c_str());
  const float cy = pos.y + size.y - cs.y - 0.35f * em;
  dl->AddText(ImVec2(formula_cx - 0.5f * cs.x, cy), state.error.empty() ? palette::kTextDim : palette::kError,
              caption.c_str());
  if (!state.error.empty()) {
    ImGui::SetCursorScreenPos(ImVec2(formula_cx + 0.5f * cs.x + 0.5f * em, cy - 0.15f * em));
    if (ImGui::SmallButton("dismiss")) state.error.clear();
  }
  ImGui::PopFont();
  ImGui::End();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
}

}  // namespace

void draw_screen(AppState& state, MatrixPainter& painter, const Fonts& fonts) {
  // Hover links are one frame behind: what was hovered while drawing the last frame lights now.
  state.hovered_term = state.next_hovered_term;
  state.hovered_row = state.next_hovered_row;
  state.hovered_col = state.next_hovered_col;
  state.next_hovered_term = Term::None;
  state.next_hovered_row = state.next_hovered_col = -1;
  state.widget_rects.clear();

  const ImGuiIO& io = ImGui::GetIO();
  const float em = ImGui::GetFontSize();
  const float W = io.DisplaySize.x, H = io.DisplaySize.y;
  const float margin = std::floor(0.5f * em), gap = std::floor(0.5f * em);
  // Links may hide panels (hide=) or show one full-size (view=); see gallery_panel.hpp.
  using scene::link::Panel;
  const bool show_formula = panel_shown(Panel::Formula) || sharing().view == Panel::Formula;
  const float top_h = show_formula ? std::floor(3.6f * em) : 0.0f;
  const bool narrow = W < 48.0f * em;
  g_compact_headers = H < 40.0f * em;
  static float controls_h = 16.0f * em;  // measured each frame (content height + padding)

  if (show_formula) draw_top_bar(state, fonts, ImVec2(0, 0), ImVec2(W, top_h));
  recompute_if_dirty(state);  // an edit made by the formula strip (none today) would show at once

  // The page: everything below the top bar, scrolling when the panels need more height.
  ImGui::PushStyleColor(ImGuiCol_WindowBg, to_vec4(palette::kBackground));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  begin_panel("##page", ImVec2(0, top_h), ImVec2(W, H - top_h));
  ImGui::PopStyleVar(3);
  const PanelHost host{top_h};
  auto controls = [&](ImVec2 pos, ImVec2 size) {
    if (host.open("Controls", pos, size)) {
      claim_hover(state, Term::Scale);
      draw_controls_panel(state, fonts);
      const float measured = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
      if (std::abs(measured - controls_h) > 0.5f) state.layout_changed = true;
      controls_h = measured;
      panel_border(state, Term::Scale);
    }
    host.close();
    recompute_if_dirty(state);  // later panels in this frame show the edited scene
  };
  auto vectors = [&](ImVec2 pos, ImVec2 size) {
    if (host.open("Tokens and vectors", pos, size)) {
      claim_hover(state, Term::Tokens);
      draw_vectors_panel(state, fonts);
      panel_border(state, Term::Tokens);
    }
    host.close();
    recompute_if_dirty(state);
  };
  auto heatmap = [&](const char* name, HeatmapKind kind, ImVec2 pos, ImVec2 size) {
    if (host.open(name, pos, size, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse)) {
      draw_heatmap_panel(state, painter, fonts, kind);
      claim_hover(state, kind == HeatmapKind::Scores ? Term::Scores : Term::Weights);
      panel_border(state, kind == HeatmapKind::Scores ? Term::Scores : Term::Weights);
    }
    host.close();
  };
  auto mask = [&](ImVec2 pos, ImVec2 size) {
    if (host.open("Mask", pos, size, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse)) {
      draw_mask_panel(state, painter, fonts);
      claim_hover(state, Term::Mask);
      panel_border(state, Term::Mask);
    }
    host.close();
    recompute_if_dirty(state);
  };
  auto output = [&](ImVec2 pos, ImVec2 size) {
    if (host.open("Output", pos, size)) {
      draw_output_panel(state, fonts);
      claim_hover(state, Term::Output);
      panel_border(state, Term::Output);
    }
    host.close();
  };

  // One full-size panel (view=) fills the window at any width; the wide layout does that.
  if (!narrow || sharing().view) {
    // Left column: controls above the vectors. Right: scores | weights above mask | output.
    const int d_max = std::max(state.scene.d_k(), state.scene.d_v());
    const float want_left = 5.0f * em + 1.1f * em + float(d_max) * 4.2f * em + 2.5f * em;
    const float left_w = std::floor(std::clamp(want_left, 24.0f * em, 0.42f * W));
    const float body_y = show_formula ? top_h : margin;
    // Below ~38 em of height (phones in landscape) the page scrolls instead of squeezing panels
    // (a single full-size panel of an embed fits any height).
    const float body_h = std::max(H - body_y - margin, (sharing().view ? 10.0f : 38.0f) * em);
    const bool show_ctrl = panel_shown(Panel::Controls), show_vec = panel_shown(Panel::Vectors);
    const bool show_scores = panel_shown(Panel::Scores), show_weights = panel_shown(Panel::Weights);
    const bool show_mask = panel_shown(Panel::Mask), show_out = panel_shown(Panel::Output);
    const bool left = show_ctrl || show_vec;
    const bool top_row = show_scores || show_weights, bottom_row = show_mask || show_out;
    const float full_w = W - 2.0f * margin;
    const float left_w_used = !(top_row || bottom_row) ? full_w : left_w;
    if (show_ctrl && show_vec) {
      const float ctrl_h = std::min(controls_h, 0.6f * body_h);
      controls(ImVec2(margin, body_y), ImVec2(left_w_used, ctrl_h));
      vectors(ImVec2(margin, body_y + ctrl_h + gap), ImVec2(left_w_used, body_h - ctrl_h - gap));
    } else if (show_ctrl) {
      controls(ImVec2(margin, body_y), ImVec2(left_w_used, body_h));
    } else if (show_vec) {
      vectors(ImVec2(margin, body_y), ImVec2(left_w_used, body_h));
    }

    const float rx = left ? margin + left_w + gap : margin;
    const float rw = W - rx - margin;
    const float top_row_h = !bottom_row ? body_h : std::floor(0.62f * body_h);
    const float half_w = show_scores && show_weights ? std::floor(0.5f * (rw - gap)) : rw;
    if (show_scores) heatmap("Scores", HeatmapKind::Scores, ImVec2(rx, body_y), ImVec2(half_w, top_row_h));
    if (show_weights) {
      const float x = show_scores ? rx + half_w + gap : rx;
      heatmap("Weights", HeatmapKind::Weights, ImVec2(x, body_y), ImVec2(rx + rw - x, top_row_h));
    }
    const float by = top_row ? body_y + top_row_h + gap : body_y;
    const float bh = body_y + body_h - by;
    // The mask needs little room for few tokens: give the rest to the output bars.
    const float mask_want = 8.0f * em + float(state.scene.n()) * 2.6f * em;  // labels + cells
    const float mask_w =
        !show_out ? rw : std::floor(std::clamp(std::min(0.34f * rw, mask_want), 16.0f * em, 0.5f * rw));
    if (show_mask) mask(ImVec2(rx, by), ImVec2(mask_w, bh));
    if (show_out) {
      const float x = show_mask ? rx + mask_w + gap : rx;
      output(ImVec2(x, by), ImVec2(rx + rw - x, bh));
    }
  } else {
    // Narrow (phones in portrait): one column that scrolls as a whole.
    const float w = W - 2.0f * margin - ImGui::GetStyle().ScrollbarSize;
    const float x = margin;
    float y = top_h;
    const float tokens_h = std::min(28.0f * em, std::max(12.0f * em, float(state.scene.n()) * 5.6f * em));
    const float square = std::min(w, 30.0f * em);
    if (!show_formula) y = margin;
    if (panel_shown(Panel::Controls)) {
      controls(ImVec2(x, y), ImVec2(w, controls_h));
      y += controls_h + gap;
    }
    if (panel_shown(Panel::Vectors)) {
      vectors(ImVec2(x, y), ImVec2(w, tokens_h));
      y += tokens_h + gap;
    }
    if (panel_shown(Panel::Scores)) {
      heatmap("Scores", HeatmapKind::Scores, ImVec2(x, y), ImVec2(w, square * 0.9f + 6.0f * em));
      y += square * 0.9f + 6.0f * em + gap;
    }
    if (panel_shown(Panel::Weights)) {
      heatmap("Weights", HeatmapKind::Weights, ImVec2(x, y), ImVec2(w, square * 0.9f + 6.0f * em));
      y += square * 0.9f + 6.0f * em + gap;
    }
    if (panel_shown(Panel::Mask)) {
      // Tall enough for cells about the heatmaps' size (the mask is read against them).
      const float mask_h = square * 0.75f + 6.0f * em;
      mask(ImVec2(x, y), ImVec2(w, mask_h));
      y += mask_h + gap;
    }
    if (panel_shown(Panel::Output))
      output(ImVec2(x, y), ImVec2(w, float(state.scene.n()) * 2.5f * em + 6.0f * em));
  }
  ImGui::Dummy(ImVec2(0, margin));  // bottom margin when the page scrolls
  ImGui::End();
  ImGui::PopStyleColor();
  draw_sharing(state, fonts);  // the gallery window over the panels; the page follows edits
}

}  // namespace ui
