// link.cpp — base64url and the URL fragment codec (see link.hpp for the grammar).
#include "scene/link.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "core/lookup.hpp"
#include "scene/json_text.hpp"

namespace scene::link {
namespace {

constexpr std::array<std::string_view, kPanelCount> kPanelNames = {"controls", "vectors", "scores", "weights",
                                                                   "mask",     "output",  "formula"};

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// 6-bit value of a base64url character, or -1.
int sextet(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

// A character as it should appear in an error: '+' when printable ASCII, else its byte value.
std::string describe(unsigned char c) {
  if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
  constexpr char kHex[] = "0123456789abcdef";
  return std::string("byte 0x") + kHex[c >> 4] + kHex[c & 15];
}

// A user-supplied name quoted in an error, cut short so a huge value cannot flood the banner.
std::string quoted(std::string_view text) {
  constexpr std::size_t kMaxShown = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  if (text.size() > kMaxShown) out += "…";
  return out + "'";
}

// parse_scene's and validate's messages name the field; prefix them "scene: " once.
std::string scene_error(const std::string& message) {
  const std::string_view prefix = "scene: ";
  return message.compare(0, prefix.size(), prefix) == 0 ? message : std::string(prefix) + message;
}

// A table of named values (kModes, kThemes: rows with a `name` and the value at `key`) read both
// ways: the name of `value` (or `fallback`), and the value of `name` (or none).
template <class Row, std::size_t N, class Value>
std::string_view name_in(const Row (&table)[N], Value Row::*key, Value value, std::string_view fallback) {
  for (const Row& row : table)
    if (row.*key == value) return row.name;
  return fallback;
}

template <class Row, std::size_t N, class Value>
std::optional<Value> value_in(const Row (&table)[N], Value Row::*key, std::string_view name) {
  for (const Row& row : table)
    if (row.name == name) return row.*key;
  return std::nullopt;
}

bool demo_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

}  // namespace

std::string_view panel_name(Panel panel) {
  return kPanelNames[static_cast<std::size_t>(panel)];
}

std::optional<Panel> panel_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kPanelNames.size(); ++i)
    if (kPanelNames[i] == name) return static_cast<Panel>(i);
  return std::nullopt;
}

std::string_view mode_name(Mode mode) {
  return name_in(kModes, &ModeInfo::mode, mode, "?");
}

std::optional<Mode> mode_from_name(std::string_view name) {
  return value_in(kModes, &ModeInfo::mode, name);
}

std::string_view theme_name(Theme theme) {
  return name_in(kThemes, &ThemeInfo::theme, theme, "dark");
}

std::optional<Theme> theme_from_name(std::string_view name) {
  return value_in(kThemes, &ThemeInfo::theme, name);
}

std::string theme_names() {
  std::string out;
  for (const ThemeInfo& t : kThemes) out += (out.empty() ? "" : ", ") + std::string(t.name);
  return out;
}

std::string appearance_suffix(const Appearance& a) {
  std::string out;
  if (a.theme) out += "&theme=" + std::string(theme_name(*a.theme));
  if (a.zoom != kDefaultZoom) out += "&zoom=" + std::to_string(a.zoom);
  if (!a.lang.empty()) out += "&lang=" + a.lang;
  return out;
}

bool is_language(std::string_view code) {
  for (const LanguageInfo& l : kLanguages)
    if (l.code == code) return true;
  return false;
}

std::string language_codes() {
  return attn::comma_list(kLanguages, [](const LanguageInfo& l) { return l.code; });
}

std::string mode_names() {
  return attn::comma_list(kModes, [](const ModeInfo& m) { return m.name; });
}

std::string panel_names() {
  return attn::comma_list(kPanelNames, [](std::string_view name) { return name; });
}

bool Fragment::hidden(Panel panel) const {
  for (Panel p : hide)
    if (p == panel) return true;
  return false;
}

// ---- base64url ----------------------------------------------------------------------------------

