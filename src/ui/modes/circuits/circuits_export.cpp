// circuits_export.cpp — the Circuits mode's exports: the trained model's weights as JSON (the model
// contract, scene/model_json.hpp: what `attention-lab-cli --eval` reads) and a PyTorch script that
// rebuilds the model and prints its logits on the typed text (scene/model_export.hpp).
#include <string>

#include "scene/model_export.hpp"
#include "scene/model_json.hpp"
#include "ui/look/theme.hpp"
#include "ui/modes/circuits/circuits.hpp"
#include "ui/modes/circuits/circuits_parts.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/widgets/recorded.hpp"

namespace ui {

void draw_circuits_back(AppState& state, const Fonts& fonts) {
  const CircuitsUi& c = state.ui.circuits;
  if (c.opened_layer < 0 || state.ui.settings.mode != scene::link::kDefaultMode) return;  // every panel
  ImGui::PushStyleColor(ImGuiCol_Button, to_vec4(palette::accent_soft()));
  if (button(state, "circuits/back", (std::string(tr(Text::CircuitsBack)) + "###circuits-back").c_str()))
    circuits_back(state);
  ImGui::PopStyleColor();
  ImGui::SameLine();
  ImGui::PushFont(fonts.small);
  ImGui::AlignTextToFramePadding();
  ImGui::TextColored(
      to_vec4(palette::accent()), "%s",
      fill(tr(Text::CircuitsOpened), {std::to_string(c.opened_layer), std::to_string(c.opened_head), c.text})
          .c_str());
  ImGui::PopFont();
}

std::string circuits_export_text(const AppState& state, const std::string& kind) {
  const CircuitsUi& c = state.ui.circuits;
  if (!c.trainer) return "";
  if (kind == "json") return scene::model_to_json(c.trainer->model(), 1) + "\n";
  if (kind == "pytorch" && !c.sample.tokens.empty())
    return scene::model_pytorch_script(c.trainer->model(), c.sample.tokens, c.ablation);
  return "";
}

void draw_circuits_exports(AppState& state) {
  const Sharing& s = state.sharing;
  if (!s.save_text) return;
  const float em = ImGui::GetFontSize();
  const float right_edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  ImGui::Spacing();
  struct Item {
    Text label, tip;
    const char *kind, *id, *file;
  } items[] = {{Text::CircuitsExportJson, Text::CircuitsExportJsonTip, "json", "circuits/export/json",
                "attention-lab-model.json"},
               {Text::CircuitsExportTorch, Text::CircuitsExportTorchTip, "pytorch", "circuits/export/pytorch",
                "attention-lab-model.py"}};
  bool first = true;
  for (const Item& item : items) {
    const std::string label = std::string(tr(item.label)) + "###" + item.id;
    const float w = ImGui::CalcTextSize(tr(item.label)).x + 2.0f * ImGui::GetStyle().FramePadding.x;
    if (!first) same_line_if_fits(w, right_edge);
    first = false;
    if (button(state, item.id, label.c_str())) {
      const std::string text = circuits_export_text(state, item.kind);
      if (!text.empty()) s.save_text(item.file, text);
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(item.tip));
  }
  (void)em;
}

}  // namespace ui
