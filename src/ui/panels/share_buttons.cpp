// share_buttons.cpp — the Controls panel's Share row: Gallery, Copy link, Export/Import JSON, Export
// PNG and the Export… menu, each shown when the platform set its action (AppState::sharing; the
// gallery window itself is frame/sharing.cpp's).
#include <string>

#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/text/i18n.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {

namespace {

// Buttons flow left to right and wrap to a new line when the next one does not fit.
struct ButtonFlow {
  float right_edge = 0;  // screen x where the content region ends
  bool first = true;

  bool button(AppState& state, const char* label, const char* id, const char* tooltip) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float w = ImGui::CalcTextSize(label).x + 2.0f * style.FramePadding.x;
    if (!first) same_line_if_fits(w, right_edge);
    first = false;
    const bool pressed = ui::button(state, id, label);
    note_row_bottom(state.ui.frame.controls_rows);  // the flow's rows are the Controls panel's
    if (tooltip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
    return pressed;
  }
};

}  // namespace

// The Export menu: four items (ids export/numpy, export/pytorch, export/latex, export/svg) and the
// stage the LaTeX and SVG items show (export/stage). The text itself is scene/export's, the same as
// attention-lab-cli --export and attentionLab.exportText.
static void draw_export_menu(AppState& state, const Fonts& fonts) {
  Sharing& s = state.sharing;
  if (!ImGui::BeginPopup("##export-menu")) return;
  const bool files = s.export_saves_files;
  const std::string stage = scene::export_stage_name(s.export_stage);
  auto item = [&](const std::string& label, const char* id, const char* hint) {
    const bool chosen = selectable(state, id, label.c_str(), false);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", hint);
    return chosen;
  };
  std::optional<scene::ExportKind> chosen;
  if (item(tr(files ? Text::ExportNumpySave : Text::ExportNumpyCopy), "export/numpy",
           tr(Text::ExportNumpyTip)))
    chosen = scene::ExportKind::NumPy;
  if (item(tr(files ? Text::ExportTorchSave : Text::ExportTorchCopy), "export/pytorch",
           tr(Text::ExportTorchTip)))
    chosen = scene::ExportKind::PyTorch;
  ImGui::Separator();
  ImGui::PushFont(fonts.small);
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%s", tr(Text::ExportStage));
  ImGui::PopFont();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(8.0f * ImGui::GetFontSize());
  if (const Combo combo{state, "export/stage", "##export-stage", stage.c_str()}) {
    for (const scene::ExportStage st :
         {scene::ExportStage::Weights, scene::ExportStage::Scores, scene::ExportStage::Scaled,
          scene::ExportStage::Q, scene::ExportStage::K, scene::ExportStage::V, scene::ExportStage::Output}) {
      if (ImGui::Selectable(scene::export_stage_name(st), st == s.export_stage)) s.export_stage = st;
    }
  }
  if (item(fill(tr(files ? Text::ExportLatexSave : Text::ExportLatexCopy), {stage}), "export/latex",
           tr(Text::ExportLatexTip)))
    chosen = scene::ExportKind::LaTeX;
  if (item(fill(tr(files ? Text::ExportSvgSave : Text::ExportSvgDownload), {stage}), "export/svg",
           tr(Text::ExportSvgTip)))
    chosen = scene::ExportKind::Svg;
  ImGui::EndPopup();
  if (chosen) s.export_text(*chosen, s.export_stage);
}

static bool any_share_action(const Sharing& s) {
  return s.copy_link || s.export_json || s.import_json || s.export_png || s.open_demo || s.export_text;
}

void draw_share_buttons(AppState& state, const Fonts& fonts) {
  (void)fonts;
  Sharing& s = state.sharing;
  if (!any_share_action(s)) return;
  ImGui::Dummy(ImVec2(0, 0.2f * ImGui::GetFontSize()));
  ButtonFlow flow{ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x};
  if (s.open_demo && !s.demos.empty() &&
      flow.button(state, tr(Text::Gallery), "share/gallery", tr(Text::GalleryTip))) {
    s.gallery_open = true;
  }
  if (s.copy_link && flow.button(state, tr(Text::CopyLink), "share/copy", tr(Text::CopyLinkTip))) {
    s.copy_link();
  }
  if (s.export_json &&
      flow.button(state, tr(Text::ExportJson), "share/export-json", tr(Text::ExportJsonTip))) {
    s.export_json();
  }
  if (s.import_json &&
      flow.button(state, tr(Text::ImportJson), "share/import-json", tr(Text::ImportJsonTip))) {
    s.import_json();
  }
  if (s.export_png && flow.button(state, tr(Text::ExportPng), "share/export-png", tr(Text::ExportPngTip))) {
    s.export_png();
  }
  if (s.export_text && flow.button(state, tr(Text::ExportMenu), "export/menu", tr(Text::ExportMenuTip))) {
    ImGui::OpenPopup("##export-menu");
  }
  draw_export_menu(state, fonts);
}

// Under the buttons, not above them: at 1280×720 in Spanish or German the two lines above pushed the
// last row of buttons (Export…) out of the Controls panel; a caption cut at the bottom loses less.
void draw_share_hint(AppState& state, const Fonts& fonts) {
  if (!any_share_action(state.sharing)) return;
  ImGui::PushFont(fonts.small);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  wrapped_text(tr(Text::ShareHint));  // wrapped: a longer translation takes two lines
  ImGui::PopStyleColor();
  ImGui::PopFont();
}

}  // namespace ui