// Every 3 bytes b0 b1 b2 (24 bits) become 4 characters of 6 bits each; a final group of 1 or 2
// bytes becomes 2 or 3 characters (no padding).
std::string base64url_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t group = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16 |
                                static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8 |
                                static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 2]));
    out += kAlphabet[group >> 18 & 63];
    out += kAlphabet[group >> 12 & 63];
    out += kAlphabet[group >> 6 & 63];
    out += kAlphabet[group & 63];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    std::uint32_t group = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (rest == 2) group |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    out += kAlphabet[group >> 18 & 63];
    out += kAlphabet[group >> 12 & 63];
    if (rest == 2) out += kAlphabet[group >> 6 & 63];
  }
  return out;
}

Base64Result base64url_decode(std::string_view text) {
  Base64Result result;
  // Padding: only as a complete tail ("xx==" or "xxx="), i.e. the padded length is a multiple of 4.
  std::size_t length = text.size();
  std::size_t pad = 0;
  while (length > 0 && text[length - 1] == '=' && pad < 2) {
    --length;
    ++pad;
  }
  for (std::size_t i = 0; i < length; ++i) {
    if (sextet(static_cast<unsigned char>(text[i])) < 0) {
      result.error = "bad base64 at character " + std::to_string(i + 1) + ": " +
                     describe(static_cast<unsigned char>(text[i]));
      return result;
    }
  }
  if (pad > 0 && (text.size() % 4 != 0 || length % 4 == 0)) {
    // "=" in the middle of a 4-character group or a lone "====": not a padded tail.
    result.error = "bad base64 at character " + std::to_string(length + 1) + ": '=' (misplaced padding)";
    return result;
  }
  if (length % 4 == 1) {
    result.error = "base64 is truncated: " + std::to_string(length) +
                   " characters leave a partial byte (a valid length is not 4k+1)";
    return result;
  }

  std::string& bytes = result.bytes;
  bytes.reserve(length / 4 * 3 + 2);
  std::size_t i = 0;
  for (; i + 4 <= length; i += 4) {
    std::uint32_t group = 0;
    for (std::size_t k = 0; k < 4; ++k)
      group = group << 6 | static_cast<std::uint32_t>(sextet(static_cast<unsigned char>(text[i + k])));
    bytes += static_cast<char>(group >> 16 & 255);
    bytes += static_cast<char>(group >> 8 & 255);
    bytes += static_cast<char>(group & 255);
  }
  const std::size_t rest = length - i;  // 0, 2 or 3 characters: 0, 1 or 2 bytes
  if (rest > 0) {
    std::uint32_t group = 0;
    for (std::size_t k = 0; k < rest; ++k)
      group = group << 6 | static_cast<std::uint32_t>(sextet(static_cast<unsigned char>(text[i + k])));
    // 2 characters = 12 bits: 8 used, 4 unused. 3 characters = 18 bits: 16 used, 2 unused.
    const std::uint32_t unused_bits = rest == 2 ? 4 : 2;
    if ((group & ((1u << unused_bits) - 1)) != 0) {
      result.bytes.clear();
      result.error = "bad base64 at character " + std::to_string(length) + ": " +
                     describe(static_cast<unsigned char>(text[length - 1])) +
                     " (its unused low bits are not zero)";
      return result;
    }
    group >>= unused_bits;
    if (rest == 2) {
      bytes += static_cast<char>(group & 255);
    } else {
      bytes += static_cast<char>(group >> 8 & 255);
      bytes += static_cast<char>(group & 255);
    }
  }
  return result;
}

// ---- fragments ----------------------------------------------------------------------------------

