// wrapped_text.cpp — ImGui text broken at spaces only (wrapped_text.hpp, text_wrap.hpp).
#include "ui/widgets/wrapped_text.hpp"

#include <algorithm>
#include <string>

#include "ui/text/text_wrap.hpp"

namespace ui {

void wrapped_text(std::string_view text, float width) {
  if (width <= 0.0f) width = ImGui::GetContentRegionAvail().x;
  width = std::max(width, 1.0f);  // as ImGui's CalcWrapWidthForPos: at least one pixel
  const std::string lines = wrap_text(text, width, [](std::string_view piece) {
    return ImGui::CalcTextSize(piece.data(), piece.data() + piece.size()).x;
  });
  ImGui::PushTextWrapPos(-1.0f);  // the lines are broken already: ImGui must not break them again
  ImGui::TextUnformatted(lines.data(), lines.data() + lines.size());
  ImGui::PopTextWrapPos();
}

void wrapped_text_disabled(std::string_view text, float width) {
  wrapped_text_colored(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), text, width);
}

void wrapped_text_colored(const ImVec4& color, std::string_view text, float width) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  wrapped_text(text, width);
  ImGui::PopStyleColor();
}

}  // namespace ui
