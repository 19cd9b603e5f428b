// i18n_es.cpp — the screen's words in Spanish (neutral Latin-American/Spanish usage; "tú", as a
// classroom tool speaks to its students). Formulas and symbols as in English.
#include "ui/i18n.hpp"

namespace ui {
namespace {

constexpr TextEntry kSpanish[] = {
    {Text::Subtitle, "atención que puedes tocar"},
    {Text::Dismiss, "cerrar"},
    {Text::ModeExplore, "Explorar"},
    {Text::ModeWalk, "Paso a paso"},
    {Text::ModeHeads, "Cabezas"},
    {Text::ModeKeySpace, "Espacio de claves"},
    {Text::ModeFlash, "FlashAttention"},
    {Text::ModeDecode, "Decodificar"},
    {Text::ModeTrain, "Entrenar"},
    {Text::CheckYourself, "Ponte a prueba ✓"},
    {Text::CheckYourselfTip, "Las preguntas de repaso de las lecciones, como cuestionario"},
    {Text::View, "Vista"},
    {Text::ViewTip, "Tema, zoom e idioma (Ctrl + / Ctrl − / Ctrl 0)"},
    {Text::ThemeHeading, "Tema"},
    {Text::ThemeDark, "Oscuro"},
    {Text::ThemeLight, "Claro (proyector)"},
    {Text::ThemeContrast, "Alto contraste"},
    {Text::ZoomHeading, "Zoom"},
    {Text::ZoomResetTip, "Volver al 100 % (Ctrl 0)"},
    {Text::LanguageHeading, "Idioma"},
    {Text::ControlsTitle, "Controles"},
    {Text::ControlsHint,
     "Elige un ejemplo de una lección, arrastra cualquier control deslizante y mira cómo lo siguen todos "
     "los paneles."},
    {Text::Example, "Ejemplo"},
    {Text::Edited, "· editado"},
    {Text::TokensN, "Tokens n"},
    {Text::TokensValue, "%d tokens"},
    {Text::Heads, "Cabezas"},
    {Text::Scale, "Escala"},
    {Text::ScaleNone, "ninguna"},
    {Text::CausalMask, "Máscara causal"},
    {Text::CausalHint, "el token i solo ve los tokens 0..i"},
    {Text::Reset, "Restablecer"},
    {Text::ResetTip, "Volver al ejemplo tal como se cargó"},
    {Text::ClearMask, "Borrar la máscara propia"},
    {Text::ShareHint, "Comparte exactamente esta escena o abre una demo que enseña una idea."},
    {Text::Gallery, "Galería…"},
    {Text::CopyLink, "Copiar enlace"},
    {Text::ExportJson, "Exportar JSON"},
    {Text::ImportJson, "Importar JSON"},
    {Text::ExportPng, "Exportar PNG"},
    {Text::ExportMenu, "Exportar…"},
    {Text::Generate, "Generar…"},
    {Text::VectorsTitle, "Tokens y vectores"},
    {Text::VectorsHint, "q: ¿qué busco?  k: ¿qué tengo?  v: ¿qué doy si me encuentran?"},
    {Text::MaskTitle, "Máscara  M"},
    {Text::MaskHint,
     "1 = puede atender, 0 = oculto (−∞ antes del softmax). Rayado = oculto por la máscara causal. Haz clic "
     "en una celda para cambiarla."},
    {Text::OutputTitle, "Salida  Y = A V"},
    {Text::OutputHint,
     "La fila i mezcla las filas de valores con los pesos de la fila i: y_i = Σ_j a_ij · v_j. Las marcas "
     "señalan cada v_j; cuanto más brillante, mayor es su peso."},
    {Text::ScoresTitle, "Puntuaciones  QKᵀ"},
    {Text::ScoresHint,
     "score(i, j) = q_i · k_j: la fila i pregunta (query), la columna j responde (key). Los valores no "
     "intervienen."},
    {Text::ScoresHatched,
     " Los pares rayados los oculta después la máscara M; se muestra su puntuación sin escalar."},
    {Text::HiddenLaterByM, "oculto después por M"},
    {Text::WeightsTitle, "Pesos  A = softmax({1} + M)"},
    {Text::WeightsHint, "Softmax de cada fila de {1} ({2}): pesos en [0, 1], y cada fila suma 1"},
    {Text::NoScaling, "sin escalar"},
    {Text::WeightsMaskedRow, " (una fila con todas sus claves ocultas: todo 0)"},
};

}  // namespace

const LanguageTable& spanish_table() {
  static const LanguageTable table{"es", kSpanish, sizeof(kSpanish) / sizeof(kSpanish[0])};
  return table;
}

}  // namespace ui