namespace {

// The raw value of each key a fragment may hold (parse_fragment's pass 1); nullopt: not given.
struct FragmentValues {
  std::optional<std::string_view> s, demo, gen, hide, view, mode, step, theme, zoom, lang, circuits, probe,
      lm;
};

// Each step of parse_fragment below returns its error message, or "" when its keys are valid (then
// it has filled their fields of `out`).

// Calls each(part) on the non-empty parts of `text` between the separators `sep`, in order, until
// one returns an error; returns that error, or "" after the last part.
template <class Each>
std::string for_each_part(std::string_view text, char sep, Each each) {
  std::size_t from = 0;
  while (from <= text.size()) {
    std::size_t end = text.find(sep, from);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view part = text.substr(from, end - from);
    from = end + 1;
    if (part.empty()) continue;
    std::string error = each(part);
    if (!error.empty()) return error;
  }
  return "";
}

// Pass 1: split into key=value pairs; each known key at most once, at most one of the scene keys.
std::string split_fragment(std::string_view fragment, FragmentValues& v) {
  std::string error = for_each_part(fragment, '&', [&v](std::string_view pair) -> std::string {
    const std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos)
      return "link: " + quoted(pair) +
             " has no '=' (expected key=value with key s, demo, gen, hide, view, mode, step, theme, "
             "zoom, lang, circuits, probe or lm)";
    const std::string_view key = pair.substr(0, eq);
    std::optional<std::string_view>* slot = key == "s"          ? &v.s
                                            : key == "demo"     ? &v.demo
                                            : key == "gen"      ? &v.gen
                                            : key == "hide"     ? &v.hide
                                            : key == "view"     ? &v.view
                                            : key == "mode"     ? &v.mode
                                            : key == "step"     ? &v.step
                                            : key == "theme"    ? &v.theme
                                            : key == "zoom"     ? &v.zoom
                                            : key == "lang"     ? &v.lang
                                            : key == "circuits" ? &v.circuits
                                            : key == "probe"    ? &v.probe
                                            : key == "lm"       ? &v.lm
                                                                : nullptr;
    if (slot == nullptr)
      return "link: unknown key " + quoted(key) +
             " (known: s, demo, gen, hide, view, mode, step, theme, zoom, lang, circuits, probe, lm)";
    if (slot->has_value()) return "link: " + std::string(key) + "= appears twice";
    *slot = pair.substr(eq + 1);
    return "";
  });
  if (!error.empty()) return error;
  if (int(v.s.has_value()) + int(v.demo.has_value()) + int(v.gen.has_value()) > 1)
    return "link: more than one of s=, demo=, gen= given; a link holds one scene";
  return "";
}

// The value of 1 to max_digits decimal digits, no sign, no leading zero; 0 when `v` is not one.
int plain_number(std::string_view v, std::size_t max_digits) {
  const bool digits = !v.empty() && v.size() <= max_digits && v.front() != '0' &&
                      std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
  return digits ? std::stoi(std::string(v)) : 0;
}

// hide=NAME,NAME,…: the panels in the order of enum Panel, each once (empty names are skipped).
std::string parse_hide(std::string_view list, Fragment& out) {
  std::array<bool, kPanelCount> hidden{};
  std::string error = for_each_part(list, ',', [&hidden](std::string_view name) -> std::string {
    const std::optional<Panel> panel = panel_from_name(name);
    if (!panel) return "link: unknown panel " + quoted(name) + " in hide= (panels: " + panel_names() + ")";
    hidden[static_cast<std::size_t>(*panel)] = true;
    return "";
  });
  if (!error.empty()) return error;
  for (int p = 0; p < kPanelCount; ++p)
    if (hidden[static_cast<std::size_t>(p)]) out.hide.push_back(static_cast<Panel>(p));
  return "";
}

// view= and mode= (after hide=: the full-size panel may not be hidden).
std::string parse_view_and_mode(FragmentValues& v, Fragment& out) {
  // view=flash|decode: another spelling of mode=flash|decode (a mode is not a panel).
  if (v.view && !v.mode && (*v.view == "flash" || *v.view == "decode")) {
    v.mode = v.view;
    v.view.reset();
  }
  if (v.view) {
    out.view = panel_from_name(*v.view);
    if (!out.view)
      return "link: unknown panel " + quoted(*v.view) + " in view= (panels: " + panel_names() + ")";
    if (out.hidden(*out.view)) return "link: view=" + std::string(*v.view) + " is also listed in hide=";
  }
  if (v.mode) {
    out.mode = mode_from_name(*v.mode);
    if (!out.mode) return "link: unknown mode " + quoted(*v.mode) + " in mode= (modes: " + mode_names() + ")";
  }
  return "";
}

