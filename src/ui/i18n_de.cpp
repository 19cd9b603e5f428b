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
    {Text::WeightsMaskedRow, " (eine Zeile, deren Schlüssel alle verborgen sind: überall 0)"},
    // the Scaled grid
    {Text::ScaledTitle, "Skaliert + maskiert  {1} + M"},
    {Text::MaskedTitle, "Maskiert  {1} + M"},
    {Text::ScaledHint, "Jeder Punktwert ÷ {1}, dann + M:"},
    {Text::UnscaledHint, "Ohne Skalierung (÷ 1), dann + M:"},
    {Text::ScaledHintMasked, "−∞, wo ein Schlüssel verborgen ist. Das sieht der Softmax."},
    {Text::ScaledHintNothingMasked, "M ist hier überall 0, nichts ist verborgen. Das sieht der Softmax."},
    {Text::CellMaskedInf, "maskiert: −∞"},
    {Text::CellMaskedZero, "maskiert: 0"},
    // the formula strip
    {Text::TermOutput, "Y = A V: Jede Ausgabezeile mischt die Wertzeilen mit den Gewichten dieses Tokens."},
    {Text::TermWeights, "softmax macht aus jeder Zeile Punktwerte Gewichte ≥ 0, die zusammen 1 ergeben."},
    {Text::TermScores,
     "QKᵀ: jede Abfrage im Skalarprodukt mit jedem Schlüssel: wie gut die Frage von Token i zum Etikett "
     "von Token j passt."},
    {Text::TermQueries, "Q: eine Abfrage pro Token, was suche ich?"},
    {Text::TermKeys, "Kᵀ: die Schlüssel, transponiert (scores = Q @ K.T). Ein Schlüssel sagt: Was habe ich?"},
    {Text::TermValues,
     "V: was jedes Token gibt, wenn es gefunden wird. Werte gehen nie in die Punktwerte ein."},
    {Text::TermTokens, "Jedes Token spielt drei Rollen: Abfrage, Schlüssel und Wert."},
    {Text::TermMask,
     "M ist 0, wo ein Token hinschauen darf, und −∞, wo nicht, also werden diese Gewichte genau 0."},
    {Text::TermNone, "Zeige auf einen Teil der Formel oder ein Feld, um zu sehen, wie sie zusammenhängen."},
    // the scale modes
    {Text::ScaleNoneHelp,
     "Ohne Skalierung: Die Punktwerte gehen unverändert in den Softmax (die NumPy-Lektion)."},
    {Text::ScaleNoneControls, "der Softmax sieht QKᵀ unverändert (die NumPy-Lektion)"},
    {Text::ScaleNoneTitle, "Skalierung: hier keine"},
    {Text::ScaleNoneBody,
     "Diese Szene lässt die Punktwerte unverändert, wie die NumPy-Lektion. Die meisten Modelle teilen sie "
     "durch √d_k, weil Skalarprodukte mit der Vektorlänge d_k wachsen und große Punktwerte den Softmax zu "
     "Alles-oder-nichts treiben. Probiere Skalierung = √d_k in der Steuerung."},
    {Text::ScaleSqrtHelp,
     "÷ √d_k hält die Punktwerte klein, auch wenn die Dimension wächst, damit der Softmax nicht sättigt."},
    {Text::ScaleSqrtControls, "der Softmax sieht QKᵀ / √d_k"},
    {Text::ScaleSqrtTitle, "Skalierung: ÷ √d_k"},
    {Text::ScaleSqrtBody,
     "Skalarprodukte wachsen mit der Vektorlänge d_k, und große Punktwerte treiben den Softmax zu "
     "Alles-oder-nichts (ein Gewicht nahe 1, der Rest nahe 0). Wer jeden Punktwert durch √d_k teilt, hält "
     "sie in dem Bereich, in dem der Softmax das Gewicht noch verteilt."},
    {Text::ScaleTempHelp, "÷ T: Eine kleine Temperatur schärft die Gewichte, eine große glättet sie."},
    {Text::ScaleTempControls, "der Softmax sieht QKᵀ / T: ein kleines T schärft"},
    {Text::ScaleTempTitle, "Skalierung: ÷ T"},
    {Text::ScaleTempBody,
     "Hier wird jeder Punktwert durch eine Temperatur T geteilt. Ein kleines T zieht die Punktwerte "
     "auseinander, sodass der Softmax scharf einen Schlüssel wählt; ein großes T schiebt sie zusammen, "
     "sodass sich die Gewichte angleichen."},
    // the walk-through
    {Text::WalkInputsTitle, "Die Tokens: X"},
    {Text::WalkInputsBody,
     "Jedes Token beginnt als Zeile von Zahlen, seinen Merkmalen: X hat eine Zeile pro Token. Attention "
     "lässt jedes Token Information von den anderen Tokens sammeln, in wenigen Schritten, die du einzeln "
     "ansehen kannst."},
    {Text::WalkRolesTitle, "Drei Rollen: Q, K, V"},
    {Text::WalkRolesBody,
     "Jedes Token spielt drei Rollen. Seine Abfrage fragt „Was suche ich?“, sein Schlüssel antwortet „Was "
     "habe ich?“ (das Etikett auf dem Buchrücken) und sein Wert ist „Was gebe ich, wenn man mich findet?“ "
     "(der Inhalt des Buchs)."},
    {Text::WalkRolesLearned,
     "Hier sind es drei gelernte Abbildungen derselben Zeile: Q = X W_q, K = X W_k, V = X W_v, also kann "
     "sich das, was ein Token sucht, von dem unterscheiden, was es anbietet."},
    {Text::WalkRolesDirect,
     "Diese Szene gibt Q, K und V direkt vor: Zieh an einem Regler, um einen zu ändern."},
    {Text::WalkScoresTitle, "Punktwerte: Q Kᵀ"},
    {Text::WalkScoresBody,
     "Wie stark Token i auf Token j achtet, beginnt als eine einzige Zahl, das Skalarprodukt q_i · k_j: "
     "groß, wenn Abfrage und Schlüssel in dieselbe Richtung zeigen. Alle Paare auf einmal ergeben das "
     "n×n-Raster Q Kᵀ. Die Werte spielen dabei keine Rolle."},
    {Text::WalkNoMaskTitle, "Maske: + M (hier ist nichts verborgen)"},
    {Text::WalkNoMaskBody,
     "Eine Maske M kann Paare verbergen: Sie addiert 0, wo Token i auf Token j schauen darf, und −∞, wo "
     "nicht. Diese Szene hat keine Maske, also ist M überall 0 und jedes Token sieht jedes Token. Setze in "
     "der Steuerung das Häkchen bei Kausale Maske, um die Zukunft zu verbergen."},
    {Text::WalkMaskTitle, "Maske: + M"},
    {Text::WalkMaskBody,
     "M addiert 0, wo Token i auf Token j schauen darf, und −∞, wo nicht, also gibt der Softmax diesen "
     "Paaren genau das Gewicht 0."},
    {Text::WalkMaskCausal,
     "Die kausale Maske lässt jedes Token sich selbst und die Tokens davor sehen, nie die Zukunft, so wie "
     "ein Modell einen Text Token für Token schreibt."},
    {Text::WalkMaskCustom,
     "Die eigene Maske dieser Szene legt fest, welche Paare verborgen sind; klicke auf eine Zelle im "
     "Masken-Raster, um sie umzuschalten."},
    {Text::WalkSoftmaxTitle, "Softmax: Punktwerte → Gewichte"},
    {Text::WalkSoftmaxBody,
     "Der Softmax macht aus jeder Zeile Punktwerte Gewichte: Er nimmt e hoch jeden Punktwert und teilt "
     "durch die Summe der Zeile. So liegt jedes Gewicht zwischen 0 und 1, jede Zeile ergibt 1, ein "
     "größerer Punktwert bekommt einen größeren Anteil, und −∞ bekommt genau 0."},
    {Text::WalkBlendTitle, "Mischen: Gewichte · V"},
    {Text::WalkBlendBody,
     "Die Ausgabe jedes Tokens ist eine Mischung der Wertzeilen im Verhältnis seiner Gewichte: y_i = Σ_j "
     "a_ij v_j, alle Zeilen auf einmal Y = A V. Das ist ein weiches Nachschlagen im Wörterbuch: Eine "
     "Abfrage nahe an einem Schlüssel bekommt fast genau dessen Wert."},
    {Text::WalkOutputTitle, "Die Ausgabe: Y"},
    {Text::WalkOutputBody,
     "Y hat eine Zeile pro Token, so lang wie eine Wertzeile. Jedes Token trägt jetzt, was es von den "
     "Tokens gesammelt hat, auf die es geachtet hat, und ein Transformer gibt Y an seine nächste Schicht "
     "weiter. Zieh an einem Regler, um jeden Schritt sich ändern zu sehen, und teste dich dann."},
    // the walk's live numbers
    {Text::LiveRow, "Zeile '{1}'"},
    {Text::LiveRowNumber, "Zeile {1}"},
    {Text::LiveMore, "… ({1} weitere)"},
    {Text::LiveNoScaling, "ohne Skalierung"},
    {Text::LiveScoresEach, "{1} bewertet jeden Schlüssel: {2}."},
    {Text::LiveScale, "{1}: Punktwerte {2} → {3} → {4}."},
    {Text::LiveMaskAllHidden,
     "{1}: Jeder Schlüssel ist verborgen, also bekommt diese Zeile keine Gewichte und die Ausgabe null."},
    {Text::LiveNothingHidden, "nichts verborgen"},
    {Text::LiveHidden, "{1} verborgen"},
    {Text::LiveAnd, "und"},
    {Text::LiveAndMore, "und {1} weitere"},
    {Text::LiveMask, "{1}: {2} → {3}."},
    {Text::LiveSoftmaxNone,
     "{1} sieht keinen Schlüssel: Der Softmax hat nichts zu verteilen, jedes Gewicht ist 0."},
    {Text::LiveExpScore, "e^Punktwert"},
    {Text::LiveExpShifted, "e^(Punktwert {1})"},
    {Text::LiveSoftmax, "{1}: {2} = {3}; ÷ ihre Summe {4} → Gewichte {5} (Summe 1)."},
    {Text::LiveBlendNone, "{1} hat keine Gewichte, also ist die Ausgabe überall null."},
    {Text::LiveNoKeyVisible, "kein Schlüssel war sichtbar"},
    // the walk card and the quiz window
    {Text::WalkPrev, "◀ Zurück"},
    {Text::WalkNext, "Weiter ▶"},
    {Text::WalkToQuiz, "Quiz ▶"},
    {Text::WalkLeave, "Beenden (Esc)"},
    {Text::WalkLeaveTip, "Zurück zu Erkunden. ←/→ gehen die Schritte durch."},
    {Text::WalkRowTip, "Welcher Token-Zeile die Zahlen folgen"},
    {Text::QuizBack, "Zurück zu Frage {1} ▶"},
    {Text::QuizTitle, "Teste dich"},
    {Text::QuizProgress, "Frage {1} von {2}  ·  bisher {3} richtig"},
    {Text::QuizShowMe, "Zeig es mir in {1} ▶"},
    {Text::QuizPrevious, "◀ Vorige"},
    {Text::QuizNextQuestion, "Nächste Frage ▶"},
    {Text::QuizClose, "Schließen"},
    {Text::QuizRight, "Richtig!"},
    {Text::QuizNotQuite, "Nicht ganz: Die Antwort ist „{1}“."},
    // the quiz's questions
    {Text::Quiz1Prompt, "Welche zwei Dinge entscheiden, wie stark ein Token auf ein anderes achtet?"},
    {Text::Quiz1A, "Sein Wert und der Wert des anderen Tokens"},
    {Text::Quiz1B, "Seine Abfrage und der Schlüssel des anderen Tokens"},
    {Text::Quiz1C, "Sein Schlüssel und der Wert des anderen Tokens"},
    {Text::Quiz1D, "Wo die beiden Tokens im Satz stehen"},
    {Text::Quiz1Why,
     "Der Punktwert ist q_i · k_j: die Abfrage von Token i gegen den Schlüssel von Token j. Die Werte "
     "werden erst danach mitgenommen; in den Punktwert gehen sie nie ein."},
    {Text::Quiz2Prompt, "Ergänze: scores = Q @ ____"},
    {Text::Quiz2A, "K"},
    {Text::Quiz2B, "V"},
    {Text::Quiz2C, "K.T"},
    {Text::Quiz2D, "Q.T"},
    {Text::Quiz2Why,
     "Q und K sind beide n×d_k, also ist Q @ K.T n×n: Eintrag (i, j) ist q_i · k_j, ein Punktwert für "
     "jedes Paar aus Abfrage und Schlüssel. Die Werte V gehören nicht zu den Punktwerten."},
    {Text::Quiz3Prompt, "Ordne die Rollen zu: Welche Zeile stimmt?"},
    {Text::Quiz3A, "Abfrage: Was habe ich? · Schlüssel: Was suche ich? · Wert: Was gebe ich?"},
    {Text::Quiz3B, "Abfrage: Was suche ich? · Schlüssel: Was habe ich? · Wert: Was gebe ich?"},
    {Text::Quiz3C, "Abfrage: Was suche ich? · Schlüssel: Was gebe ich? · Wert: Was habe ich?"},
    {Text::Quiz3Why,
     "Die Abfrage fragt; der Schlüssel ist das Etikett auf dem Buchrücken, mit dem Abfragen verglichen "
     "werden; der Wert ist der Inhalt des Buchs, übergeben im Verhältnis zur Übereinstimmung."},
    {Text::Quiz4Prompt, "Was sind W_q, W_k und W_v?"},
    {Text::Quiz4A, "Die Attention-Gewichte, eines pro Token-Paar"},
    {Text::Quiz4B, "Masken, die zukünftige Tokens verbergen"},
    {Text::Quiz4C, "Immer die Einheitsmatrix"},
    {Text::Quiz4D, "Gelernte Abbildungen, die Q, K und V aus demselben X machen"},
    {Text::Quiz4Why,
     "Q = X W_q, K = X W_k, V = X W_v: drei lineare Abbildungen, im Training gelernt, also kann sich das, "
     "was ein Token sucht, von dem unterscheiden, was es anbietet. learned-5x8 zeigt die Startgewichte von "
     "PyTorch."},
    {Text::Quiz5Prompt, "Was ergibt nach dem Softmax jede Zeile der Gewichte in Summe?"},
    {Text::Quiz5A, "1"},
    {Text::Quiz5B, "0"},
    {Text::Quiz5C, "n, die Anzahl der Tokens"},
    {Text::Quiz5D, "Das hängt von den Punktwerten ab"},
    {Text::Quiz5Why,
     "Der Softmax teilt jedes e^Punktwert durch die Summe der Zeile, also liegt jedes Gewicht zwischen 0 "
     "und 1, und jede Zeile ergibt genau 1: Die erste Zeile von practice-qkv ist 0.155 + 0.422 + 0.422."},
    {Text::Quiz6Prompt, "Warum werden die Punktwerte durch √d_k geteilt?"},
    {Text::Quiz6A, "Skalarprodukte wachsen mit d_k; das Teilen verhindert, dass der Softmax sättigt"},
    {Text::Quiz6B, "Damit jede Zeile der Gewichte 1 ergibt"},
    {Text::Quiz6C, "Um die zukünftigen Tokens zu verbergen"},
    {Text::Quiz6D, "Um die Punktwerte in ganze Zahlen zu verwandeln"},
    {Text::Quiz6Why,
     "Längere Vektoren ergeben größere Skalarprodukte, und der Softmax großer Punktwerte legt fast das "
     "ganze Gewicht auf einen Schlüssel. Teilen durch √d_k hält die Streuung der Punktwerte für jedes d_k "
     "ähnlich. (Dass die Zeilen 1 ergeben, liegt am Softmax, mit oder ohne Skalierung.) learned-5x8 teilt "
     "durch √8 ≈ 2.83."},
    {Text::Quiz7Prompt, "Mit einer kausalen Maske über 5 Tokens: Auf welche Tokens achtet Token 2?"},
    {Text::Quiz7A, "Nur auf Token 2"},
    {Text::Quiz7B, "Auf alle fünf Tokens"},
    {Text::Quiz7C, "Auf die Tokens 0, 1 und 2"},
    {Text::Quiz7D, "Auf die Tokens 3 und 4"},
    {Text::Quiz7Why,
     "Die kausale Maske ist eine untere Dreiecksmatrix: Zeile i darf die Spalten 0..i sehen, nie die "
     "Zukunft. Die Gewichte von Zeile 2 sind in den Spalten 3 und 4 genau 0, und die ersten drei ergeben "
     "zusammen 1."},
    {Text::Quiz8Prompt,
     "Die Abfrage [1, 0] trifft auf die Schlüssel [10, 0] und [0, 10] mit den Werten [1, 2] und [3, 4] "
     "(ohne Skalierung). Was kommt heraus?"},
    {Text::Quiz8A, "Genau [1, 2]: Der andere Wert wird ignoriert"},
    {Text::Quiz8B, "[2, 3], der Mittelwert der Werte"},
    {Text::Quiz8C, "[3, 4]"},
    {Text::Quiz8D, "Fast genau [1, 2]"},
    {Text::Quiz8Why,
     "Die Punktwerte sind 10 und 0, also sind die Gewichte 0.999955 und 0.000045, und die Ausgabe "
     "[1.000091, 2.000091] ist fast der erste Wert. Attention ist ein weiches Wörterbuch: Anders als ein "
     "echtes trifft es nie nach dem Alles-oder-nichts-Prinzip."},
    // "Check yourself" lines
    {Text::CheckLabel, "Teste dich:"},
    {Text::CheckPrompt, "(zeigen: Antwort · klicken: Quiz)"},
    {Text::CheckTip, "{1}\n\n{2}\n\nKlick: das Quiz, bei Frage {3}."},
    {Text::CheckScoresQ, "Welche zwei Dinge entscheiden, wie stark ein Token auf ein anderes achtet?"},
    {Text::CheckScoresA,
     "Die Abfrage des einen Tokens und der Schlüssel des anderen: score(i, j) = q_i · k_j.\n"
     "Die Werte spielen für die Punktwerte keine Rolle."},
    {Text::CheckWeightsQ, "Ergänze: scores = Q @ ____"},
    {Text::CheckWeightsA, "K.T (Kᵀ): jede Abfrage mal jeden Schlüssel, alle Paare auf einmal."},
    {Text::CheckMaskQ, "Kausal an: Welche Tokens sieht Token 2?"},
    {Text::CheckMaskA,
     "Die Tokens 0, 1 und 2. Die Tokens 3 und 4 liegen in seiner Zukunft: Ihre Punktwerte werden −∞,\n"
     "also gibt der Softmax ihnen genau 0, und die ersten drei Gewichte ergeben zusammen 1."},
    {Text::CheckOutputQ, "Warum liefert eine Abfrage nahe an einem Schlüssel fast dessen Wert?"},
    {Text::CheckOutputA,
     "Ihre Gewichtszeile ist fast one-hot: y_i = Σ_j a_ij v_j ≈ v_j des passenden Schlüssels.\n"
     "Attention ist ein weiches Nachschlagen im Wörterbuch (siehe das Beispiel soft-dictionary)."},
    // derivation tooltips
    {Text::TipHead, "Kopf {1}:"},
    {Text::TipScoreAsks, "sucht \"{1}\", was \"{2}\" hat?"},
    {Text::TipRope, "RoPE: q_{1} gedreht für Position {2}, k_{3} für Position {4}"},
    {Text::TipMoreComponents, "… {1} weitere Komponenten"},
    {Text::TipScoreMasked, "Maskiert: Der Softmax sieht hier −∞, egal wie der Punktwert ist."},
    {Text::TipSoftmaxSees, "Der Softmax sieht ihn {1} → {2}."},
    {Text::TipNoScaling, "÷ 1 (ohne Skalierung)"},
    {Text::TipWeightWhat, "wie stark \"{1}\" (Abfrage {2}) auf \"{3}\" (Schlüssel {4}) achtet"},
    {Text::TipWeightMasked, "Maskiert: M[i][j] = −∞, also exp(−∞) = 0 und a[i][j] = 0."},
    {Text::TipKeyHidden, "Schlüssel {1} ist vor Abfrage {2} verborgen."},
    {Text::TipRowRuns, "max und Σ laufen über die sichtbaren Schlüssel von Zeile {1}; die Zeile ergibt 1."},
    {Text::TipEntropy,
     "Zeile {1}: Entropie H = {2} Bit ({3} bei gleichmäßiger Verteilung auf ihre {4} sichtbaren "
     "Schlüssel); größtes Gewicht: Schlüssel {5}"},
    // the modes' panels
    {Text::RopeTurned, "q, k nach Position gedreht"},
    {Text::RopeBase, "Basis"},
    {Text::RopeBaseFormat, "Basis = %.0f"},
    {Text::RopeBaseTip, "Paar c dreht sich um p · Basis^(−2c/d): Eine kleine Basis dreht jedes Paar schnell"},
    {Text::RopePairs, "Paare"},
    {Text::RopeInterleaved, "verschränkt"},
    {Text::RopeInterleavedTip, "Paare (2c, 2c+1), wie im RoFormer-Paper"},
    {Text::RopeHalf, "Hälften"},
    {Text::RopeHalfTip, "Paare (c, c + d/2), wie in GPT-NeoX und in Llama von Hugging Face"},
    {Text::RopeOffset, "Versatz"},
    {Text::RopeOffsetFormat, "Positionen + %d"},
    {Text::RopeOffsetTip,
     "Token i steht an Position Versatz + i. Verschieb ihn: Die gedrehten q und k ändern sich, die "
     "Punktwerte\nnicht; nur der Abstand i − j zählt."},
    {Text::RopePlotTitle,
     "q·k von Abfrage \"{1}\" und Schlüssel \"{2}\" nach Abstand j − i (zeige auf eine Zelle, um ein "
     "anderes Paar zu wählen)"},
    {Text::KeySpaceTitle, "Schlüsselraum"},
    {Text::KeySpaceHint,
     "Schlüssel sind Punkte, Abfragen Pfeile von 0 aus: q·k ist groß, wenn der Pfeil auf den Schlüssel "
     "zeigt. Klicke auf eine Abfrage, um ihr zu folgen; zieh an ihrer Spitze oder an einem Schlüssel."},
    {Text::ValueSpaceTitle, "Werteraum"},
    {Text::ValueSpaceHint,
     "y_i = Σ_j a_ij·v_j: Die Ausgabe (Ring) liegt zwischen den Werten, hingezogen zu dem Wert, dessen "
     "Schlüssel die Abfrage gefunden hat."},
    {Text::PlaneExact, "{1} = 2: Die Ebene ist ihr eigener Raum (exakt)."},
    {Text::PlaneLine, "{1} = 1: Jeder Vektor liegt auf der x-Achse."},
    {Text::PlanePca,
     "{1} = {2}: gezeichnet in der Ebene durch 0, die am meisten von {3} erhält (PCA), {4} % ihrer "
     "quadrierten Länge."},
    {Text::PlaneOfKeys, "den Abfragen und Schlüsseln"},
    {Text::PlaneOfValues, "den Werten"},
    {Text::KeySpaceHeads,
     "{1} Köpfe: gezeichnet für die Spalten von q und k des gewählten Kopfs; bearbeite sie unter Tokens "
     "und Vektoren."},
    {Text::KeySpaceRope,
     "RoPE an: gezeichnet nach der Drehung je Position (was die Punktwerte verwenden); bearbeite q, k "
     "unter Tokens und Vektoren."},
    {Text::KeySpaceLearned,
     "Gelernte Szene: q = x·W_q, k = x·W_k, v = x·W_v, also bewegen sich diese Punkte, wenn du x_i oder "
     "eine W unter Tokens und Vektoren ziehst. Um sie hier zu ziehen:"},
    {Text::EditDirectly, "Q, K, V direkt bearbeiten"},
    {Text::QueryPointTip, "klicken, um ihr zu folgen, ziehen, um sie zu verschieben"},
    {Text::QueryPointTipFixed, "klicken, um ihr zu folgen"},
    {Text::KeyPointTip, "Gewicht {1}"},
    {Text::DragToMove, "(ziehen zum Verschieben)"},
    {Text::Masked, "maskiert"},
    {Text::QueryAttends, "q{1} achtet auf:"},
    {Text::AttendsTo, "{1} auf k{2}"},
    {Text::ValuePointTip, "was Token {1} gibt, wenn es gefunden wird"},
    {Text::StepStart, "|◀ Anfang"},
    {Text::Play, "Abspielen"},
    {Text::Pause, "Pause"},
    {Text::FlashTitle, "FlashAttention: der Online-Softmax"},
    {Text::FlashHint,
     "Derselbe Softmax, eine B×B-Kachel Punktwerte nach der anderen. Jede Abfragezeile führt ein "
     "laufendes Maximum m, eine laufende Summe ℓ von exp(s − m) und eine unnormierte Ausgabe O. Enthält "
     "eine Kachel einen größeren Punktwert, werden ℓ und O mit α = exp(m_old − m_new) umskaliert; am "
     "Ende ist y = O / ℓ."},
    {Text::BlockSize, "Blockgröße"},
    {Text::BlockFormat, "B = %d Tokens"},
    {Text::StepOf, "Schritt {1} von {2}"},
    {Text::FlashBefore, "Vor der ersten Kachel: Jede Zeile hat m = −∞, ℓ = 0 und O = 0. Drücke Weiter."},
    {Text::FlashTile, "Kachel ({1}, {2}): Abfragen {3} × Schlüssel {4}"},
    {Text::FlashSkipped, "Übersprungen: Die Maske verbirgt jede Zelle, nichts wird berechnet."},
    {Text::FlashGrewOne,
     "Das Maximum wuchs in 1 Zeile: Ihr ℓ und O wurden mit α = exp(m_old − m_new) = {1} multipliziert."},
    {Text::FlashGrewMany,
     "Das Maximum wuchs in {1} Zeilen: Ihre ℓ und O wurden mit α = exp(m_old − m_new) multipliziert, bis "
     "hinab zu {2}."},
    {Text::FlashNoGrowth,
     "Kein Zeilenmaximum wuchs: Die exp(s − m) der Kachel wurden unverändert zu ℓ und O addiert."},
    {Text::FlashSame, "Gleich wie der Softmax: max |Δ| = {1} zwischen O / ℓ und softmax(QKᵀ/s + M) V."},
    {Text::FlashMemory,
     "Speicher: gleichzeitig gehaltene Punktwerte: eine Kachel, B×B = {1} Zahlen. Die volle n×n-Matrix "
     "({2}×{2} = {3}) wird nie gespeichert. Pro Zeile hält es m und ℓ (2n = {4}) und O (n×d_v = {5})."},
    {Text::FlashTiles, "Kacheln bisher: {1} berechnet, {2} übersprungen ({3} übrig)."},
    {Text::FlashRowsTitle, "Laufender Zustand je Abfragezeile"},
    {Text::FlashRowsHint,
     "m: der größte skalierte Punktwert (q·k ÷ die Skalierung) bisher (Balken ab 0). ℓ: Σ exp(s − m) "
     "über die bisher gesehenen Schlüssel (Balken bis n). α: die Umskalierung dieses Schritts. O / ℓ: "
     "die Ausgabe, wenn die Schlüssel hier endeten, neben der des Softmax."},
    {Text::FlashColMax, "m (Maximum)"},
    {Text::FlashColSum, "ℓ (Summe)"},
    {Text::FlashColNow, "O / ℓ jetzt"},
    {Text::DecodeTitle, "Dekodieren mit KV-Cache"},
    {Text::DecodeHint,
     "Ein Decoder erzeugt ein Token nach dem anderen. Schritt t hängt k_t und v_t an den Cache an und "
     "lässt die neue Abfrage q_t auf die t+1 gespeicherten Schlüssel achten; nichts aus einem früheren "
     "Schritt wird neu berechnet."},
    {Text::DecodeStep, "Schritt t = {1} von {2}: \"{3}\""},
    {Text::DecodeHoldsOne,
     "Der Cache hält 1 Schlüssel und 1 Wert. q_{1} wird mit jedem gespeicherten Schlüssel bewertet, der "
     "Softmax liefert die Gewichte, und y_{1} mischt die gespeicherten Werte."},
    {Text::DecodeHolds,
     "Der Cache hält {2} Schlüssel und Werte. q_{1} wird mit jedem gespeicherten Schlüssel bewertet, der "
     "Softmax liefert die Gewichte, und y_{1} mischt die gespeicherten Werte."},
    {Text::DecodeCausal,
     "Dekodieren ist kausal: Token t sieht die Tokens 0…t (der Durchlauf im Bildschirm Erkunden ist "
     "nicht kausal)."},
    {Text::DecodeMults, "Multiplikationen bisher"},
    {Text::WithCache, "mit Cache"},
    {Text::WithoutCache, "ohne Cache"},
    {Text::DecodeWithout,
     "Ohne Cache wiederholt jeder Schritt den Durchlauf über das ganze Präfix (Projektionen jedes "
     "Tokens, das volle (t+1)×(t+1)-QKᵀ und A V). Über alle {1} Schritte: {2} mit Cache, {3} ohne."},
    {Text::DecodeCacheTitle, "Der Cache in Schritt t"},
    {Text::DecodeCacheHint,
     "Zeilen 0…t von K und V, die neueste hervorgehoben. Die Balken sind die Gewichte von q_t über den "
     "Cache; y_t ist ihre Mischung der Werte, dieselben Zahlen wie Zeile t des vollen kausalen "
     "Durchlaufs."},
    {Text::DecodeKCache, "K-Cache (Schlüssel k_j)"},
    {Text::DecodeWeights, "Gewichte a_tj"},
    {Text::DecodeVCache, "V-Cache (Werte v_j)"},
    {Text::HeadsAverageLine, "Mittel der {1} Köpfe:"},
    {Text::HeadsAverageNote,
     "MultiheadAttention von PyTorch gibt dieses Mittel als seine Attention-Gewichte zurück."},
    {Text::HeadsWeightsTitle, "Gewichte von {1} Köpfen  A_t = softmax(Q_t K_tᵀ / s + M)"},
    {Text::HeadsWeightsHint,
     "Ein Raster pro Kopf (jeder mit eigenen Spalten von Q und K), dann ihr Mittel. Klicke auf einen "
     "Kopf, um ihn zu wählen: Punktwerte, Maske und die Tooltips beschreiben dann diesen Kopf."},
    {Text::HeadsAverage, "Mittel"},
    {Text::HeadLabel, "Kopf {1}"},
    {Text::HeadFocusTip, "Kopf {1} wählen: Punktwerte, Maske und Tooltips beschreiben ihn"},
    {Text::HeadsOutputTitle, "Ausgabe  concat(Y_0 … Y_h−1)"},
    {Text::HeadsOutputTitleWo, "Ausgabe  concat(Y_0 … Y_h−1) · W_o"},
    {Text::HeadsOutputHint,
     "Jeder Kopf mischt seine eigenen Wertspalten: Y_t = A_t V_t. Die Ausgaben der Köpfe nebeneinander "
     "sind das concat; W_o (zieh an seinen Zellen) mischt sie zur Ausgabe."},
    {Text::RemoveWo, "W_o entfernen"},
    {Text::AddWo, "W_o hinzufügen"},
    {Text::NoWo, "Kein W_o: Die Ausgabe ist das concat."},
    {Text::RowLabel, "Zeile {1}"},
    {Text::DragOrType, "(ziehen, oder Strg+Klick zum Eintippen)"},
    {Text::HeadsFitTip, "{1} Köpfe mit je d_k/h = {2}, d_v/h = {3} Spalten"},
    {Text::HeadsNoFitTip, "{1} Köpfe teilen d_k = {2} und d_v = {3} nicht"},
    {Text::TrainPrevious,
     "Jede Position muss das Token direkt davor nennen. Das Modell schafft das nur, wenn es dorthin "
     "schaut: Sieh zu, wie sich in den Gewichten eine Nebendiagonale bildet."},
    {Text::TrainSame,
     "Die Tokens 5–8 wiederholen die Tokens 1–4 in anderer Reihenfolge; jede Wiederholung muss die "
     "Position (#0–#3) nennen, an der ihr Symbol zuerst vorkam. Sieh zu, auf welche früheren Schlüssel "
     "jede Wiederholung zu schauen lernt, um sie zu finden."},
    {Text::TrainFirst,
     "Jede Position muss das erste Token der Folge nennen: Jede Zeile lernt, ihr Gewicht auf Token 0 zu "
     "legen (eine Attention-Senke)."},
    {Text::TrainTitle, "Trainieren: Sieh Attention beim Lernen zu"},
    {Text::TrainHint,
     "Eine kausale Attention-Schicht (W_q, W_k, W_v 16×8, W_o 8×8) lernt aus Stapeln von 16 zufälligen "
     "Folgen. Das Gewichtsraster ist das Modell auf einer Stichprobe: Drücke Abspielen und sieh zu, wie "
     "das Muster entsteht."},
    {Text::TrainTask, "Aufgabe"},
    {Text::TrainPlay, "Abspielen ▶"},
    {Text::TrainStep, "Schritt +1"},
    {Text::TrainStepTip, "Ein Optimierungsschritt auf einem frischen Stapel von 16 Folgen"},
    {Text::TrainResetTip, "Neu beginnen mit den Zufallsgewichten des Seeds"},
    {Text::TrainLearningRate, "Lernrate"},
    {Text::TrainSeed, "Seed"},
    {Text::TrainPace, "Tempo"},
    {Text::TrainPaceFormat, "%.0f Schritte / s"},
    {Text::TrainStepN, "Schritt {1}"},
    {Text::TrainLoss, "Verlust {1}"},
    {Text::TrainAccuracy, "Genauigkeit {1}"},
    {Text::TrainStatusTip,
     "Verlust: Kreuzentropie des letzten Stapels\nGenauigkeit: auf 64 frischen Folgen (nie trainiert), "
     "gemessen in Schritt {1}"},
    {Text::TrainWork, "Training brauchte {1} ms dieses Frames"},
    {Text::TrainPaused,
     "Pausiert: Das Modell ist eine gewöhnliche Szene — untersuche es in Erkunden oder Köpfe, zieh "
     "daran, teile es."},
    {Text::TrainCurveTitle, "Verlust und Genauigkeit"},
    {Text::TrainCurveLoss, "  — Verlust (log. Skala)"},
    {Text::TrainCurveAccuracy, "  — Genauigkeit (0 – 100 %)"},
    {Text::TrainCurveStep, "Schritt {1}"},
    {Text::TrainPredictionsTitle, "Vorhersagen für die Beispielfolge"},
    {Text::TrainPredictionsHint,
     "Jede Ausgabezeile wird als Punktwerte über 8 Antworten gelesen; die größte ist, was das Modell "
     "nennt."},
    {Text::TrainRowToken, "Token"},
    {Text::TrainRowMustName, "muss nennen"},
    {Text::TrainRowModelSays, "Modell sagt"},
    {Text::TrainRight, "{1} von {2} bewerteten Positionen richtig"},
    {Text::TrainPositionNote, "(#k = Position k)"},
    {Text::EntropyToggle, "H Entropie"},
    {Text::LargestToggle, "□ größtes"},
    {Text::RawTabTip, "Rohe Punktwerte Q Kᵀ, jedes Paar (auch maskierte)"},
    {Text::ScaledTabTip, "Was der Softmax sieht: die skalierten Punktwerte + M (−∞, wo maskiert)"},
    {Text::EntropyTip,
     "Die Entropie H jeder Zeile in Bit: 0 = alles Gewicht auf einem Schlüssel,\nlog₂ k = gleichmäßig "
     "verteilt auf ihre k sichtbaren Schlüssel"},
    {Text::LargestTip, "Umrandet das größte Gewicht jeder Zeile (bei Gleichstand das erste)"},
    {Text::HeadScoresTitle, "Punktwerte  Q_{1} K_{1}ᵀ  (Kopf {1})"},
    {Text::ZoomFit, "{1}× · einpassen"},
    {Text::ZoomWheel, "Zoom: Mausrad"},
    {Text::ZoomTip,
     "Zoom: das Mausrad (oder Zusammenziehen) über einem Raster, um den Zeiger; ziehen zum "
     "Verschieben;\nDoppelklick auf ein Raster oder Klick hier zeigt es ganz. Punktwerte und Gewichte "
     "zoomen gemeinsam."},
    {Text::LogToggle, "log"},
    {Text::LogTip, "Färben nach log₁₀ des Gewichts (10⁻⁶ … 1): kleine Gewichte zeigen ihre Struktur"},
    {Text::MaskCellTip, "M[{1}][{2}]: Darf \"{3}\" (Abfrage {1}) auf \"{4}\" (Schlüssel {2}) schauen?"},
    {Text::MaskCausalNo, "Nein: Schlüssel {1} kommt nach Abfrage {2}, und die kausale Maske ist an."},
    {Text::MaskYes, "Ja. Klicke, um sie zu verbergen (ihr Gewicht wird 0, und die Zeile wird neu normiert)."},
    {Text::MaskCustomNo, "Nein: durch die eigene Maske verborgen. Klicke, um sie wieder zu erlauben."},
    {Text::MaskCausalNotice,
     "Diese Zelle verbirgt die kausale Maske: Schalte sie aus, um die Zelle zu bearbeiten."},
    {Text::OutputNoKeyTip, "Jeder Schlüssel ist vor dieser Abfrage verborgen: Die Ausgabezeile ist 0."},
    {Text::OutputNoKey, "kein sichtbarer Schlüssel"},
    {Text::OutputMaskedRow,
     "Eine Zeile, deren Schlüssel alle maskiert sind, hat keine Gewichte: Ihre Ausgabe ist 0."},
    {Text::VectorTip, "(nach oben/unten ziehen; Doppelklick oder Strg+Klick zum Eintippen)"},
    {Text::VectorTerms, "({1} Terme)"},
    {Text::WCellTip,
     "Merkmal {1} von x speist Spalte {2} jedes {3}.\nNach oben/unten ziehen; Doppelklick oder "
     "Strg+Klick zum Eintippen."},
    {Text::MakeDirectTip,
     "Ersetzt X und die W durch die aktuellen Q = X·W_q, K = X·W_k, V = X·W_v (jede Zahl bleibt)."},
    {Text::LearnedNote,
     "Gelernt: q = x·W_q, k = x·W_k, v = x·W_v. Zieh an x oder an einer Zelle einer W (unter den "
     "Tokens)."},
    {Text::MakeLearned, "Gelernt machen"},
    {Text::MakeLearnedTip,
     "Schreibt jedes Token als ein Embedding x_i = [q_i | k_i | v_i] (d_model = 2·d_k + d_v = {1})\nund "
     "W_q, W_k, W_v als Matrizen, die seine Teile auswählen: Jede Zahl bleibt gleich."},
    {Text::MakeLearnedTooBig,
     "d_model = 2·d_k + d_v = {1} liegt über der Grenze {2}: Verkleinere zuerst d_k oder d_v."},
    {Text::ZoomedToken, "Token {1} · {2}: jede Zahl"},
    {Text::Close, "schließen"},
    {Text::RenameTip, "Token {1}: klicken zum Umbenennen"},
    {Text::Numbers, "Zahlen"},
    {Text::NumbersTip, "q, k, v von Token {1} mit allen Zahlen zeigen"},
    {Text::LabelNotApplied, "Bezeichnung nicht übernommen: {1}"},
    {Text::GenerateTip,
     "Eine Szene mit bis zu 1024 Tokens, deren Gewichte ein Muster zeigen (lokal, vorheriges Token, …)"},
    {Text::GenerateTitle, "Eine Szene erzeugen"},
    {Text::GenerateNote, "Q und K werden so gebaut, dass das Muster in den Gewichten erscheint."},
    {Text::GeneratePattern, "Muster"},
    {Text::GenerateTokens, "Tokens n"},
    {Text::GenerateSeed, "Seed"},
    {Text::GenerateLink, "Link: #gen={1}"},
    {Text::GenerateGo, "Erzeugen"},
    {Text::DkTip, "d_k: Länge jeder Abfrage und jedes Schlüssels"},
    {Text::DvTip, "d_v: Länge jedes Werts (und jeder Ausgabezeile)"},
    {Text::DmodelTip,
     "d_model: Länge jedes Embeddings x_i (die Zeilen von W_q, W_k, W_v); neue W-Zeilen beginnen bei 0"},
    {Text::HeadsScaleHint, "der Softmax jedes Kopfs sieht Q_t K_tᵀ / √(d_k/h), √{1} = {2}"},
};

}  // namespace

const LanguageTable& german_table() {
  static const LanguageTable table{"de", kGerman, sizeof(kGerman) / sizeof(kGerman[0])};
  return table;
}

}  // namespace ui
