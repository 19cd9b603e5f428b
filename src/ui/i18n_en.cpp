// i18n_en.cpp — the screen's words in English (the reference every other table is checked against).
#include "ui/i18n.hpp"

namespace ui {
namespace {

constexpr TextEntry kEnglish[] = {
    {Text::Subtitle, "attention you can touch"},
    {Text::Dismiss, "dismiss"},
    {Text::ModeExplore, "Explore"},
    {Text::ModeWalk, "Walk through"},
    {Text::ModeHeads, "Heads"},
    {Text::ModeKeySpace, "Key space"},
    {Text::ModeFlash, "FlashAttention"},
    {Text::ModeDecode, "Decode"},
    {Text::CheckYourself, "Check yourself ✓"},
    {Text::CheckYourselfTip, "The lessons' check questions as a quiz"},
    {Text::View, "View"},
    {Text::ViewTip, "Theme, zoom and language (Ctrl + / Ctrl − / Ctrl 0)"},
    {Text::ThemeHeading, "Theme"},
    {Text::ThemeDark, "Dark"},
    {Text::ThemeLight, "Light (projector)"},
    {Text::ThemeContrast, "High contrast"},
    {Text::ZoomHeading, "Zoom"},
    {Text::ZoomResetTip, "Back to 100 % (Ctrl 0)"},
    {Text::LanguageHeading, "Language"},
    {Text::ControlsTitle, "Controls"},
    {Text::ControlsHint, "Pick a lesson example, then drag any slider and watch every panel follow."},
    {Text::Example, "Example"},
    {Text::Edited, "· edited"},
    {Text::TokensN, "Tokens n"},
    {Text::TokensValue, "%d tokens"},
    {Text::Heads, "Heads"},
    {Text::Scale, "Scale"},
    {Text::ScaleNone, "none"},
    {Text::CausalMask, "Causal mask"},
    {Text::CausalHint, "token i sees only tokens 0..i"},
    {Text::Reset, "Reset"},
    {Text::ResetTip, "Back to the example as loaded"},
    {Text::ClearMask, "Clear custom mask"},
    {Text::ShareHint, "Share this exact scene, or open a demo that teaches one idea."},
    {Text::Gallery, "Gallery…"},
    {Text::CopyLink, "Copy link"},
    {Text::ExportJson, "Export JSON"},
    {Text::ImportJson, "Import JSON"},
    {Text::ExportPng, "Export PNG"},
    {Text::ExportMenu, "Export…"},
    {Text::Generate, "Generate…"},
    {Text::VectorsTitle, "Tokens and vectors"},
    {Text::VectorsHint, "q: what am I looking for?  k: what do I have?  v: what do I give if I'm found?"},
    {Text::MaskTitle, "Mask  M"},
    {Text::MaskHint,
     "1 = may attend, 0 = hidden (−∞ before softmax). Hatched = hidden by the causal mask. Click a cell to "
     "toggle it."},
    {Text::OutputTitle, "Output  Y = A V"},
    {Text::OutputHint,
     "Row i blends the value rows with row i's weights: y_i = Σ_j a_ij · v_j. Ticks mark each v_j; the "
     "brighter, the larger its weight."},
};

}  // namespace

const LanguageTable& english_table() {
  static const LanguageTable table{"en", kEnglish, sizeof(kEnglish) / sizeof(kEnglish[0])};
  return table;
}

}  // namespace ui