// step= and circuits=, each of which sets its mode (after mode=, which may not name another one).
std::string parse_mode_keys(const FragmentValues& v, Fragment& out) {
  if (v.probe && !v.circuits) return "link: probe= belongs beside circuits= (the model it probes)";
  if (v.step) {
    // One or two digits, no sign, no leading zero: 1 … kMaxWalkStep.
    const int step = plain_number(*v.step, 2);
    if (step < 1 || step > kMaxWalkStep)
      return "link: step=" + std::string(v.step->substr(0, 16)) + " is not a step of the walk (1 to " +
             std::to_string(kMaxWalkStep) + ")";
    if (out.mode && *out.mode != Mode::Walk)
      return "link: step= belongs to mode=walk, not mode=" + std::string(mode_name(*out.mode));
    out.mode = Mode::Walk;
    out.step = step;
  }
  if (v.circuits) {
    // A trained model's recipe (scene/model_json.hpp): it belongs to the Circuits mode.
    if (!AL_ALL_MODES) return "link: circuits= needs the Circuits mode, which this build leaves out";
    RecipeParse parsed = parse_recipe(*v.circuits);
    if (!parsed.ok()) return "link: circuits=: " + parsed.error;
    if (out.mode && *out.mode != Mode::Circuits)
      return "link: circuits= belongs to mode=circuits, not mode=" + std::string(mode_name(*out.mode));
    out.mode = Mode::Circuits;
    out.circuits = parsed.recipe;
    if (v.probe) {  // what the learner probed the rebuilt model with
      const CircuitsProbeParse probe = parse_circuits_probe(*v.probe);
      if (!probe.probe) return "link: " + probe.error;
      out.probe = std::string(*v.probe);
    }
  }
  if (v.lm) {
    // The Model mode's text, sampling, ablations and opened head.
    if (!AL_ALL_MODES) return "link: lm= needs the Model mode, which this build leaves out";
    ModelLinkParse parsed = parse_model_link(*v.lm);
    if (!parsed.link) return "link: " + parsed.error;
    if (out.mode && *out.mode != Mode::Model)
      return "link: lm= belongs to mode=model, not mode=" + std::string(mode_name(*out.mode));
    out.mode = Mode::Model;
    out.model = std::move(parsed.link);
  }
  return "";
}

// theme=, zoom= and lang=: the classroom settings.
std::string parse_settings(const FragmentValues& v, Fragment& out) {
  if (v.theme) {
    out.theme = theme_from_name(*v.theme);
    if (!out.theme)
      return "link: unknown theme " + quoted(*v.theme) + " in theme= (themes: " + theme_names() + ")";
  }
  if (v.zoom) {
    // A whole percentage, no sign, no leading zero: kMinZoom … kMaxZoom.
    const int zoom = plain_number(*v.zoom, 3);
    if (zoom < kMinZoom || zoom > kMaxZoom)
      return "link: zoom=" + std::string(v.zoom->substr(0, 16)) + " is not a zoom in percent (" +
             std::to_string(kMinZoom) + " to " + std::to_string(kMaxZoom) + ")";
    out.zoom = zoom;
  }
  if (v.lang) {
    if (!is_language(*v.lang))
      return "link: unknown language " + quoted(*v.lang) + " in lang= (languages: " + language_codes() + ")";
    out.lang = std::string(*v.lang);
  }
  return "";
}

// demo=NAME: a gallery demo's file name (web/demos/NAME.json).
std::string parse_demo_name(std::string_view name, Fragment& out) {
  if (name.empty()) return "link: demo= is empty";
  if (name.size() > kMaxDemoNameBytes)
    return "link: demo name is " + std::to_string(name.size()) + " bytes, limit is " +
           std::to_string(kMaxDemoNameBytes);
  for (std::size_t i = 0; i < name.size(); ++i)
    if (!demo_name_char(name[i]))
      return "link: demo name " + quoted(name) + " has " + describe(static_cast<unsigned char>(name[i])) +
             " at character " + std::to_string(i + 1) + " (allowed: a-z, 0-9, '-', '_')";
  out.demo = std::string(name);
  return "";
}

