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
    {Text::ModeTrain, "Train"},
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
    {Text::ScoresTitle, "Scores  QKᵀ"},
    {Text::ScoresHint,
     "score(i, j) = q_i · k_j: row i asks (query), column j answers (key). Values are not part of it."},
    {Text::ScoresHatched, " Hatched pairs are hidden later, by the mask M; their raw score is shown."},
    {Text::HiddenLaterByM, "hidden later by M"},
    {Text::WeightsTitle, "Weights  A = softmax({1} + M)"},
    {Text::WeightsHint, "Softmax of each row of {1} ({2}): weights in [0, 1], and every row sums to 1"},
    {Text::NoScaling, "no scaling"},
    {Text::WeightsMaskedRow, " (a row whose every key is hidden: all 0)"},
};

}  // namespace

const LanguageTable& english_table() {
  static const LanguageTable table{"en", kEnglish, sizeof(kEnglish) / sizeof(kEnglish[0])};
  return table;
}

}  // namespace ui
