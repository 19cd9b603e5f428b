// web_default_font.cpp — what the web build links in place of ImFontAtlas::AddFontDefault (wasm-ld
// --wrap, src/app/CMakeLists.txt).
//
// ImFontAtlas::Build() adds ImGui's built-in ProggyClean font when no font was added. The app always
// adds its own first (ui/look/fonts.cpp), so that never happens, but the call alone links the font's
// 11,980 base-85 characters and their decompressor, which do not compress: 11,489 bytes of the first
// load's gzip. Every call to AddFontDefault (Build's included) comes here instead and gets the app's
// text face at ImGui's default size, 13 px.
#include "imgui.h"
#include "ui/look/fonts.hpp"

extern "C" ImFont* __wrap__ZN11ImFontAtlas14AddFontDefaultEPK12ImFontConfig(ImFontAtlas* atlas,
                                                                           const ImFontConfig* /*config*/) {
  IM_ASSERT(atlas == ImGui::GetIO().Fonts && "the app has one font atlas");
  (void)atlas;
  return ui::add_text_face(13.0f);
}