// s=BASE64URL: a scene's JSON (scene/json.hpp), base64url-encoded.
std::string parse_scene_value(std::string_view value, Fragment& out) {
  if (value.empty()) return "link: s= is empty";
  Base64Result json = base64url_decode(value);
  if (!json.ok()) {
    // "bad base64 at character 17: '+'" → "link: bad base64 at character 17 of s=: '+'"
    std::string message = json.error;
    const std::string_view at = "bad base64 at character ";
    if (message.compare(0, at.size(), at) == 0) {
      const std::size_t colon = message.find(':');
      if (colon != std::string::npos) message.insert(colon, " of s=");
    } else {
      message = "s= " + message;
    }
    return "link: " + message;
  }
  ParseResult parsed = parse_scene(json.bytes);
  if (!parsed.ok()) return scene_error(parsed.error);
  out.scene = std::move(parsed.scene);
  return "";
}

// demo=, gen= or s=: the scene (split_fragment allows one of them at most).
std::string parse_scene_keys(const FragmentValues& v, Fragment& out) {
  if (v.demo) {
    std::string error = parse_demo_name(*v.demo, out);
    if (!error.empty()) return error;
  }
  if (v.gen) {
    GenParse parsed = parse_gen(*v.gen);
    if (!parsed.ok()) return "link: " + parsed.error;
    out.gen = parsed.spec;
    out.scene = generate(*parsed.spec);
  }
  if (v.s) return parse_scene_value(*v.s, out);
  return "";
}

}  // namespace

Fragment parse_fragment(std::string_view fragment) {
  Fragment out;
  const auto fail = [](std::string message) {
    Fragment failed;
    failed.error = std::move(message);
    return failed;
  };

  if (!fragment.empty() && fragment.front() == '#') fragment.remove_prefix(1);
  if (fragment.size() > kMaxFragmentBytes)
    return fail("link: fragment is " + std::to_string(fragment.size()) + " bytes, limit is " +
                std::to_string(kMaxFragmentBytes));

  // Pass 1: the raw values; pass 2: each key's value, in this order (the first error wins).
  FragmentValues values;
  std::string error = split_fragment(fragment, values);
  if (error.empty() && values.hide) error = parse_hide(*values.hide, out);
  if (error.empty()) error = parse_view_and_mode(values, out);
  if (error.empty()) error = parse_mode_keys(values, out);
  if (error.empty()) error = parse_settings(values, out);
  if (error.empty()) error = parse_scene_keys(values, out);
  if (!error.empty()) return fail(std::move(error));
  return out;
}

namespace {

// "&hide=…&view=…&mode=…" for the given panels (the full-size panel is never hidden) and mode.
std::string panels_suffix(const std::vector<Panel>& hide, std::optional<Panel> view, Mode mode) {
  std::array<bool, kPanelCount> hidden{};
  for (Panel p : hide) hidden[static_cast<std::size_t>(p)] = true;
  if (view) hidden[static_cast<std::size_t>(*view)] = false;
  std::string hide_list;
  for (int p = 0; p < kPanelCount; ++p) {
    if (!hidden[static_cast<std::size_t>(p)]) continue;
    if (!hide_list.empty()) hide_list += ',';
    hide_list += panel_name(static_cast<Panel>(p));
  }
  std::string out;
  if (!hide_list.empty()) out += "&hide=" + hide_list;
  if (view) out += "&view=" + std::string(panel_name(*view));
  if (mode != kDefaultMode) out += "&mode=" + std::string(mode_name(mode));
  return out;
}

}  // namespace

