// i18n.hpp — the screen's words in English, Spanish and German: one table per language
// (i18n_en.cpp + i18n_en_full.cpp, i18n_es.cpp, i18n_de.cpp), looked up by key. Formulas and symbols
// (Q, K, V, Y = A V, √d_k, −∞, Σ) stay as they are in every language; tests/i18n_test.cpp checks that
// every key has a text in every table and that the symbols match English's.
//
// The keys come in two parts. Those before Text::FullBuildTexts are the first load's: the words of
// Explore, Walk, the shared panels and every mode's tab. Those from it on are used only by the modes
// of the build with every mode (AL_ALL_MODES; the web loads that build on first use): the web's
// first load compiles in no English text of them, and its language files are two per language,
// lang/CODE.json (the first part) and lang/CODE-full.json (the rest, fetched with the build with
// every mode). So a mode of that build costs the first load its tab's name only: put its keys after
// the marker (tests/first_load_texts_test.py fails on a first-load file naming a key past it).
//
// The current language is part of the drawing style, like the theme's palette: set_language() sets
// it between frames (ui/frame/frame.cpp, from the link's lang=, the View menu, --lang, or the browser's
// language), tr() reads it. Plain C++ (no ImGui), so the tables are unit-tested.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

namespace ui {

enum class Text : int {
  // top bar and mode bar
  Subtitle,
  Dismiss,
  ModeExplore,
  ModeWalk,
  ModeHeads,
  ModeKeySpace,
  ModeFlash,
  ModeDecode,
  ModeTrain,
  CheckYourself,
  CheckYourselfTip,
  // the View menu
  View,
  ViewTip,
  ThemeHeading,
  ThemeDark,
  ThemeLight,
  ThemeContrast,
  ZoomHeading,
  ZoomResetTip,
  LanguageHeading,
  // Controls
  ControlsTitle,
  ControlsHint,
  Example,
  Edited,
  TokensN,
  TokensValue,  // "%d tokens" (a format: keep the %d)
  Heads,
  Scale,
  ScaleNone,
  CausalMask,
  CausalHint,
  Reset,
  ResetTip,
  ClearMask,
  ShareHint,
  Gallery,
  CopyLink,
  ExportJson,
  ImportJson,
  ExportPng,
  ExportMenu,
  Generate,
  // panels
  VectorsTitle,
  VectorsHint,
  MaskTitle,
  MaskHint,
  OutputTitle,
  OutputHint,
  // the Scores and Weights grids (ui/text/grid_captions.cpp); {1}, {2} are filled in (fill())
  ScoresTitle,
  ScoresHint,
  ScoresHatched,
  HiddenLaterByM,
  WeightsTitle,  // {1}: the scaled term, e.g. "QKᵀ / √d_k"
  WeightsHint,   // {1}: the scaled term, {2}: the divisor ("√d_k = √2 = 1.414") or NoScaling
  NoScaling,
  WeightsMaskedRow,
  // the Scaled grid (ui/text/grid_captions.cpp)
  ScaledTitle,  // {1}: the scaled term, e.g. "QKᵀ / √d_k"
  MaskedTitle,  // {1}: "QKᵀ" (no scaling)
  ScaledHint,   // {1}: the divisor, e.g. "√d_k = √2 = 1.414"
  UnscaledHint,
  ScaledHintMasked,
  ScaledHintNothingMasked,
  CellMaskedInf,
  CellMaskedZero,
  // the formula strip's captions (panels/formula_strip.cpp)
  TermOutput,
  TermWeights,
  TermScores,
  TermQueries,
  TermKeys,
  TermValues,
  TermTokens,
  TermMask,
  TermNone,
  // the scale mode's texts (ui/text/scale_texts.hpp): formula help, Controls hint, walk step
  ScaleNoneHelp,
  ScaleNoneControls,
  ScaleNoneTitle,
  ScaleNoneBody,
  ScaleSqrtHelp,
  ScaleSqrtControls,
  ScaleSqrtTitle,
  ScaleSqrtBody,
  ScaleTempHelp,
  ScaleTempControls,
  ScaleTempTitle,
  ScaleTempBody,
  // the walk-through's steps (ui/modes/walk/walk_steps.cpp)
  WalkInputsTitle,
  WalkInputsBody,
  WalkRolesTitle,
  WalkRolesBody,
  WalkRolesLearned,
  WalkRolesDirect,
  WalkScoresTitle,
  WalkScoresBody,
  WalkNoMaskTitle,
  WalkNoMaskBody,
  WalkMaskTitle,
  WalkMaskBody,
  WalkMaskCausal,
  WalkMaskCustom,
  WalkSoftmaxTitle,
  WalkSoftmaxBody,
  WalkBlendTitle,
  WalkBlendBody,
  WalkOutputTitle,
  WalkOutputBody,
  // the walk's live numbers for one row; {1} is the row's name (LiveRow / LiveRowNumber)
  LiveRow,        // {1}: the token's label
  LiveRowNumber,  // {1}: the row's index (the token has no label)
  LiveMore,       // {1}: how many more entries
  LiveNoScaling,
  LiveScoresEach,     // {1} row, {2} "'the' 0, 'cat' 1, …"
  LiveScale,          // {1} row, {2} scores, {3} the division, {4} scaled scores
  LiveMaskAllHidden,  // {1} row
  LiveNothingHidden,
  LiveHidden,  // {1}: the hidden keys' list
  LiveAnd,
  LiveAndMore,      // {1}: how many more hidden keys
  LiveMask,         // {1} row, {2} what is hidden, {3} the scores + M
  LiveSoftmaxNone,  // {1} row
  LiveExpScore,
  LiveExpShifted,  // {1}: "− 1" (the shift by the row's largest score)
  LiveSoftmax,     // {1} row, {2} e^…, {3} values, {4} their sum, {5} weights
  LiveBlendNone,   // {1} row
  LiveNoKeyVisible,
  // the walk card and the quiz window (ui/modes/walk/walk_mode.cpp)
  WalkPrev,
  WalkNext,
  WalkToQuiz,
  WalkLeave,
  WalkLeaveTip,
  WalkRowTip,
  QuizBack,  // {1}: the question's number
  QuizTitle,
  QuizProgress,  // {1} question, {2} of how many, {3} right so far
  QuizShowMe,    // {1}: the example's name
  QuizPrevious,
  QuizNextQuestion,
  QuizClose,
  QuizRight,
  QuizNotQuite,  // {1}: the right answer
  // the quiz's questions (ui/modes/walk/quiz.cpp): a prompt, its choices in order, the explanation
  Quiz1Prompt,
  Quiz1A,
  Quiz1B,
  Quiz1C,
  Quiz1D,
  Quiz1Why,
  Quiz2Prompt,
  Quiz2A,
  Quiz2B,
  Quiz2C,
  Quiz2D,
  Quiz2Why,
  Quiz3Prompt,
  Quiz3A,
  Quiz3B,
  Quiz3C,
  Quiz3Why,
  Quiz4Prompt,
  Quiz4A,
  Quiz4B,
  Quiz4C,
  Quiz4D,
  Quiz4Why,
  Quiz5Prompt,
  Quiz5A,
  Quiz5B,
  Quiz5C,
  Quiz5D,
  Quiz5Why,
  Quiz6Prompt,
  Quiz6A,
  Quiz6B,
  Quiz6C,
  Quiz6D,
  Quiz6Why,
  Quiz7Prompt,
  Quiz7A,
  Quiz7B,
  Quiz7C,
  Quiz7D,
  Quiz7Why,
  Quiz8Prompt,
  Quiz8A,
  Quiz8B,
  Quiz8C,
  Quiz8D,
  Quiz8Why,
  // the panels' "Check yourself" lines (panels/panel_parts.hpp)
  CheckLabel,
  CheckPrompt,
  CheckTip,  // {1} question, {2} answer, {3} the quiz question's number
  CheckScoresQ,
  CheckScoresA,
  CheckWeightsQ,
  CheckWeightsA,
  CheckMaskQ,
  CheckMaskA,
  CheckOutputQ,
  CheckOutputA,
  // the heatmap cells' derivation tooltips (panels/tooltips.cpp)
  TipHead,            // {1}: the head's number
  TipScoreAsks,       // {1} query token, {2} key token
  TipRope,            // {1} i, {2} position of i, {3} j, {4} position of j
  TipMoreComponents,  // {1}: how many
  TipScoreMasked,
  TipSoftmaxSees,  // {1} the division, {2} the scaled score
  TipNoScaling,
  TipWeightWhat,  // {1} query token, {2} i, {3} key token, {4} j
  TipWeightMasked,
  TipKeyHidden,  // {1} j, {2} i
  TipRowRuns,    // {1} i
  TipEntropy,    // {1} i, {2} H, {3} log2 k, {4} k, {5} the key (number and token)
  // the panels: RoPE, Heads, the step controls, and the Scores/Weights, Mask, Output, Vectors and
  // Controls panels' hints and tooltips
  RopeTurned,
  RopeBase,
  RopeBaseFormat,  // an ImGui format: keep %.0f
  RopeBaseTip,
  RopePairs,
  RopeInterleaved,
  RopeInterleavedTip,
  RopeHalf,
  RopeHalfTip,
  RopeOffset,
  RopeOffsetFormat,  // an ImGui format: keep %d
  RopeOffsetTip,
  RopePlotTitle,  // {1} query token, {2} key token
  EditDirectly,
  StepStart,
  Play,
  Pause,
  HeadsAverageLine,
  HeadsAverageNote,
  HeadsWeightsTitle,
  HeadsWeightsHint,
  HeadsAverage,
  HeadLabel,
  HeadFocusTip,
  HeadsOutputTitle,
  HeadsOutputTitleWo,
  HeadsOutputHint,
  RemoveWo,
  AddWo,
  NoWo,
  RowLabel,
  DragOrType,
  HeadsFitTip,
  HeadsNoFitTip,
  TrainPlay,
  TrainStep,
  TrainCurveStep,
  EntropyToggle,
  LargestToggle,
  RawTabTip,
  ScaledTabTip,
  EntropyTip,
  LargestTip,
  HeadScoresTitle,
  ZoomFit,  // {1}: the zoom, e.g. "3.8"
  ZoomWheel,
  ZoomTip,
  LogToggle,
  LogTip,
  MaskCellTip,
  MaskCausalNo,
  MaskYes,
  MaskCustomNo,
  MaskCausalNotice,
  OutputNoKeyTip,
  OutputNoKey,
  OutputMaskedRow,
  VectorTip,
  VectorTerms,
  WCellTip,
  MakeDirectTip,
  LearnedNote,
  MakeLearned,
  MakeLearnedTip,
  MakeLearnedTooBig,
  ZoomedToken,
  Close,
  RenameTip,
  Numbers,
  NumbersTip,
  LabelNotApplied,
  GenerateTip,
  GenerateTitle,
  GenerateNote,
  GeneratePattern,
  GenerateTokens,
  GenerateSeed,
  GenerateLink,
  GenerateGo,
  DkTip,
  DvTip,
  DmodelTip,
  HeadsScaleHint,
  // the share buttons' tooltips, the Export menu and the demo gallery (ui/frame/sharing.cpp)
  GalleryTip,
  CopyLinkTip,
  ExportJsonTip,
  ImportJsonTip,
  ExportPngTip,
  ExportMenuTip,
  ExportNumpySave,
  ExportNumpyCopy,
  ExportNumpyTip,
  ExportTorchSave,
  ExportTorchCopy,
  ExportTorchTip,
  ExportStage,
  ExportLatexSave,
  ExportLatexCopy,
  ExportLatexTip,
  ExportSvgSave,
  ExportSvgDownload,
  ExportSvgTip,
  GalleryTitle,
  GalleryWebNote,
  GalleryDesktopNote,
  // the attention variants: window and sinks, K/V groups, ALiBi
  WindowLabel,
  WindowNone,
  SinksLabel,
  WindowTip,
  SinksTip,
  MaskKind,
  MaskKindNone,
  MaskKindCausal,
  MaskKindWindow,
  MaskKindSinks,
  MaskKindCustom,
  MaskWindowNo,
  MaskSinkYes,
  MaskWindowNotice,
  KvHeadsLabel,
  KvHeadsTip,
  KvGroupOf,
  AlibiHint,
  AlibiSlopes,
  AlibiTip,
  BiasTitle,
  BiasCellTip,
  TermBias,
  PosTitle,
  PosTrainLength,
  PosTrainTip,
  PosPast,
  PosAlibiHead,
  WalkMaskWindow,
  WalkMaskAlibi,
  PosNoRope,
  // big grids: what a pixel shows when cells are smaller than pixels, the weights' auto range
  PixelMax,  // "pixel = max of {1} cells", {1} e.g. "4×4"
  PixelMean,
  PixelMagnitude,
  PixelTip,
  AutoRangeToggle,
  AutoRangeTip,
  // the Circuits and Model modes' tabs
  ModeCircuits,
  ModeModel,
  // ---- The first load ends here. Every key below is used only by the modes of the build with
  // every mode (AL_ALL_MODES: Heads, Key space, FlashAttention, Decode, Train, Circuits, Model): the first
  // load's English table stops at this marker (i18n_en.cpp; the rest is i18n_en_full.cpp) and each
  // language's file is two, lang/CODE.json and lang/CODE-full.json (language_dump.cpp).
  // tests/first_load_texts_test.py checks that no file of the first load names a key below it.
  FullBuildTexts,
  // the Key space mode (ui/modes/keyspace/)
  KeySpaceTitle = FullBuildTexts,
  KeySpaceHint,
  ValueSpaceTitle,
  ValueSpaceHint,
  PlaneExact,  // {1}: d_k or d_v
  PlaneLine,
  PlanePca,  // {1} d_k or d_v, {2} its value, {3} PlaneOfKeys/PlaneOfValues, {4} percent
  PlaneOfKeys,
  PlaneOfValues,
  KeySpaceHeads,
  KeySpaceRope,
  KeySpaceLearned,
  QueryPointTip,
  QueryPointTipFixed,
  KeyPointTip,
  DragToMove,
  Masked,
  QueryAttends,
  AttendsTo,
  ValuePointTip,
  // the FlashAttention mode (ui/modes/flash/)
  FlashTitle,
  FlashHint,
  BlockSize,
  BlockFormat,  // an ImGui format: keep %d
  StepOf,
  FlashBefore,
  FlashTile,
  FlashSkipped,
  FlashGrewOne,
  FlashGrewMany,
  FlashNoGrowth,
  FlashSame,
  FlashMemory,
  FlashTiles,
  FlashRowsTitle,
  FlashRowsHint,
  FlashColMax,
  FlashColSum,
  FlashColNow,
  // the Decode mode (ui/modes/decode/)
  DecodeTitle,
  DecodeHint,
  DecodeStep,
  DecodeHoldsOne,
  DecodeHolds,  // {1} t, {2} t + 1
  DecodeCausal,
  DecodeMults,
  WithCache,
  WithoutCache,
  DecodeWithout,
  DecodeCacheTitle,
  DecodeCacheHint,
  DecodeKCache,
  DecodeWeights,
  DecodeVCache,
  // … linear attention's recurrent state beside the cache (decode_linear.cpp)
  DecodeLinearTitle,
  DecodeLinearHint,
  DecodeLinearCausal,
  DecodeLinearSize,   // {1} d_k, {2} d_v, {3} d_k·d_v + d_k
  DecodeLinearCache,  // {1} t + 1, {2} d_k + d_v, {3} their product
  DecodeLinearRecurrent,
  DecodeLinearMatrix,
  DecodeLinearDiff,     // {1} max |difference|
  DecodeLinearDiffers,  // {1} max |difference|
  // the Train mode (ui/modes/train/)
  TrainPrevious,
  TrainSame,
  TrainFirst,
  TrainTitle,
  TrainHint,
  TrainTask,
  TrainStepTip,
  TrainResetTip,
  TrainLearningRate,
  TrainSeed,
  TrainPace,
  TrainPaceFormat,  // an ImGui format: keep %.0f
  TrainStepN,
  TrainLoss,
  TrainAccuracy,
  TrainStatusTip,
  TrainWork,
  TrainPaused,
  TrainCurveTitle,
  TrainCurveLoss,
  TrainCurveAccuracy,
  TrainPredictionsTitle,
  TrainPredictionsHint,
  TrainRowToken,
  TrainRowMustName,
  TrainRowModelSays,
  TrainRight,
  TrainPositionNote,
  // the Decode mode's cache policy and KV-cache calculator
  CachePolicy,
  CacheAll,
  CacheLast,
  CacheSinks,
  CachePolicyTip,
  CacheEvicted,
  CacheEvictedNow,
  CacheSize,
  CacheSizeNote,
  CacheKvHead,
  SinkEffect,
  SinkEffectEarly,
  KvCalcTitle,
  KvCalcHint,
  KvCalcPreset,
  KvCalcCustom,
  KvCalcLayers,
  KvCalcContext,
  KvCalcBytes,
  KvCalcPerToken,
  KvCalcPerContext,
  KvCalcMha,
  KvCalcSource,
  // the Circuits mode (ui/modes/circuits/)
  CircuitsTitle,
  CircuitsHint,
  CircuitsTaskInduction,
  CircuitsTaskMixed,
  CircuitsLayers,
  CircuitsModelDim,
  CircuitsStepTip,
  CircuitsResetTip,
  CircuitsInContext,
  CircuitsInContextTip,
  CircuitsFormedAt,
  CircuitsNotFormed,
  CircuitsRebuilding,
  CircuitsCurveTitle,
  CircuitsCurveLoss,
  CircuitsCurveInContext,
  CircuitsCurvePrefix,
  CircuitsCurvePrevious,
  CircuitsPhaseChange,
  CircuitsGridTitle,
  CircuitsGridHint,
  CircuitsText,
  CircuitsTextTip,
  CircuitsHeadScores,
  CircuitsRolePrevious,
  CircuitsRoleInduction,
  CircuitsAblate,
  CircuitsAblateTip,
  CircuitsOpenTip,
  CircuitsPredTitle,
  CircuitsPredHint,
  CircuitsTextLoss,
  CircuitsCompTitle,
  CircuitsCompHint,
  CircuitsCompLink,
  CircuitsCompOneLayer,
  CircuitsBack,
  CircuitsOpened,
  CircuitsExportJson,
  CircuitsExportJsonTip,
  CircuitsExportTorch,
  CircuitsExportTorchTip,
  CircuitsGuide,
  CircuitsGuideTip,
  CircuitsGuide1,
  CircuitsGuide1Text,
  CircuitsGuide2,
  CircuitsGuide2Text,
  CircuitsGuide3,
  CircuitsGuide3Text,
  CircuitsGuide4,
  CircuitsGuide4Text,
  CircuitsGuide5,
  CircuitsGuide5Text,
  // the Model mode (ui/modes/model/)
  ModelTitle,
  ModelHint,
  ModelLoading,
  ModelLoadFailed,
  ModelText,
  ModelTextTip,
  ModelCut,
  ModelTokens,
  ModelTokenTip,
  ModelPredTitle,
  ModelPredHint,
  ModelGenerate,
  ModelGenerateTip,
  ModelStep,
  ModelStepTip,
  ModelStop,
  ModelTemperature,
  ModelTopK,
  ModelTopP,
  ModelSeed,
  ModelSamplingTip,
  ModelGenerated,
  ModelHeadsTitle,
  ModelHeadsHint,
  ModelRolePrevious,
  ModelRoleFirst,
  ModelRoleSelf,
  ModelRoleInduction,
  ModelRoleBroad,
  ModelRoleMixed,
  ModelAblate,
  ModelAblateZero,
  ModelAblateMean,
  ModelAblateTip,
  ModelOpen,
  ModelOpenTip,
  ModelLensTitle,
  ModelLensHint,
  ModelLensLayer,
  ModelBack,
  ModelOpened,
  ModelNow,
  ModelEdited,
  ModelReset,
  ModelResetTip,
  ModelMismatch,
  // cross-attention: the queries and the sources are two sequences (vectors panel, mode tabs)
  CrossQueries,
  CrossSources,
  CrossModeNote,
  // the attention variants of 2024–26 models (ui/panels/modern_variants.cpp)
  VariantsButton,
  VariantsButtonTip,
  VariantsTitle,
  VariantsNote,
  VariantsRefused,
  VariantsSink,
  VariantsSinkTip,
  VariantsSoftcap,
  VariantsSoftcapTip,
  VariantsQkNorm,
  VariantsQkNormTip,
  VariantsTopk,
  VariantsTopkTip,
  VariantsTopkCost,  // {1} kept pairs, {2} allowed pairs, {3} percent, {4} all n·m pairs
  VariantsDifferential,
  VariantsDifferentialTip,
  VariantsLinear,
  VariantsLinearTip,
  VariantsLinearNote,
  VariantsSoftcapCurve,
  VariantsGate,
  VariantsGateTip,
  VariantsGateElementwise,
  VariantsGateHeadwise,
  VariantsGateGrid,
  VariantsGateGridLearned,
  VariantsSinkAll,
  VariantsSinkHeadZ,
  VariantsQkNormCompare,
  WeightsNoneColumn,
  WeightsNoneTip,
  VariantsMla,       // the popup's latent-attention line (a scene with "mla"): its name
  VariantsMlaTip,    // … its paper and year
  VariantsMlaCache,  // … {1} = d_c + d_rope, {2} = 2·h·d_head, {3} = the absorbed form's max |difference|
  VariantsWeightsLinear,
  VariantsWeightsDifferential,
  VariantsWeightsSink,
  VariantsWeightsSoftcap,
  VariantsWeightsTopk,
  VariantsWeightsQkNorm,
  VariantsWeightsGate,
  VariantsWeightsTitleLinear,        // the Weights grid's title for linear attention (no softmax)
  VariantsWeightsTitleDifferential,  // … for differential attention (A₁ − λ A₂)
  // the KV-cache calculator's kinds (ui/modes/decode/kv_calculator.cpp)
  KvCalcKind,
  KvCalcKindHeads,
  KvCalcKindLatent,
  KvCalcKindLinear,
  KvCalcLinearState,
  KvCalcVsMhaLatent,
  KvCalcVsMhaLinear,
  Count
};
inline constexpr int kTextCount = int(Text::Count);
// The first part's keys are 0 … kFirstLoadTextCount − 1; the full build's part the rest.
inline constexpr int kFirstLoadTextCount = int(Text::FullBuildTexts);
// A language file's part: lang/CODE.json, or lang/CODE-full.json ({"part": "full"}).
enum class TextPart { FirstLoad, FullBuild };

struct TextEntry {
  Text key;
  const char* text;  // UTF-8; the font subset holds Latin-1 (á é í ó ú ñ ¿ ¡ ä ö ü ß …)
};

struct LanguageTable {
  std::string_view code;     // "en", "es", "de" (scene::link::kLanguages)
  const TextEntry* entries;  // every key once, in any order
  std::size_t count;
};

// English of the first part (i18n_en.cpp), and of the full build's part (i18n_en_full.cpp: linked by
// the builds with every mode, AL_ALL_MODES, whose lookup holds both; the web's first load has only
// the first part, and tr() of a key past the marker is "" there).
const LanguageTable& english_table();
const LanguageTable& english_full_table();
// Spanish and German (i18n_es.cpp, i18n_de.cpp: the library attention_ui_languages, which the
// desktop app and the tests link and the web app does not — it loads them as data, see below).
const LanguageTable& spanish_table();
const LanguageTable& german_table();
// The compiled table of `code` (English for an unknown code); attention_ui_languages.
const LanguageTable& language_table(std::string_view code);
// install_language() of Spanish and German (idempotent); attention_ui_languages.
void install_compiled_languages();

// --- Which languages can be shown. English always; another once its table is installed: compiled
// in (the desktop app, the tests) or read from its data files (the web app: lang/es.json and
// lang/de.json, and with the build with every mode also lang/es-full.json and lang/de-full.json,
// made at build time by language_json() of the compiled tables — src/ui/text/language_dump.cpp — and
// fetched the first time a frame asks for the language; first loads in English carry none).
void install_language(const LanguageTable& table);
// One of a language's data files, {"language": "es", "texts": ["…", …]} (the first part:
// kFirstLoadTextCount texts in key order) or {"language": "es", "part": "full", "texts": [...]} (the
// keys from the marker on, kTextCount − kFirstLoadTextCount texts), each text non-empty UTF-8.
// The language can be shown once its first part is in; until the full part is in, the full build's
// texts are English (the page installs the full part first). Returns "" or what is wrong
// ("lang/es.json: 598 texts, this build has 612 (a file from another version of the app)"); on an
// error nothing changes. A newer file of the same part replaces the older one.
std::string install_language_json(std::string_view json_text);
// The data file's text of one part of a compiled table (the inverse of install_language_json()).
std::string language_json(const LanguageTable& table, TextPart part = TextPart::FirstLoad);
// The file's name in the site: lang/es.json, lang/es-full.json.
std::string language_file_name(std::string_view code, TextPart part);
bool language_installed(std::string_view code);
// Called (once per language) when set_language() asks for a language that is not installed; the web
// app fetches its data file and installs it. Until then the screen keeps its current language.
void set_language_loader(void (*loader)(const char* code));

// Make `code` the current language (an unknown code: English; a language not installed yet: the
// current one stays, and the loader is asked for it).
void set_language(std::string_view code);
// The current language's code: the language of the words on screen.
std::string_view current_language();
// The current language's text for `key` (English's if the table lacks it; the tests forbid that).
const char* tr(Text key);

// `pattern` with {1}, {2}, … replaced by the arguments in order (a translation may move them).
std::string fill(const char* pattern, std::initializer_list<std::string> args);

// The language of a browser's navigator.language ("es-MX" → "es", "de" → "de"; others → "en").
std::string_view language_from_locale(std::string_view locale);

}  // namespace ui
