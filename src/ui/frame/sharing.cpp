// sharing.cpp — panel visibility from links, the demo index and the demo gallery (the Share buttons
// are the Controls panel's: panels/share_buttons.cpp).
//
// [SECTION] Panel visibility
// [SECTION] Demo index (demos/index.json)
// [SECTION] Gallery window
#include "ui/frame/sharing.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/text/i18n.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {

//-------------------------------------------------------------------------------------------------
// [SECTION] Panel visibility
//-------------------------------------------------------------------------------------------------

bool panel_shown(const AppState& state, scene::link::Panel panel) {
  return state.sharing.shown(panel);
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

// The demo gallery popup's id (its title is translated: "Demo gallery###demo-gallery").
constexpr const char* kGalleryId = "###demo-gallery";

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
  if (!panel_shown(state, scene::link::Panel::Scores)) state.ui.frame.scores_grid.visible = false;
  if (!panel_shown(state, scene::link::Panel::Weights)) state.ui.frame.weights_grid.visible = false;
  if (!panel_shown(state, scene::link::Panel::Mask)) state.ui.frame.mask_grid.visible = false;
  if (s.gallery_open || ImGui::IsPopupOpen(kGalleryId)) draw_gallery_window(state, fonts);
  if (state.result_version != s.seen_result_version) {
    s.seen_result_version = state.result_version;
    if (s.scene_changed) s.scene_changed();
  }
}

}  // namespace ui