MadeFragment make_fragment(const Scene& s, const std::vector<Panel>& hide, std::optional<Panel> view,
                           Mode mode, int step, const Appearance& appearance) {
  MadeFragment out;
  // Known before anything is written: every number of Q, K, V (or X and the W's) takes at least two
  // characters of JSON ("0,"), and base64 makes 4 of every 3. A 1024×64 scene needs ≥ 524,288 bytes;
  // writing and encoding it only to find that out took ~100 ms after every edit (the address bar
  // follows edits: web/share.js).
  const Eigen::Index numbers = s.mode == scene::Mode::Direct
                                   ? s.Q.size() + s.K.size() + s.V.size()
                                   : s.X.size() + s.Wq.size() + s.Wk.size() + s.Wv.size();
  const std::size_t least = 2 + (2 * std::size_t(numbers) + 2) / 3 * 4;
  if (least > kMaxFragmentBytes) {
    out.error = "link: the scene needs a link of at least " + std::to_string(least) + " bytes, limit is " +
                std::to_string(kMaxFragmentBytes) + "; share it with Export JSON instead";
    return out;
  }
  const std::string invalid = validate(s);
  if (!invalid.empty()) {
    out.error = scene_error(invalid);
    return out;
  }
  std::string fragment = "s=" + base64url_encode(scene_to_json(s));
  std::array<bool, kPanelCount> hidden{};
  for (Panel p : hide) hidden[static_cast<std::size_t>(p)] = true;
  if (view) hidden[static_cast<std::size_t>(*view)] = false;  // the full-size panel is never hidden
  std::string hide_list;
  for (int p = 0; p < kPanelCount; ++p) {
    if (!hidden[static_cast<std::size_t>(p)]) continue;
    if (!hide_list.empty()) hide_list += ',';
    hide_list += panel_name(static_cast<Panel>(p));
  }
  if (!hide_list.empty()) fragment += "&hide=" + hide_list;
  if (view) fragment += "&view=" + std::string(panel_name(*view));
  if (mode != kDefaultMode) fragment += "&mode=" + std::string(mode_name(mode));
  if (mode == Mode::Walk && step >= 1 && step <= kMaxWalkStep) fragment += "&step=" + std::to_string(step);
  fragment += appearance_suffix(appearance);
  if (fragment.size() > kMaxFragmentBytes) {
    out.error = "link: the scene needs a " + std::to_string(fragment.size()) + "-byte link, limit is " +
                std::to_string(kMaxFragmentBytes) + "; share it with Export JSON instead";
    return out;
  }
  out.fragment = std::move(fragment);
  return out;
}

MadeFragment make_circuits_fragment(const Recipe& recipe, const Appearance& appearance,
                                    const CircuitsProbe* probe) {
  MadeFragment out;
  const bool probed = probe && !(*probe == CircuitsProbe{});
  out.fragment = "circuits=" + recipe_text(recipe) + (probed ? "&probe=" + circuits_probe_text(*probe) : "") +
                 "&mode=" + std::string(mode_name(Mode::Circuits)) + appearance_suffix(appearance);
  if (out.fragment.size() > kMaxFragmentBytes) {
    out.error = "link: the Circuits mode's link needs " + std::to_string(out.fragment.size()) +
                " bytes, limit is " + std::to_string(kMaxFragmentBytes);
    out.fragment.clear();
  }
  return out;
}

MadeFragment make_model_fragment(const ModelLink& model, const Appearance& appearance) {
  MadeFragment out;
  out.fragment = "lm=" + model_link_text(model) + "&mode=" + std::string(mode_name(Mode::Model)) +
                 appearance_suffix(appearance);
  if (out.fragment.size() > kMaxFragmentBytes) {
    out.error = "link: the Model mode's link needs " + std::to_string(out.fragment.size()) +
                " bytes, limit is " + std::to_string(kMaxFragmentBytes);
    out.fragment.clear();
  }
  return out;
}

std::string model_link_text(const ModelLink& m) {
  json_text::ordered_json j;
  j["text"] = m.text;
  j["temperature"] = m.temperature;
  j["top_k"] = m.top_k;
  j["top_p"] = m.top_p;
  j["seed"] = std::to_string(m.seed);  // a string: JSON readers lose integers above 2^53
  j["generated"] = m.generated;
  j["ablate"] = m.ablate;
  if (m.open_layer >= 0) j["open"] = std::to_string(m.open_layer) + "." + std::to_string(m.open_head);
  if (!m.edits.empty()) {
    json_text::ordered_json edits = json_text::ordered_json::array();
    for (const HeadCellEdit& e : m.edits)
      edits.push_back(json_text::ordered_json::array(
          {e.matrix == 'm' ? std::string("mask") : std::string(1, e.matrix), e.row, e.col, e.value}));
    j["edits"] = std::move(edits);
  }
  return base64url_encode(json_text::dump(j, -1));
}

