// web_table_settings.cpp — what the web build links in place of ImGui::TableSettingsInstallHandler
// (wasm-ld --wrap, src/app/CMakeLists.txt): nothing.
//
// ImGui::Initialize() installs a settings handler that reads and writes each table's column widths
// and order in imgui.ini. The app keeps no ini file (io.IniFilename = nullptr, src/app/main.cpp), so
// the handler never runs, but installing it links its reader and writer (and the table code they
// reach) even into the first load, which draws no table: 1,046 bytes of that build's gzip. Tables
// (the Decode mode's KV calculator, in the build with every mode) work as before; ImGui keeps their
// settings in memory either way.
struct ImGuiContext;

extern "C" void __wrap__ZN5ImGui27TableSettingsInstallHandlerEP12ImGuiContext(ImGuiContext* /*context*/) {}
