// desktop_demos.cpp — the bundled gallery demos (see desktop_demos.hpp).
#include "app/desktop_demos.hpp"

#include <cstdio>
#include <string_view>

#include "demos_bundle.hpp"  // generated: kBundledDemos[] = {name, JSON text} of web/demos/*.json
#include "ui/frame/sharing.hpp"

namespace app {

namespace {
const char* bundled_text(std::string_view name) {
  for (const BundledDemo& d : kBundledDemos) {
    if (name == d.name) return d.text;
  }
  return nullptr;
}
}  // namespace

std::string open_bundled_demo(ui::AppState& state, const std::string& name) {
  const char* text = name == "index" ? nullptr : bundled_text(name);
  if (!text) {
    std::string known;
    for (const ui::DemoInfo& d : state.sharing.demos) known += (known.empty() ? "" : ", ") + d.name;
    state.error = "demo: no demo named '" + name + "' (demos: " + known + ")";
    return state.error;
  }
  return ui::load_demo(state, name, text);
}

void install_bundled_demos(ui::AppState& state) {
  const char* index = bundled_text("index");
  if (!index) return;  // built without web/demos: no Gallery button
  if (const std::string error = ui::set_demo_index(state, index); !error.empty()) {
    std::fprintf(stderr, "attention-lab: bundled %s\n", error.c_str());
    return;
  }
  ui::AppState* s = &state;
  state.sharing.open_demo = [s](const std::string& name) { open_bundled_demo(*s, name); };
}

}  // namespace app