namespace {

// "L.H" with L, H of 1 or 2 digits; the kind after ':' (when `kind`) zero or mean.
bool head_name(const std::string& s, bool kind, int* layer = nullptr, int* head = nullptr) {
  std::string name = s;
  if (kind) {
    const std::size_t colon = s.find(':');
    if (colon != std::string::npos) {
      const std::string k = s.substr(colon + 1);
      if (k != "zero" && k != "mean") return false;
      name = s.substr(0, colon);
    }
  }
  const std::size_t dot = name.find('.');
  if (dot == std::string::npos || dot == 0 || dot > 2 || name.size() - dot - 1 < 1 ||
      name.size() - dot - 1 > 2)
    return false;
  for (std::size_t i = 0; i < name.size(); ++i)
    if (i != dot && (name[i] < '0' || name[i] > '9')) return false;
  if (layer) *layer = std::stoi(name.substr(0, dot));
  if (head) *head = std::stoi(name.substr(dot + 1));
  return true;
}

// The JSON object a base64url link value holds (lm=, probe=): "" and `out` filled, or the error,
// prefixed with `what` ("lm", "probe").
std::string decode_object(std::string_view value, const char* what, json_text::json& out) {
  const Base64Result bytes = base64url_decode(value);
  if (!bytes.ok()) return std::string(what) + ": " + bytes.error;
  out = json_text::json::parse(bytes.bytes, nullptr, false);
  if (out.is_discarded() || !out.is_object()) return std::string(what) + ": not a JSON object";
  return "";
}

// A typed text field: "" and `out` set, or what is wrong with `v`.
std::string text_field(const json_text::json& v, std::string& out) {
  if (!v.is_string() || v.get<std::string>().size() > kMaxModelTextBytes ||
      !json_text::valid_utf8(v.get<std::string>()))
    return "must be UTF-8 text of at most " + std::to_string(kMaxModelTextBytes) + " bytes";
  out = v.get<std::string>();
  return "";
}

// A list of heads "L.H" (with `kind`: or "L.H:mean" / "L.H:zero"): "" and `out` appended, or what is
// wrong with `v`.
std::string heads_field(const json_text::json& v, bool kind, std::vector<std::string>& out) {
  bool ok = v.is_array() && v.size() <= 256;
  if (ok)
    for (const auto& a : v) ok = ok && a.is_string() && head_name(a.get<std::string>(), kind);
  if (!ok)
    return kind ? "must be a list of heads \"L.H\" or \"L.H:mean\"" : "must be a list of heads \"L.H\"";
  for (const auto& a : v) out.push_back(a.get<std::string>());
  return "";
}

}  // namespace

