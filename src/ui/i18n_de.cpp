// i18n_de.cpp — the screen's words in German ("du", as a classroom tool speaks to its students).
// Formulas and symbols as in English; "Strg" is the German keyboard's Ctrl.
#include "ui/i18n.hpp"

namespace ui {
namespace {

constexpr TextEntry kGerman[] = {
    {Text::Subtitle, "Attention zum Anfassen"},
    {Text::Dismiss, "schließen"},
    {Text::ModeExplore, "Erkunden"},
    {Text::ModeWalk, "Schritt für Schritt"},
    {Text::ModeHeads, "Köpfe"},
    {Text::ModeKeySpace, "Schlüsselraum"},
    {Text::ModeFlash, "FlashAttention"},
    {Text::ModeDecode, "Dekodieren"},
    {Text::ModeTrain, "Trainieren"},
    {Text::CheckYourself, "Teste dich ✓"},
    {Text::CheckYourselfTip, "Die Kontrollfragen der Lektionen als Quiz"},
    {Text::View, "Ansicht"},
    {Text::ViewTip, "Farbschema, Zoom und Sprache (Strg + / Strg − / Strg 0)"},
    {Text::ThemeHeading, "Farbschema"},
    {Text::ThemeDark, "Dunkel"},
    {Text::ThemeLight, "Hell (Beamer)"},
    {Text::ThemeContrast, "Hoher Kontrast"},
    {Text::ZoomHeading, "Zoom"},
    {Text::ZoomResetTip, "Zurück auf 100 % (Strg 0)"},
    {Text::LanguageHeading, "Sprache"},
    {Text::ControlsTitle, "Steuerung"},
    {Text::ControlsHint,
     "Wähle ein Beispiel aus einer Lektion, zieh an einem beliebigen Regler und sieh zu, wie alle Felder "
     "folgen."},
    {Text::Example, "Beispiel"},
    {Text::Edited, "· bearbeitet"},
    {Text::TokensN, "Tokens n"},
    {Text::TokensValue, "%d Tokens"},
    {Text::Heads, "Köpfe"},
    {Text::Scale, "Skalierung"},
    {Text::ScaleNone, "keine"},
    {Text::CausalMask, "Kausale Maske"},
    {Text::CausalHint, "Token i sieht nur die Tokens 0..i"},
    {Text::Reset, "Zurücksetzen"},
    {Text::ResetTip, "Zurück zum Beispiel, wie es geladen wurde"},
    {Text::ClearMask, "Eigene Maske löschen"},
    {Text::ShareHint, "Teile genau diese Szene oder öffne eine Demo, die eine Idee zeigt."},
    {Text::Gallery, "Galerie…"},
    {Text::CopyLink, "Link kopieren"},
    {Text::ExportJson, "JSON exportieren"},
    {Text::ImportJson, "JSON importieren"},
    {Text::ExportPng, "PNG exportieren"},
    {Text::ExportMenu, "Exportieren…"},
    {Text::Generate, "Erzeugen…"},
    {Text::VectorsTitle, "Tokens und Vektoren"},
    {Text::VectorsHint, "q: Was suche ich?  k: Was habe ich?  v: Was gebe ich, wenn man mich findet?"},
    {Text::MaskTitle, "Maske  M"},
    {Text::MaskHint,
     "1 = darf beachten, 0 = verborgen (−∞ vor dem Softmax). Schraffiert = durch die kausale Maske "
     "verborgen. "
     "Klicke auf eine Zelle, um sie umzuschalten."},
    {Text::OutputTitle, "Ausgabe  Y = A V"},
    {Text::OutputHint,
     "Zeile i mischt die Wertzeilen mit den Gewichten von Zeile i: y_i = Σ_j a_ij · v_j. Striche markieren "
     "jedes v_j; je heller, desto größer sein Gewicht."},
    {Text::ScoresTitle, "Punktwerte  QKᵀ"},
    {Text::ScoresHint,
     "score(i, j) = q_i · k_j: Zeile i fragt (Query), Spalte j antwortet (Key). Die Werte spielen keine "
     "Rolle."},
    {Text::ScoresHatched,
     " Schraffierte Paare verbirgt erst später die Maske M; gezeigt wird ihr unskalierter Wert."},
    {Text::HiddenLaterByM, "später durch M verborgen"},
    {Text::WeightsTitle, "Gewichte  A = softmax({1} + M)"},
    {Text::WeightsHint,
     "Softmax jeder Zeile von {1} ({2}): Gewichte in [0, 1], jede Zeile ergibt in Summe 1"},
    {Text::NoScaling, "ohne Skalierung"},
    {Text::WeightsMaskedRow, " (eine Zeile, deren Keys alle verborgen sind: überall 0)"},
};

}  // namespace

const LanguageTable& german_table() {
  static const LanguageTable table{"de", kGerman, sizeof(kGerman) / sizeof(kGerman[0])};
  return table;
}

}  // namespace ui
