// sharing.cpp — panel visibility from links, the Share buttons, and the demo gallery.
//
// [SECTION] Panel visibility
// [SECTION] Demo index (demos/index.json)
// [SECTION] Share buttons (in the Controls panel)
// [SECTION] Gallery window
#include "ui/frame/sharing.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/text/i18n.hpp"
#include "ui/widgets/wrapped_text.hpp"
#include "ui/widgets/recorded.hpp"

namespace ui {

//-------------------------------------------------------------------------------------------------
// [SECTION] Panel visibility
//-------------------------------------------------------------------------------------------------

bool panel_shown(const AppState& state, scene::link::Panel panel) {
  const Sharing& s = state.sharing;
  if (s.view) return *s.view == panel;
  return !s.hidden[static_cast<std::size_t>(panel)];
}

void set_panel_visibility(AppState& state, const std::vector<scene::link::Panel>& hide,
                          std::optional<scene::link::Panel> view) {
  Sharing& s = state.sharing;
  s.hidden.fill(false);
  for (scene::link::Panel p : hide) s.hidden[static_cast<std::size_t>(p)] = true;
  s.view = view;
  if (view) s.hidden[static_cast<std::size_t>(*view)] = false;
}

std::vector<scene::link::Panel> hidden_panels(const AppState& state) {
  std::vector<scene::link::Panel> out;
  for (int p = 0; p < scene::link::kPanelCount; ++p)
    if (state.sharing.hidden[static_cast<std::size_t>(p)]) out.push_back(static_cast<scene::link::Panel>(p));
  return out;
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Demo index: [{"name": "two-keys-tie", "title": "Two keys tie", "description": "…"}, …]
//-------------------------------------------------------------------------------------------------

std::string set_demo_index(AppState& state, std::string_view json_text) {
  // The app's one JSON type (scene/json_text.hpp): nlohmann::json beside it would be a second parser.
  using json = nlohmann::ordered_json;
  // No exceptions in the web build: parse with allow_exceptions = false and check every type.
  const json doc = json::parse(json_text.begin(), json_text.end(), nullptr, false);
  if (doc.is_discarded()) return "demos/index.json: not valid JSON";
  if (!doc.is_array()) return "demos/index.json: expected an array of {name, title, description}";
  std::vector<DemoInfo> demos;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    const json& entry = doc[i];
    const std::string where = "demos/index.json: entry " + std::to_string(i);
    if (!entry.is_object()) return where + " is not an object";
    DemoInfo info;
    for (auto [key, field] : {std::pair{"name", &info.name}, std::pair{"title", &info.title},
                              std::pair{"description", &info.description}}) {
      const auto it = entry.find(key);
      if (it == entry.end() || !it->is_string()) return where + ": " + key + " is missing or not a string";
      *field = it->get<std::string>();
    }
    demos.push_back(std::move(info));
  }
  state.sharing.demos = std::move(demos);
  return "";
}

void note_demo_loaded(AppState& state, const std::string& name) {
  state.ui.settings.demo = name;
  state.ui.settings.demo_title.clear();
  for (const DemoInfo& d : state.sharing.demos) {
    if (d.name == name) state.ui.settings.demo_title = d.title;
  }
}

std::string load_demo(AppState& state, const std::string& name, std::string_view json_text) {
  if (!load_scene_text(state, json_text).empty()) {
    state.error = "demo '" + name + "': " + state.error;
    return state.error;
  }
  note_demo_loaded(state, name);
  return "";
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Share buttons
//-------------------------------------------------------------------------------------------------

// The demo gallery popup's id (its title is translated: "Demo gallery###demo-gallery").
constexpr const char* kGalleryId = "###demo-gallery";

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

//-------------------------------------------------------------------------------------------------
// [SECTION] Gallery window: a modal list of demos, one line each
//-------------------------------------------------------------------------------------------------

namespace {

void draw_gallery_window(AppState& state, const Fonts& fonts) {
  Sharing& s = state.sharing;
  // The title in the current language; the popup's id is "###demo-gallery" whatever it says.
  const std::string title = std::string(tr(Text::GalleryTitle)) + kGalleryId;
  if (s.gallery_open && !ImGui::IsPopupOpen(kGalleryId)) ImGui::OpenPopup(title.c_str());
  const ImGuiIO& io = ImGui::GetIO();
  const float em = ImGui::GetFontSize();
  const float w = std::min(44.0f * em, io.DisplaySize.x - 2.0f * em);
  const float h = std::min(40.0f * em, io.DisplaySize.y - 2.0f * em);
  ImGui::SetNextWindowPos(ImVec2(0.5f * io.DisplaySize.x, 0.5f * io.DisplaySize.y), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(w, 0));
  ImGui::SetNextWindowSizeConstraints(ImVec2(w, 0), ImVec2(w, h));
  bool open = true;
  // The theme's panel colours for the title bar (ImGui's default is a saturated blue).
  ImGui::PushStyleColor(ImGuiCol_TitleBgActive, to_vec4(palette::panel_border()));
  ImGui::PushStyleColor(ImGuiCol_ModalWindowDimBg, ImVec4(0.05f, 0.06f, 0.08f, 0.6f));
  const bool visible = ImGui::BeginPopupModal(
      title.c_str(), &open,
      ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings);
  ImGui::PopStyleColor(2);
  if (!visible) {
    s.gallery_open = false;
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::text_dim()));
  ImGui::PushFont(fonts.small);
  if (s.copy_link) {
    wrapped_text(tr(Text::GalleryWebNote));
  } else {  // the desktop app: no address bar
    wrapped_text(tr(Text::GalleryDesktopNote));
  }
  ImGui::PopFont();
  ImGui::PopStyleColor();
  ImGui::Separator();

  const float wrap = ImGui::GetContentRegionAvail().x;
  for (const DemoInfo& demo : s.demos) {
    // One selectable row sized to its two lines: the title, then the wrapped description.
    ImGui::PushFont(fonts.small);
    const float desc_h = ImGui::CalcTextSize(demo.description.c_str(), nullptr, false, wrap - em).y;
    ImGui::PopFont();
    const float row_h = fonts.heading->FontSize + 0.25f * em + desc_h + 0.3f * em;
    const ImVec2 top = ImGui::GetCursorScreenPos();
    ImGui::PushID(demo.name.c_str());
    const bool current = demo.name == state.ui.settings.demo;
    if (selectable(state, "gallery/" + demo.name, "##demo", current, 0, ImVec2(0, row_h))) {
      s.open_demo(demo.name);
      s.gallery_open = false;
      ImGui::CloseCurrentPopup();
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddText(fonts.heading, fonts.heading->FontSize, ImVec2(top.x + 0.3f * em, top.y + 0.1f * em),
                current ? palette::accent() : palette::text(), demo.title.c_str());
    dl->AddText(fonts.small, fonts.small->FontSize,
                ImVec2(top.x + 0.3f * em, top.y + fonts.heading->FontSize + 0.35f * em), palette::text_dim(),
                demo.description.c_str(), nullptr, wrap - em);
    ImGui::PopID();
  }
  if (!open) {
    s.gallery_open = false;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace

void draw_sharing(AppState& state, const Fonts& fonts) {
  Sharing& s = state.sharing;
  // A hidden grid was not drawn this frame: widgetRect("cell/…") must not find last frame's cells.
  if (!panel_shown(state, scene::link::Panel::Scores)) state.scores_grid.visible = false;
  if (!panel_shown(state, scene::link::Panel::Weights)) state.weights_grid.visible = false;
  if (!panel_shown(state, scene::link::Panel::Mask)) state.mask_grid.visible = false;
  if (s.gallery_open || ImGui::IsPopupOpen(kGalleryId)) draw_gallery_window(state, fonts);
  if (state.result_version != s.seen_result_version) {
    s.seen_result_version = state.result_version;
    if (s.scene_changed) s.scene_changed();
  }
}

}  // namespace ui