ModelLinkParse parse_model_link(std::string_view value) {
  ModelLinkParse out;
  json_text::json j;
  if (out.error = decode_object(value, "lm", j); !out.error.empty()) return out;
  ModelLink m;
  for (const auto& [key, v] : j.items()) {
    std::string bad;
    if (key == "text") {
      bad = text_field(v, m.text);
    } else if (key == "temperature") {
      if (!v.is_number() || !(v.get<double>() >= 0.0 && v.get<double>() <= 100.0))
        bad = "must be a number from 0 to 100";
      else
        m.temperature = v.get<double>();
    } else if (key == "top_k") {
      if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > 1024)
        bad = "must be a whole number from 0 (all) to 1024";
      else
        m.top_k = v.get<int>();
    } else if (key == "top_p") {
      if (!v.is_number() || !(v.get<double>() > 0.0 && v.get<double>() <= 1.0))
        bad = "must be a number in (0, 1]";
      else
        m.top_p = v.get<double>();
    } else if (key == "seed") {
      const std::string t = v.is_string() ? v.get<std::string>() : "";
      const bool digits = !t.empty() && t.size() <= 20 &&
                          std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (!digits || (t.size() == 20 && t > "18446744073709551615"))
        bad = "must be a whole number from 0 to 2^64 - 1, written as a string";
      else
        m.seed = std::stoull(t);
    } else if (key == "generated") {
      if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > kMaxModelGenerated)
        bad = "must be a whole number from 0 to " + std::to_string(kMaxModelGenerated);
      else
        m.generated = v.get<int>();
    } else if (key == "ablate") {
      bad = heads_field(v, true, m.ablate);
    } else if (key == "open") {
      if (!v.is_string() || !head_name(v.get<std::string>(), false, &m.open_layer, &m.open_head))
        bad = "must be a head \"L.H\"";
    } else if (key == "edits") {
      // [matrix, row, col, value]: the cell's place is checked against the head once it is open; a
      // "mask" cell's value is 0 (hidden) or 1.
      const auto cell = [](const json_text::json& e) {
        const bool mask = e.is_array() && e.size() == 4 && e[0] == "mask";
        return e.is_array() && e.size() == 4 && e[0].is_string() &&
               (e[0] == "q" || e[0] == "k" || e[0] == "v" || mask) && e[1].is_number_integer() &&
               e[1].get<long long>() >= 0 && e[1].get<long long>() < 4096 && e[2].is_number_integer() &&
               e[2].get<long long>() >= 0 && e[2].get<long long>() < 4096 && e[3].is_number() &&
               std::isfinite(e[3].get<double>()) && (!mask || e[3] == 0 || e[3] == 1);
      };
      bool ok = v.is_array() && v.size() <= kMaxHeadCellEdits;
      if (ok)
        for (const auto& e : v) ok = ok && cell(e);
      if (!ok)
        bad = "must be a list of at most " + std::to_string(kMaxHeadCellEdits) +
              " cells [\"q\" | \"k\" | \"v\", row, column, finite number] or [\"mask\", row, column, 0 | 1]";
      else
        for (const auto& e : v)
          m.edits.push_back({e[0] == "mask" ? 'm' : e[0].get<std::string>()[0], e[1].get<int>(),
                             e[2].get<int>(), e[3].get<double>()});
    } else {
      out.error = "lm: unknown key \"" + json_text::clip_utf8(key) +
                  "\" (known: text, temperature, top_k, top_p, seed, generated, ablate, open, edits)";
      return out;
    }
    if (!bad.empty()) {
      out.error = "lm: " + key + ": " + bad;
      return out;
    }
  }
  if (!m.edits.empty() && m.open_layer < 0) {
    out.error = "lm: edits: belong to an opened head (\"open\": \"L.H\")";
    return out;
  }
  out.link = std::move(m);
  return out;
}

std::string circuits_probe_text(const CircuitsProbe& p) {
  json_text::ordered_json j = json_text::ordered_json::object();
  if (p.text) j["text"] = *p.text;
  if (!p.ablate.empty()) j["ablate"] = p.ablate;
  if (p.open_layer >= 0) j["open"] = std::to_string(p.open_layer) + "." + std::to_string(p.open_head);
  return base64url_encode(json_text::dump(j, -1));
}

CircuitsProbeParse parse_circuits_probe(std::string_view value) {
  CircuitsProbeParse out;
  json_text::json j;
  if (out.error = decode_object(value, "probe", j); !out.error.empty()) return out;
  // The heads are checked against the model once it is rebuilt (its layers and heads are the recipe's).
  CircuitsProbe p;
  for (const auto& [key, v] : j.items()) {
    std::string bad;
    if (key == "text") {
      std::string text;
      bad = text_field(v, text);
      if (bad.empty()) p.text = std::move(text);
    } else if (key == "ablate") {
      bad = heads_field(v, false, p.ablate);
    } else if (key == "open") {
      if (!v.is_string() || !head_name(v.get<std::string>(), false, &p.open_layer, &p.open_head))
        bad = "must be a head \"L.H\"";
    } else {
      out.error = "probe: unknown key \"" + json_text::clip_utf8(key) + "\" (known: text, ablate, open)";
      return out;
    }
    if (!bad.empty()) {
      out.error = "probe: " + key + ": " + bad;
      return out;
    }
  }
  out.probe = std::move(p);
  return out;
}

MadeFragment make_gen_fragment(const GenSpec& spec, const std::vector<Panel>& hide, std::optional<Panel> view,
                               Mode mode, const Appearance& appearance) {
  MadeFragment out;
  out.fragment = "gen=" + gen_text(spec) + panels_suffix(hide, view, mode) + appearance_suffix(appearance);
  return out;
}

}  // namespace scene::link
