// wrapped_text.hpp — text wrapped to the panel as ImGui::TextWrapped does, but broken only at spaces
// (and '\n'), never inside a number such as "0.125" or a symbol such as "√d_k" (ui/text/text_wrap.hpp
// says why ImGui 1.86's own wrap cannot promise that).
//
// Each call draws its lines as one item (ImGui::TextUnformatted of the text with '\n' at the breaks),
// so record_item_rect(state, id) after it covers every line, as it did after a wrapped Text call.
// `width` ≤ 0 wraps at the right edge of the content region (ImGui's PushTextWrapPos(0.0f)), > 0 at
// that many pixels from the cursor. The current font measures and draws.
#pragma once

#include <string_view>

#include "imgui.h"

namespace ui {

void wrapped_text(std::string_view text, float width = 0.0f);           // ImGuiCol_Text
void wrapped_text_disabled(std::string_view text, float width = 0.0f);  // ImGuiCol_TextDisabled
void wrapped_text_colored(const ImVec4& color, std::string_view text, float width = 0.0f);

}  // namespace ui
