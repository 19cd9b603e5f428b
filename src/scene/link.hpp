// link.hpp — the whole scene in a URL fragment, so that a link is a shareable demo.
//
// Fragment grammar (the text after '#'; a leading '#' is accepted too):
//
//   fragment = [ pair *( "&" pair ) ]          empty pairs ("a=1&&b=2", a trailing '&') are skipped
//   pair     = key "=" value
//   key      = "s"     value: base64url (RFC 4648 §5, padding optional) of scene JSON v1 text
//            | "demo"  value: a bundled demo's name, [a-z0-9_-]{1,64}; the page loads demos/NAME.json
//            | "gen"   value: PATTERN,N,D_K,D_V,SEED — a generated scene (scene/generate.hpp), e.g.
//                      gen=local,1024,64,64,1; the scene is rebuilt from these five, bit for bit
//            | "hide"  value: comma list of panels to hide (may be empty)
//            | "view"  value: one panel shown full-size
//            | "mode"  value: the screen's mode (default explore, which links never write)
//            | "step"  value: the step of the walk-through, 1 … kMaxWalkStep as its counter shows it
//                      ("4" = "4 / 8"); implies mode=walk (any other mode= with it is an error)
//            | "theme" value: dark | light | contrast — the colours (a view key, below)
//            | "zoom"  value: the UI zoom in percent, kMinZoom … kMaxZoom (a view key)
//            | "lang"  value: the language of the screen's words, one of kLanguages (a view key)
//            | "circuits" value: TASK,LAYERS,HEADS,D_MODEL,SEED,LR,STEPS — the Circuits mode's trained
//                      model as its recipe (scene/model_json.hpp), rebuilt bit for bit; implies
//                      mode=circuits (any other mode= with it is an error). A link key, not a scene key:
//                      every older link reads as before.
//            | "probe" value: base64url of compact JSON {"text", "ablate": ["L.H", …], "open": "L.H"}
//                      — what the learner typed, switched off and opened in the Circuits mode's
//                      model (CircuitsProbe below); only beside circuits=, applied once it is rebuilt.
//            | "lm"    value: base64url of compact JSON {"text", "temperature", "top_k", "top_p",
//                      "seed", "generated", "ablate": ["L.H" | "L.H:mean", …], "open": "L.H",
//                      "edits": [["q" | "k" | "v", ROW, COL, VALUE] | ["mask", ROW, COL, 0], …]} — the
//                      Model mode's state (ModelLink below); implies mode=model. Its heads are checked
//                      against the model when it has loaded.
//   panel    = controls | vectors | scores | weights | mask | output | formula
//   mode     = explore | walk | heads | keyspace | flash | decode | train | circuits | model   (kModes)
//   view=flash and view=decode are accepted as mode=flash and mode=decode (another spelling)
//
// e.g.  s=eyJ2ZXJzaW9uIjoxLC4uLn0&hide=controls,mask&view=weights     or     demo=soft-dictionary
//
// Parsing never throws and never aborts (the web build has exceptions off). Any problem yields an
// error naming it ("link: bad base64 at character 17 of s=: '+'", "link: unknown panel 'foo' in
// hide=", "scene: K: row 2 has 3 entries, expected 4") and nothing else: a link is applied whole or
// not at all, so the page can keep its current state. Whether a demo name exists is checked by the
// page, because demos are files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scene/generate.hpp"
#include "scene/model_json.hpp"
#include "scene/scene.hpp"

