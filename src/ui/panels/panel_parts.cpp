// panel_parts.cpp — helpers shared by the panels: headers, text fitting, token labels, check
// questions, and the hover links between the formula strip and the panels.
#include "ui/panels/panel_parts.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ui/look/theme.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {

void panel_header(const AppState& state, const Fonts& fonts, const char* title, const char* hint,
                  int min_hint_lines) {
  ImGui::PushFont(fonts.heading);
  ImGui::TextUnformatted(title);
  ImGui::PopFont();
  if (hint && *hint && !state.ui.frame.compact_headers) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::text_dim()));
    ImGui::PushFont(fonts.small);
    const float top = ImGui::GetCursorPosY();
    wrapped_text(hint);
    // Side-by-side panels reserve the same hint height, so their contents line up.
    const float want = float(min_hint_lines) * ImGui::GetTextLineHeightWithSpacing();
    if (ImGui::GetCursorPosY() - top < want) ImGui::Dummy(ImVec2(0, want - (ImGui::GetCursorPosY() - top)));
    ImGui::PopFont();
    ImGui::PopStyleColor();
  }
  ImGui::Dummy(ImVec2(0, 0.15f * ImGui::GetFontSize()));
}

bool term_lit(const AppState& state, Term term) {
  const Term h = state.ui.frame.shown.hovered_term;
  if (h == Term::None) return mode_lights_term(state, term);  // the shown mode's own (the walk's step)
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

float fit_grid_cell(float room_w, float room_h, int n, float em) {
  const float fit = std::min(room_w, room_h) / float(n);
  const float smallest = std::min(0.1f, 2.0f * em / float(n));  // 0.1 px, or a 2 em grid at large n
  const float c = std::clamp(fit, smallest, kMaxCellEm * em);
  return c >= 4.0f ? std::floor(c) : c;
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

void same_line_if_fits(float w, float right_edge) {
  if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w <= right_edge) ImGui::SameLine();
}

namespace {
constexpr int kMaxCheckLines = 3;

// Width left for the question after the label, in the current window (small font pushed).
float check_question_room() {
  const float content_w = ImGui::GetWindowContentRegionMax().x - ImGui::GetWindowContentRegionMin().x;
  return std::max(1.0f,
                  content_w - ImGui::CalcTextSize(tr(Text::CheckLabel)).x - ImGui::GetStyle().ItemSpacing.x);
}
}  // namespace

float check_question_height(const Fonts& fonts, Text key) {
  const char* question = tr(key);
  ImGui::PushFont(fonts.small);
  const float line = ImGui::GetFontSize();
  const float wrapped = ImGui::CalcTextSize(question, nullptr, false, check_question_room()).y;
  ImGui::PopFont();
  return std::min(wrapped, float(kMaxCheckLines) * line) + ImGui::GetStyle().ItemSpacing.y;
}

void check_question(AppState& state, const Fonts& fonts, const CheckQuestion& check) {
  const char* question = tr(check.question);
  const char* label = tr(Text::CheckLabel);
  const char* prompt = tr(Text::CheckPrompt);
  const float height = check_question_height(fonts, check.question);
  ImGui::PushFont(fonts.small);
  const float bottom = ImGui::GetWindowContentRegionMax().y - height;
  // The panel reserved these lines; the last item's trailing spacing may overlap them.
  if (ImGui::GetCursorPosY() <= bottom + ImGui::GetStyle().ItemSpacing.y + 1.0f) {
    ImGui::SetCursorPosY(bottom);
    // Label and question are one target: hover shows the answer, a click opens the quiz there.
    const float room = check_question_room();
    // One line: the question and the prompt side by side. Longer: the question wraps under itself
    // (up to kMaxCheckLines lines, the panel reserved them) and the label says where the answer is.
    const float question_w = ImGui::CalcTextSize(question).x;
    const bool with_prompt = question_w + ImGui::CalcTextSize(prompt).x + 1.0f * ImGui::GetFontSize() < room;
    {
      const Group group(state, check.id);
      ImGui::TextColored(to_vec4(palette::accent()), "%s", label);
      ImGui::SameLine();
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      if (question_w <= room) {
        ImGui::TextUnformatted(question);
      } else {
        wrapped_text(question);
      }
      ImGui::PopStyleColor();
    }
    const bool hovered = ImGui::IsItemHovered();
    if (hovered) {
      ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
      ImGui::SetTooltip("%s", fill(tr(Text::CheckTip),
                                   {question, tr(check.answer), std::to_string(check.quiz_question + 1)})
                                  .c_str());
      if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) open_check_question(state, check.quiz_question);
    } else if (with_prompt) {
      ImGui::SameLine();
      ImGui::TextColored(to_vec4(palette::accent()), "%s", prompt);
    }
  }
  ImGui::PopFont();
}

void outline(ImDrawList* draw_list, ImVec2 min, ImVec2 max, ImU32 color, float thickness) {
  draw_list->AddRect(min, max, color, 0.0f, 0, thickness);
}

void claim_hover(AppState& state, Term term) {
  if (state.ui.frame.next.hovered_term == Term::None &&
      ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows |
                             ImGuiHoveredFlags_AllowWhenBlockedByActiveItem)) {
    state.ui.frame.next.hovered_term = term;
  }
}

void panel_border(const AppState& state, Term term) {
  // A mode that lights whole panels itself (Screen::mode_light) leaves them; a hover still lights its own.
  if (!term_lit(state, term) || (mode_lights_panels(state) && state.ui.frame.shown.hovered_term == Term::None)) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
  dl->PushClipRectFullScreen();
  dl->AddRect(p, ImVec2(p.x + s.x, p.y + s.y), palette::accent(), ImGui::GetStyle().WindowRounding, 0,
              std::max(1.5f, 0.12f * ImGui::GetFontSize()));
  dl->PopClipRect();
}

}  // namespace ui