namespace scene::link {

// Longest fragment accepted or produced, in bytes. 32 KiB holds ~1000 round-trip doubles (about
// 32 base64 characters each) — every bundled demo is under 8 KiB — and stays well inside what
// browsers, chat apps and mail clients keep intact. Checked before any decoding, so a 64 KB
// fragment costs nothing. Bigger scenes are shared with Export JSON.
constexpr std::size_t kMaxFragmentBytes = 32768;
// The walk-through has at most 8 steps (X → Q, K, V → QKᵀ → ÷ s → + M → softmax → · V → Y); a
// scene's walk may have fewer (7 without X), and the page clamps step= to its last step.
constexpr int kMaxWalkStep = 8;
// Longest demo name (the page turns it into a file name: demos/NAME.json).
constexpr std::size_t kMaxDemoNameBytes = 64;

// The page's panels, as named in hide= and view=.
enum class Panel { Controls, Vectors, Scores, Weights, Mask, Output, Formula };
constexpr int kPanelCount = 7;

// "controls", "vectors", …
std::string_view panel_name(Panel panel);
// The panel called `name`, or nothing.
std::optional<Panel> panel_from_name(std::string_view name);
// "controls, vectors, scores, weights, mask, output, formula" (for error messages and docs).
std::string panel_names();

// The screen's modes, as named in mode=. Each is a layout of the panels (src/ui/modes/modes.cpp); the
// first is the default. To add one: a value here, a row in kModes, then see src/ui/modes/modes.hpp.
enum class Mode { Explore, Walk, Heads, KeySpace, Flash, Decode, Train, Circuits, Model };

struct ModeInfo {
  Mode mode;
  std::string_view name;   // in links: mode=NAME, and the tab's widget id mode/NAME
  std::string_view label;  // on the mode bar
};
inline constexpr ModeInfo kModes[] = {
    {Mode::Explore, "explore", "Explore"},    {Mode::Walk, "walk", "Walk through"},
    {Mode::Heads, "heads", "Heads"},          {Mode::KeySpace, "keyspace", "Key space"},
    {Mode::Flash, "flash", "FlashAttention"},  // the tiled pass step by step (ui/modes/flash/flash_panel.cpp)
    {Mode::Decode, "decode", "Decode"},        // KV-cache decoding token by token
    {Mode::Train, "train", "Train"},  // watch attention learn a toy task (ui/modes/train/train_mode.cpp)
    {Mode::Circuits, "circuits", "Circuits"},  // an induction head forms (ui/modes/circuits/)
    {Mode::Model, "model", "Model"},           // a real language model on your text (ui/modes/model/)
};
inline constexpr int kModeCount = int(sizeof(kModes) / sizeof(kModes[0]));
inline constexpr Mode kDefaultMode = Mode::Explore;

// "explore", …
std::string_view mode_name(Mode mode);
// The mode called `name`, or nothing.
std::optional<Mode> mode_from_name(std::string_view name);
// "explore, …" (for error messages).
std::string mode_names();

// View keys: how the screen looks, not what it shows. Like mode= they live only in links (never in
// a scene file), and each is written only when it was chosen (a theme picked, a zoom other than
// 100 %), so every link made without them stays byte for byte what it was.
enum class Theme { Dark, Light, Contrast };

struct ThemeInfo {
  Theme theme;
  std::string_view name;  // in links: theme=NAME; desktop --theme NAME
};
inline constexpr ThemeInfo kThemes[] = {
    {Theme::Dark, "dark"},
    {Theme::Light, "light"},        // projectors and bright rooms
    {Theme::Contrast, "contrast"},  // high contrast: black panels, white text, saturated roles
};
inline constexpr int kThemeCount = int(sizeof(kThemes) / sizeof(kThemes[0]));

std::string_view theme_name(Theme theme);
std::optional<Theme> theme_from_name(std::string_view name);
std::string theme_names();  // "dark, light, contrast"

// The screen's languages (src/ui/i18n*.cpp hold one table each), as lang=CODE.
struct LanguageInfo {
  std::string_view code;  // in links: lang=CODE; desktop --lang CODE; attentionLab.getLanguage()
  std::string_view name;  // in its own language, for the View menu
};
inline constexpr LanguageInfo kLanguages[] = {{"en", "English"}, {"es", "Español"}, {"de", "Deutsch"}};
inline constexpr int kLanguageCount = int(sizeof(kLanguages) / sizeof(kLanguages[0]));
bool is_language(std::string_view code);
std::string language_codes();  // "en, es, de"

// UI zoom (presenter scale) in percent: fonts and every size scale with it, and the layout reflows
// as the screen had fewer, larger pixels.
constexpr int kMinZoom = 75, kMaxZoom = 200, kDefaultZoom = 100;

struct Appearance {
  std::optional<Theme> theme;  // theme=, when chosen (none: the system's preference)
  int zoom = kDefaultZoom;     // zoom= (kDefaultZoom is never written)
  std::string lang;            // lang=, when chosen ("": the browser's language)
  bool operator==(const Appearance& o) const { return theme == o.theme && zoom == o.zoom && lang == o.lang; }
};
// "&theme=…&zoom=…&lang=…" of what `a` chose ("" for the defaults).
std::string appearance_suffix(const Appearance& a);

// ---- base64url ----------------------------------------------------------------------------------

// Bytes → base64url text (alphabet A–Z a–z 0–9 - _), without '=' padding.
std::string base64url_encode(std::string_view bytes);

struct Base64Result {
  std::string bytes;
  std::string error;  // empty on success, else e.g. "bad base64 at character 17: '+'"
  bool ok() const { return error.empty(); }
};

// base64url text → bytes. Accepts text with or without '=' padding (padding, when present, must be
// complete). Rejects any other character with its 1-based position, a length of 4k+1 (a partial
// character), and non-zero unused bits in the last character (so each byte string has one
// encoding and a link cannot hide data).
Base64Result base64url_decode(std::string_view text);

// ---- the Model mode's state (lm=) -----------------------------------------------------------------

constexpr std::size_t kMaxModelTextBytes = 2048;  // the typed prompt (the model reads ≤ n_ctx tokens of it)
constexpr int kMaxModelGenerated = 1024;

// One cell of the opened head's q, k or v as the learner left it (the model's own value elsewhere), or
// a cell of its mask: 'm' with value 0, a key the learner hid from that query (1 elsewhere).
struct HeadCellEdit {
  char matrix = 'q';  // 'q', 'k', 'v' or 'm' (written "mask" in the link)
  int row = 0, col = 0;
  double value = 0.0;
  bool operator==(const HeadCellEdit& o) const {
    return matrix == o.matrix && row == o.row && col == o.col && value == o.value;
  }
};
constexpr std::size_t kMaxHeadCellEdits = 1024;

struct ModelLink {
  std::string text = "The cat sat on the mat. The cat";  // the prompt (valid UTF-8)
  double temperature = 0.8;                              // sampling (core/sampling.hpp)
  int top_k = 40;
  double top_p = 0.95;
  std::uint64_t seed = 1;
  int generated = 0;                    // tokens drawn after the prompt with these settings
  std::vector<std::string> ablate;      // "L.H" (zero) or "L.H:mean", as --ablate
  int open_layer = -1, open_head = -1;  // the head opened in Explore (−1: none)
  std::vector<HeadCellEdit> edits;      // the opened head's edited cells (only with open)
  bool operator==(const ModelLink& o) const {
    return text == o.text && temperature == o.temperature && top_k == o.top_k && top_p == o.top_p &&
           seed == o.seed && generated == o.generated && ablate == o.ablate && open_layer == o.open_layer &&
           open_head == o.open_head && edits == o.edits;
  }
};
// The lm= value: base64url of the compact JSON (every double written to round-trip exactly).
std::string model_link_text(const ModelLink& m);
struct ModelLinkParse {
  std::optional<ModelLink> link;
  std::string error;  // "lm: <field>: <reason>"
};
ModelLinkParse parse_model_link(std::string_view value);

// ---- what the Circuits mode's learner probes its trained model with (probe=) ----------------------

struct CircuitsProbe {
  std::optional<std::string> text;      // the typed sample sequence (nullopt: the mode's default)
  std::vector<std::string> ablate;      // heads switched off, "L.H"
  int open_layer = -1, open_head = -1;  // the head opened in Explore (−1: none)
  bool operator==(const CircuitsProbe& o) const {
    return text == o.text && ablate == o.ablate && open_layer == o.open_layer && open_head == o.open_head;
  }
};
// The probe= value: base64url of the compact JSON {"text", "ablate", "open"}, each key only when given.
std::string circuits_probe_text(const CircuitsProbe& p);
struct CircuitsProbeParse {
  std::optional<CircuitsProbe> probe;
  std::string error;  // "probe: <field>: <reason>"
};
CircuitsProbeParse parse_circuits_probe(std::string_view value);

// ---- fragments ----------------------------------------------------------------------------------

struct Fragment {
  std::optional<Scene> scene;      // from s=
  std::string demo;                // from demo= (empty: none)
  std::optional<GenSpec> gen;      // from gen= (then `scene` holds generate(*gen))
  std::vector<Panel> hide;         // from hide=, in the order of enum Panel, no duplicates
  std::optional<Panel> view;       // from view=
  std::optional<Mode> mode;        // from mode= (Walk when only step= is given)
  int step = 0;                    // from step=: 1 … kMaxWalkStep (0: not given)
  std::optional<Theme> theme;      // from theme=
  std::optional<int> zoom;         // from zoom=: kMinZoom … kMaxZoom
  std::string lang;                // from lang= ("": not given)
  std::optional<Recipe> circuits;  // from circuits= (then mode is Circuits)
  std::string probe;  // from probe=: its value, checked (parse_circuits_probe); only beside circuits=
  std::optional<ModelLink> model;  // from lm= (then mode is Model)
  std::string error;               // empty on success; on error every other field is empty
  bool ok() const { return error.empty(); }
  bool hidden(Panel panel) const;
};

// Parse a URL fragment. An empty fragment is valid and sets nothing.
Fragment parse_fragment(std::string_view fragment);

struct MadeFragment {
  std::string fragment;  // "s=…[&hide=…][&view=…][&mode=…][&step=…][&theme=…][&zoom=…][&lang=…]", without '#'
  std::string error;  // empty on success; e.g. the scene is too large for a link
  bool ok() const { return error.empty(); }
};

// The fragment that restores `s` exactly (every double bit-for-bit, via scene_to_json) with the
// given panels hidden, the given panel full-size and the given mode (written only when it is not
// kDefaultMode, so links made before modes existed stay byte for byte the same). Fails (fragment empty) when
// the scene is invalid or the fragment would exceed kMaxFragmentBytes.
MadeFragment make_fragment(const Scene& s, const std::vector<Panel>& hide = {},
                           std::optional<Panel> view = std::nullopt, Mode mode = kDefaultMode, int step = 0,
                           const Appearance& appearance = {});

// "circuits=RECIPE[&probe=…]&mode=circuits[&theme=…][&zoom=…][&lang=…]": the Circuits mode's link (its
// model rebuilt from the recipe, then probed as the learner left it; the scene of the other modes is
// not in it). `probe` null or holding nothing: no probe= (the link of a model not probed yet).
MadeFragment make_circuits_fragment(const Recipe& recipe, const Appearance& appearance = {},
                                    const CircuitsProbe* probe = nullptr);
// "lm=VALUE&mode=model[&theme=…][&zoom=…][&lang=…]": the Model mode's link.
MadeFragment make_model_fragment(const ModelLink& model, const Appearance& appearance = {});

// "gen=PATTERN,N,D_K,D_V,SEED[&hide=…][&view=…]": the link of an unedited generated scene (a few
// dozen bytes whatever its size).
MadeFragment make_gen_fragment(const GenSpec& spec, const std::vector<Panel>& hide = {},
                               std::optional<Panel> view = std::nullopt, Mode mode = kDefaultMode,
                               const Appearance& appearance = {});

}  // namespace scene::link
