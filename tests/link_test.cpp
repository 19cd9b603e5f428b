// Link tests: base64url (RFC 4648 vectors), the URL fragment codec, and bit-for-bit round trips of
// scenes through a link. No file I/O: the same binary runs natively and as wasm under node.
#include "scene/link.hpp"

#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <string_view>

#include "helpers.hpp"
#include "scene/scene.hpp"

using scene::Scene;
namespace links = scene::link;
using links::Panel;

namespace {

double from_bits(std::uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

// The doubles most likely to lose bits in text: subnormals, the largest allowed magnitude 1e15,
// −0, values with 17 significant digits, and random bit patterns across the whole exponent range.
double awkward_double(std::mt19937_64& rng) {
  static const double kSpecial[] = {0.0,
                                    -0.0,
                                    1e15,
                                    -1e15,
                                    5e-324,
                                    -5e-324,
                                    DBL_MIN,
                                    2.2250738585072009e-308,
                                    0.1,
                                    1.0 / 3.0,
                                    123456789.01234567,
                                    999999999999999.9,
                                    1e-300,
                                    -2.5e-320};
  switch (rng() % 5) {
    case 0:
      return kSpecial[rng() % (sizeof kSpecial / sizeof kSpecial[0])];
    case 1:  // subnormal: exponent field 0, random mantissa, random sign
      return from_bits((rng() & 0x800FFFFFFFFFFFFFull));
    case 2:
      return std::uniform_real_distribution<double>(-1e15, 1e15)(rng);
    case 3:
      return std::uniform_real_distribution<double>(-3.0, 3.0)(rng);
    default: {  // any finite double with |x| ≤ 1e15 (the scene's limit), drawn from raw bits
      for (;;) {
        const double x = from_bits(rng());
        if (std::isfinite(x) && std::abs(x) <= scene::kMaxAbsValue) return x;
      }
    }
  }
}

attn::Matrix awkward_matrix(std::mt19937_64& rng, int rows, int cols) {
  attn::Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = awkward_double(rng);
  return m;
}

Scene random_scene(std::mt19937_64& rng) {
  static const char* const kLabels[] = {"the",        "cat",  "naïve", "√d_k", "日本",
                                        "say \"hi\"", "a\\b", "−∞",    "x"};
  const int n = 1 + static_cast<int>(rng() % 6);
  const int d_k = 1 + static_cast<int>(rng() % 5);
  const int d_v = 1 + static_cast<int>(rng() % 5);
  Scene s;
  for (int i = 0; i < n; ++i) s.tokens.push_back(kLabels[rng() % (sizeof kLabels / sizeof kLabels[0])]);
  if (rng() % 2 == 0) {
    s.mode = scene::Mode::Direct;
    s.Q = awkward_matrix(rng, n, d_k);
    s.K = awkward_matrix(rng, n, d_k);
    s.V = awkward_matrix(rng, n, d_v);
  } else {
    const int d_model = 1 + static_cast<int>(rng() % 5);
    s.mode = scene::Mode::Projected;
    s.X = awkward_matrix(rng, n, d_model);
    s.Wq = awkward_matrix(rng, d_model, d_k);
    s.Wk = awkward_matrix(rng, d_model, d_k);
    s.Wv = awkward_matrix(rng, d_model, d_v);
  }
  switch (rng() % 3) {
    case 0:
      s.scale.mode = attn::ScaleMode::None;
      break;
    case 1:
      s.scale.mode = attn::ScaleMode::SqrtDk;
      break;
    default:  // log-uniform over the allowed [1e-6, 1e6]
      s.scale.mode = attn::ScaleMode::Temperature;
      s.scale.temperature = std::pow(10.0, std::uniform_real_distribution<double>(-6.0, 6.0)(rng));
      break;
  }
  s.causal = rng() % 2 == 0;
  if (rng() % 2 == 0) {
    s.mask = attn::MaskMatrix(n, n);
    for (Eigen::Index i = 0; i < s.mask.size(); ++i) s.mask.data()[i] = static_cast<unsigned char>(rng() % 2);
  }
  return s;
}

std::string s_fragment(std::string_view json) {
  return "s=" + links::base64url_encode(json);
}

// A parsed fragment that applies nothing: no scene, demo, hidden panels or view.
void check_applies_nothing(const links::Fragment& f) {
  CHECK_FALSE(f.scene.has_value());
  CHECK(f.demo.empty());
  CHECK(f.hide.empty());
  CHECK_FALSE(f.view.has_value());
}

// The error of parsing `fragment`; fails the test if parsing succeeded.
std::string error_of(std::string_view fragment) {
  const links::Fragment f = links::parse_fragment(fragment);
  CHECK_FALSE(f.ok());
  check_applies_nothing(f);  // a failed parse applies nothing
  return f.error;
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

constexpr const char* kSmallScene =
    R"({"version":1,"tokens":["a","b"],"Q":[[1,0],[0,1]],"K":[[1,0],[0,1]],"V":[[1,2],[3,4]],"scale":"none"})";

// A fragment that must parse: the test stops here, naming the text, when it does not.
links::Fragment parsed(std::string_view text) {
  INFO("fragment: ", std::string(text));
  links::Fragment f = links::parse_fragment(text);
  REQUIRE(f.ok());
  return f;
}

}  // namespace

// ---- base64url ----------------------------------------------------------------------------------

TEST_CASE("base64url: RFC 4648 §10 test vectors, url-safe alphabet, no padding") {
  const std::pair<const char*, const char*> kVectors[] = {
      {"", ""},           {"f", "Zg"},          {"fo", "Zm8"},          {"foo", "Zm9v"},
      {"foob", "Zm9vYg"}, {"fooba", "Zm9vYmE"}, {"foobar", "Zm9vYmFy"},
  };
  for (const auto& vector : kVectors) {
    const std::string plain = vector.first, encoded = vector.second;
    INFO("plain '" << plain << "'");
    CHECK(links::base64url_encode(plain) == encoded);
    const links::Base64Result back = links::base64url_decode(encoded);
    CHECK(back.ok());
    CHECK(back.bytes == plain);
  }
  // The RFC prints them padded: "Zg==", "Zm8=", "Zm9vYg==", "Zm9vYmE=". Padding is accepted.
  for (const auto& vector :
       {std::pair{"Zg==", "f"}, {"Zm8=", "fo"}, {"Zm9vYg==", "foob"}, {"Zm9vYmE=", "fooba"}}) {
    const std::string padded = vector.first, plain = vector.second;
    INFO(padded);
    const links::Base64Result back = links::base64url_decode(padded);
    CHECK(back.ok());
    CHECK(back.bytes == plain);
  }
}

TEST_CASE("base64url: '-' and '_' replace '+' and '/' (RFC 4648 §5)") {
  // Bytes fb ff bf: standard base64 "+/+/", url-safe "-_-_".
  CHECK(links::base64url_encode("\xfb\xff\xbf") == "-_-_");
  CHECK(links::base64url_decode("-_-_").bytes == "\xfb\xff\xbf");
  const links::Base64Result plus = links::base64url_decode("+_-_");
  CHECK(plus.error == "bad base64 at character 1: '+'");
}

TEST_CASE("base64url: every byte value round-trips at every length") {
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  for (std::size_t len = 0; len <= all.size(); ++len) {
    const std::string bytes = all.substr(all.size() - len);
    const std::string text = links::base64url_encode(bytes);
    CHECK(text.size() == (len * 4 + 2) / 3);  // ⌈8·len / 6⌉ characters, no padding
    const links::Base64Result back = links::base64url_decode(text);
    REQUIRE(back.ok());
    CHECK(back.bytes == bytes);
  }
}

TEST_CASE("base64url: bad input names the character and its position") {
  CHECK(links::base64url_decode("Zm9vYmFy+mFy").error == "bad base64 at character 9: '+'");
  CHECK(links::base64url_decode("Zm9v YmFy").error == "bad base64 at character 5: ' '");
  CHECK(links::base64url_decode(std::string("Zm9v\x01", 5)).error == "bad base64 at character 5: byte 0x01");
  CHECK(links::base64url_decode("Zm9v%3D").error == "bad base64 at character 5: '%'");
  // 4k+1 characters cannot come from whole bytes.
  CHECK(contains(links::base64url_decode("Zm9vY").error, "truncated"));
  // "Zh": 'h' carries bits the single byte 'f' does not use — a second spelling of "Zg".
  CHECK(links::base64url_decode("Zh").error ==
        "bad base64 at character 2: 'h' (its unused low bits are not zero)");
  // Padding only as a complete tail.
  CHECK(contains(links::base64url_decode("Zg=").error, "misplaced padding"));
  CHECK(contains(links::base64url_decode("Zm9v==").error, "misplaced padding"));
  CHECK(links::base64url_decode("Zg=a").error == "bad base64 at character 3: '='");
}

// ---- fragments: what a link carries ---------------------------------------------------------------

TEST_CASE("fragment: empty, demo=, hide= and view=") {
  for (const char* empty : {"", "#", "&", "&&"}) {
    const links::Fragment f = links::parse_fragment(empty);
    CHECK(f.ok());
    check_applies_nothing(f);
  }

  const links::Fragment demo = links::parse_fragment("#demo=soft-dictionary");
  CHECK(demo.ok());
  CHECK(demo.demo == "soft-dictionary");
  CHECK_FALSE(demo.scene.has_value());

  // hide= lists panels in any order, with repeats; the result is in panel order without repeats.
  const links::Fragment embed =
      links::parse_fragment("demo=causal-5&hide=mask,controls,mask,,formula&view=weights");
  REQUIRE(embed.ok());
  CHECK(embed.hide == std::vector<Panel>{Panel::Controls, Panel::Mask, Panel::Formula});
  CHECK(embed.hidden(Panel::Mask));
  CHECK_FALSE(embed.hidden(Panel::Weights));
  REQUIRE(embed.view.has_value());
  CHECK(*embed.view == Panel::Weights);

  // Every panel name the page knows.
  CHECK(links::panel_names() == "controls, vectors, scores, weights, mask, output, formula");
  for (int p = 0; p < links::kPanelCount; ++p) {
    const auto panel = static_cast<Panel>(p);
    CHECK(links::panel_from_name(links::panel_name(panel)) == panel);
  }
  const links::Fragment all =
      links::parse_fragment("hide=controls,vectors,scores,weights,mask,output,formula");
  CHECK(all.ok());
  CHECK(all.hide.size() == 7);
  CHECK(links::parse_fragment("hide=").ok());
}

TEST_CASE("fragment: s= carries a scene") {
  const links::Fragment f = parsed("#" + s_fragment(kSmallScene) + "&view=output");
  REQUIRE(f.scene.has_value());
  CHECK(f.scene->tokens == std::vector<std::string>{"a", "b"});
  CHECK(f.scene->V(1, 1) == 4.0);
  CHECK(f.scene->scale.mode == attn::ScaleMode::None);
  CHECK(f.view == Panel::Output);
  // Padded base64 (as other encoders write it) is read too.
  std::string padded = links::base64url_encode(kSmallScene);
  while (padded.size() % 4 != 0) padded += '=';
  CHECK(links::parse_fragment("s=" + padded).ok());
}

TEST_CASE("fragment: every bad link gives an error naming the problem") {
  const std::string good = s_fragment(kSmallScene);

  SUBCASE("bad base64: position within s=") {
    std::string bad = good;
    bad[2 + 16] = '+';  // character 17 of the s= value
    CHECK(error_of(bad) == "link: bad base64 at character 17 of s=: '+'");
    CHECK(error_of("s=eyJ2ZXJzaW9uIjox*") == "link: bad base64 at character 17 of s=: '*'");
  }
  SUBCASE("truncated link: cut anywhere, never accepted, never crashes") {
    for (std::size_t cut = 3; cut < good.size(); ++cut) {
      INFO("cut at " << cut);
      const std::string e = error_of(good.substr(0, cut));
      // Either a partial base64 character or incomplete JSON.
      const bool named = contains(e, "link: s= base64 is truncated") || contains(e, "link: bad base64") ||
                         contains(e, "scene: ");
      CHECK(named);
    }
    CHECK(contains(error_of(good.substr(0, 2 + 20 * 4 + 1)), "link: s= base64 is truncated"));
  }
  SUBCASE("wrong version") {
    const std::string e =
        error_of(s_fragment(R"({"version":3,"tokens":["a"],"Q":[[1]],"K":[[1]],"V":[[1]]})"));
    CHECK(contains(e, "scene: "));
    CHECK(contains(e, "version"));
  }
  SUBCASE("valid JSON, wrong shapes") {
    const std::string e = error_of(s_fragment(
        R"({"version":1,"tokens":["a","b"],"Q":[[1,0],[0,1]],"K":[[1,0],[0,1,2]],"V":[[1],[2]]})"));
    CHECK(contains(e, "scene: "));
    CHECK(contains(e, "K"));
    CHECK(contains(e, "row 1"));
    const std::string rows = error_of(
        s_fragment(R"({"version":1,"tokens":["a","b"],"Q":[[1,0]],"K":[[1,0],[0,1]],"V":[[1],[2]]})"));
    CHECK(contains(rows, "Q"));
  }
  SUBCASE("NaN, in every way JSON can try") {
    for (const char* nan_json : {
             R"({"version":1,"tokens":["a"],"Q":[[NaN]],"K":[[1]],"V":[[1]]})",
             R"({"version":1,"tokens":["a"],"Q":[["NaN"]],"K":[[1]],"V":[[1]]})",
             R"({"version":1,"tokens":["a"],"Q":[[1]],"K":[[1e999]],"V":[[1]]})",
         }) {
      INFO(nan_json);
      const std::string e = error_of(s_fragment(nan_json));
      CHECK(contains(e, "scene: "));
    }
    CHECK(contains(error_of(s_fragment(R"({"version":1,"tokens":["a"],"Q":[["NaN"]],"K":[[1]],"V":[[1]]})")),
                   "Q"));
    CHECK(contains(error_of(s_fragment(R"({"version":1,"tokens":["a"],"Q":[[1]],"K":[[1e999]],"V":[[1]]})")),
                   "K"));
  }
  SUBCASE("n = 5000 tokens") {
    // 5000 one-letter labels fit in a link (about 27 KB); the token limit (1024) must catch them.
    std::string json = R"({"version":1,"tokens":[)";
    for (int i = 0; i < 5000; ++i) json += i ? ",\"a\"" : "\"a\"";
    json += R"(],"Q":[[1]],"K":[[1]],"V":[[1]]})";
    const std::string fragment = s_fragment(json);
    REQUIRE(fragment.size() <= links::kMaxFragmentBytes);
    const std::string e = error_of(fragment);
    CHECK(contains(e, "scene: tokens"));
    CHECK(contains(e, "1024"));
  }
  SUBCASE("a 64 KB fragment is refused before decoding") {
    std::string huge = "s=" + std::string(65536 - 2, 'A');
    CHECK(error_of(huge) == "link: fragment is 65536 bytes, limit is 32768");
    CHECK(error_of("#" + huge) == "link: fragment is 65536 bytes, limit is 32768");
    // The limit itself is accepted as far as the size goes (then the base64 decodes to junk JSON).
    const std::string at_limit = "s=" + std::string(links::kMaxFragmentBytes - 2, 'A');
    CHECK(contains(error_of(at_limit), "scene: "));
    CHECK(contains(error_of(at_limit + "A"), "link: fragment is 32769 bytes"));
  }
  SUBCASE("unknown panel in hide= and view=") {
    CHECK(error_of("hide=controls,foo") ==
          "link: unknown panel 'foo' in hide= (panels: controls, vectors, scores, weights, mask, output, "
          "formula)");
    CHECK(contains(error_of("demo=causal-5&view=heatmap"), "link: unknown panel 'heatmap' in view="));
    CHECK(contains(error_of("hide=Controls"), "unknown panel 'Controls'"));  // names are lower case
    CHECK(error_of("hide=weights&view=weights") == "link: view=weights is also listed in hide=");
    CHECK(contains(error_of("view="), "unknown panel ''"));
  }
  SUBCASE("unknown or repeated keys, both s= and demo=") {
    CHECK(error_of("scene=abc") ==
          "link: unknown key 'scene' (known: s, demo, gen, hide, view, mode, step, theme, zoom, lang, "
          "circuits, probe, lm)");
    CHECK(contains(error_of("s"), "'s' has no '='"));
    CHECK(error_of("demo=a&demo=b") == "link: demo= appears twice");
    CHECK(error_of(good + "&demo=causal-5") ==
          "link: more than one of s=, demo=, gen= given; a link holds one scene");
    CHECK(error_of("s=") == "link: s= is empty");
  }
  SUBCASE("demo names become file names: only [a-z0-9_-]") {
    CHECK(error_of("demo=") == "link: demo= is empty");
    CHECK(contains(error_of("demo=../secret"), "has '.' at character 1"));
    CHECK(contains(error_of("demo=a/b"), "has '/' at character 2"));
    CHECK(contains(error_of("demo=Causal"), "has 'C' at character 1"));
    CHECK(contains(error_of("demo=" + std::string(65, 'a')), "demo name is 65 bytes, limit is 64"));
    CHECK(links::parse_fragment("demo=" + std::string(64, 'a')).ok());
  }
  SUBCASE("errors quote at most 40 characters of user text") {
    const std::string e = error_of("hide=" + std::string(1000, 'z'));
    CHECK(e.size() < 200);
  }
}

// ---- make_fragment and round trips ----------------------------------------------------------------

TEST_CASE("make_fragment: s=, then hide= in panel order, then view=") {
  const scene::ParseResult small = scene::parse_scene(kSmallScene);
  REQUIRE(small.ok());
  const links::MadeFragment plain = links::make_fragment(*small.scene);
  REQUIRE(plain.ok());
  CHECK(plain.fragment == "s=" + links::base64url_encode(scene::scene_to_json(*small.scene)));

  const links::MadeFragment embed =
      links::make_fragment(*small.scene, {Panel::Mask, Panel::Controls}, Panel::Weights);
  REQUIRE(embed.ok());
  CHECK(embed.fragment == plain.fragment + "&hide=controls,mask&view=weights");
  const links::Fragment back = parsed(embed.fragment);
  CHECK(back.hide == std::vector<Panel>{Panel::Controls, Panel::Mask});
  CHECK(back.view == Panel::Weights);
  check_same_scene(*back.scene, *small.scene);

  // The full-size panel is never hidden.
  CHECK(links::make_fragment(*small.scene, {Panel::Weights}, Panel::Weights).fragment ==
        plain.fragment + "&view=weights");
}

TEST_CASE("fragment: mode= names one of the screen's modes") {
  // The table: names are unique link words (they are also widget ids mode/NAME), the first row
  // is the default.
  REQUIRE(links::kModeCount >= 1);
  CHECK(links::kModes[0].mode == links::kDefaultMode);
  for (int a = 0; a < links::kModeCount; ++a) {
    const links::ModeInfo& m = links::kModes[a];
    CHECK(!m.name.empty());
    CHECK(!m.label.empty());
    for (char c : m.name) CHECK(((c >= 'a' && c <= 'z') || c == '-'));
    CHECK(links::mode_from_name(m.name) == m.mode);
    CHECK(links::mode_name(m.mode) == m.name);
    for (int b = a + 1; b < links::kModeCount; ++b) CHECK(links::kModes[b].name != m.name);
  }

  const links::Fragment explore = parsed("demo=causal-5&mode=explore");
  CHECK(explore.mode == links::Mode::Explore);
  CHECK_FALSE(links::parse_fragment("demo=causal-5").mode.has_value());  // none: the default
  // The Key space mode: the soft dictionary's pictures.
  const links::Fragment keyspace = parsed("demo=soft-dictionary&mode=keyspace");
  CHECK(keyspace.mode == links::Mode::KeySpace);
  CHECK(links::mode_name(links::Mode::KeySpace) == "keyspace");

  CHECK(error_of("demo=causal-5&mode=nope") ==
        "link: unknown mode 'nope' in mode= (modes: " + links::mode_names() + ")");
  const links::Fragment heads = parsed("demo=three-heads&mode=heads");
  CHECK(heads.mode == links::Mode::Heads);
  CHECK(error_of("mode=") == "link: unknown mode '' in mode= (modes: " + links::mode_names() + ")");
  CHECK(error_of("mode=Explore") ==
        "link: unknown mode 'Explore' in mode= (modes: " + links::mode_names() + ")");
  CHECK(error_of("mode=explore&mode=explore") == "link: mode= appears twice");
  // A bad mode rejects the whole link, scene included.
  const links::Fragment bad = links::parse_fragment("mode=nope&demo=causal-5");
  CHECK_FALSE(bad.ok());
  CHECK(bad.demo.empty());
}

TEST_CASE("make_fragment: mode= is written only when not the default, and round-trips") {
  const scene::ParseResult small = scene::parse_scene(kSmallScene);
  REQUIRE(small.ok());
  const links::MadeFragment plain = links::make_fragment(*small.scene);
  REQUIRE(plain.ok());
  // The default mode leaves links exactly as they were before modes existed.
  CHECK(links::make_fragment(*small.scene, {}, std::nullopt, links::kDefaultMode).fragment == plain.fragment);
  CHECK(links::make_fragment(*small.scene, {Panel::Mask}, Panel::Weights, links::kDefaultMode).fragment ==
        plain.fragment + "&hide=mask&view=weights");
  for (const links::ModeInfo& m : links::kModes) {
    INFO("mode " << m.name);
    const links::MadeFragment made =
        links::make_fragment(*small.scene, {Panel::Controls}, std::nullopt, m.mode);
    REQUIRE(made.ok());
    const std::string suffix = m.mode == links::kDefaultMode ? "" : "&mode=" + std::string(m.name);
    CHECK(made.fragment == plain.fragment + "&hide=controls" + suffix);
    const links::Fragment back = parsed(made.fragment);
    CHECK(back.mode.value_or(links::kDefaultMode) == m.mode);
    check_same_scene(*back.scene, *small.scene);
    CHECK(links::make_fragment(*back.scene, back.hide, back.view, back.mode.value_or(links::kDefaultMode))
              .fragment == made.fragment);
  }
}

TEST_CASE("fragment: theme= and zoom= (view keys) parse, are written only when chosen, round-trip") {
  const links::Fragment light = parsed("demo=causal-5&theme=light&zoom=150");
  CHECK(light.theme == links::Theme::Light);
  CHECK(light.zoom == 150);
  const links::Fragment none = links::parse_fragment("demo=causal-5");
  CHECK_FALSE(none.theme.has_value());  // none: the system's preference
  CHECK_FALSE(none.zoom.has_value());
  for (const links::ThemeInfo& t : links::kThemes) {
    CHECK(links::theme_from_name(t.name) == t.theme);
    CHECK(links::theme_name(t.theme) == t.name);
  }
  CHECK(links::theme_names() == "dark, light, contrast");
  CHECK(error_of("theme=sepia") == "link: unknown theme 'sepia' in theme= (themes: dark, light, contrast)");
  CHECK(error_of("theme=Light") == "link: unknown theme 'Light' in theme= (themes: dark, light, contrast)");
  CHECK(error_of("theme=dark&theme=light") == "link: theme= appears twice");
  CHECK(links::parse_fragment("zoom=75").zoom == 75);
  CHECK(links::parse_fragment("zoom=200").zoom == 200);
  for (const char* bad : {"74", "201", "0", "075", "+100", "1.5", "", "abc", "1000", "-100"})
    CHECK(error_of("demo=causal-5&zoom=" + std::string(bad)) ==
          "link: zoom=" + std::string(bad) + " is not a zoom in percent (75 to 200)");
  // A bad view key rejects the whole link.
  CHECK(links::parse_fragment("demo=causal-5&zoom=300").demo.empty());

  const scene::ParseResult small = scene::parse_scene(kSmallScene);
  REQUIRE(small.ok());
  const std::string plain = links::make_fragment(*small.scene).fragment;
  // The defaults write nothing: links made before view keys existed keep every byte.
  CHECK(links::make_fragment(*small.scene, {}, std::nullopt, links::kDefaultMode, 0, links::Appearance{})
            .fragment == plain);
  links::Appearance chosen;
  chosen.theme = links::Theme::Contrast;
  chosen.zoom = 125;
  const links::MadeFragment made =
      links::make_fragment(*small.scene, {Panel::Mask}, std::nullopt, links::Mode::Heads, 0, chosen);
  REQUIRE(made.ok());
  CHECK(made.fragment == plain + "&hide=mask&mode=heads&theme=contrast&zoom=125");
  const links::Fragment back = parsed(made.fragment);
  CHECK(back.theme == links::Theme::Contrast);
  CHECK(back.zoom == 125);
  check_same_scene(*back.scene, *small.scene);
  // lang=: one of the screen's languages, written when chosen, after theme= and zoom=.
  CHECK(links::parse_fragment("demo=causal-5&lang=es").lang == "es");
  CHECK(links::parse_fragment("demo=causal-5").lang.empty());
  CHECK(links::language_codes() == "en, es, de");
  CHECK(error_of("lang=fr") == "link: unknown language 'fr' in lang= (languages: en, es, de)");
  CHECK(error_of("lang=ES") == "link: unknown language 'ES' in lang= (languages: en, es, de)");
  CHECK(error_of("lang=de&lang=es") == "link: lang= appears twice");
  links::Appearance spanish = chosen;
  spanish.lang = "es";
  const links::MadeFragment made_es =
      links::make_fragment(*small.scene, {}, std::nullopt, links::kDefaultMode, 0, spanish);
  CHECK(made_es.fragment == plain + "&theme=contrast&zoom=125&lang=es");
  CHECK(links::parse_fragment(made_es.fragment).lang == "es");
  const scene::GenSpec spec{scene::Pattern::Local, 16, 8, 8, 1};
  CHECK(links::make_gen_fragment(spec, {}, std::nullopt, links::kDefaultMode, chosen).fragment ==
        links::make_gen_fragment(spec).fragment + "&theme=contrast&zoom=125");
}

TEST_CASE("fragment: step= opens the walk-through at a step (1-based, as its counter shows it)") {
  const links::Fragment four = parsed("demo=practice-qkv&mode=walk&step=4");
  CHECK(four.mode == links::Mode::Walk);
  CHECK(four.step == 4);
  // step= alone implies the walk.
  const links::Fragment alone = parsed("demo=causal-5&step=8");
  CHECK(alone.mode == links::Mode::Walk);
  CHECK(alone.step == 8);
  CHECK(links::parse_fragment("demo=causal-5").step == 0);
  for (const char* bad : {"0", "9", "-1", "+1", "01", "1.5", "", "abc", "100"})
    CHECK(error_of("demo=causal-5&step=" + std::string(bad)) ==
          "link: step=" + std::string(bad) + " is not a step of the walk (1 to 8)");
  CHECK(error_of("mode=explore&step=2") == "link: step= belongs to mode=walk, not mode=explore");
  CHECK(error_of("step=2&step=3") == "link: step= appears twice");

  // Written only in the walk mode, and read back the same.
  const scene::ParseResult small = scene::parse_scene(kSmallScene);
  REQUIRE(small.ok());
  const std::string plain = links::make_fragment(*small.scene).fragment;
  const links::MadeFragment made = links::make_fragment(*small.scene, {}, std::nullopt, links::Mode::Walk, 3);
  REQUIRE(made.ok());
  CHECK(made.fragment == plain + "&mode=walk&step=3");
  const links::Fragment back = parsed(made.fragment);
  CHECK(back.step == 3);
  CHECK(links::make_fragment(*small.scene, {}, std::nullopt, links::Mode::Explore, 3).fragment == plain);
}

TEST_CASE("make_fragment: refuses invalid scenes and scenes too large for a link") {
  Scene empty;
  const links::MadeFragment none = links::make_fragment(empty);
  CHECK_FALSE(none.ok());
  CHECK(none.fragment.empty());
  CHECK(contains(none.error, "scene: tokens"));

  // 64 tokens × d 16 of 17-digit doubles: about 3000 numbers, over 32 KiB of link.
  std::mt19937_64 rng(7);
  Scene big;
  big.tokens.assign(64, "t");
  big.Q = awkward_matrix(rng, 64, 16);
  big.K = awkward_matrix(rng, 64, 16);
  big.V = awkward_matrix(rng, 64, 16);
  const links::MadeFragment too_big = links::make_fragment(big);
  CHECK_FALSE(too_big.ok());
  CHECK(too_big.fragment.empty());
  CHECK(contains(too_big.error, "limit is 32768"));
  CHECK(contains(too_big.error, "Export JSON"));

  // 1024 tokens × d 64, every number 0 (the shortest JSON a number has): refused from its shape before
  // it is written, with the least size any such link has (196,608 numbers × "0," in base64 + "s=").
  Scene huge;
  huge.tokens.assign(1024, "t");
  huge.Q = huge.K = huge.V = attn::Matrix::Zero(1024, 64);
  const links::MadeFragment refused = links::make_fragment(huge);
  CHECK_FALSE(refused.ok());
  CHECK(refused.error ==
        "link: the scene needs a link of at least 524290 bytes, limit is 32768; share it with Export JSON "
        "instead");
  // The bound is a true lower bound: the same zeros at 96 tokens × d 16 (4,608 numbers, at least
  // 12,290 bytes) make a link of at least that size.
  Scene zeros;
  zeros.tokens.assign(96, "t");
  zeros.Q = zeros.K = zeros.V = attn::Matrix::Zero(96, 16);
  const links::MadeFragment made = links::make_fragment(zeros);
  REQUIRE(made.ok());
  CHECK(made.fragment.size() >= 12290);
}

TEST_CASE("round trip: random scenes through a link, every double bit-for-bit") {
  std::mt19937_64 rng(20240605);
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Scene want = random_scene(rng);
    REQUIRE(scene::validate(want).empty());
    const links::MadeFragment made = links::make_fragment(want, {Panel::Formula}, Panel::Scores);
    INFO("trial " << trial << ": " << made.error);
    REQUIRE(made.ok());
    const links::Fragment got = links::parse_fragment("#" + made.fragment);
    INFO(got.error);
    REQUIRE(got.ok());
    REQUIRE(got.scene.has_value());
    check_same_scene(*got.scene, want);
    // And the text is a fixed point: encoding the decoded scene gives the same link.
    CHECK(links::make_fragment(*got.scene, {Panel::Formula}, Panel::Scores).fragment == made.fragment);
    ++checked;
  }
  CHECK(checked == 300);
}

TEST_CASE("round trip: the hardest doubles one by one") {
  // Each value alone in Q, so a failure names it.
  for (const double x :
       {5e-324, -5e-324, DBL_MIN, DBL_MIN * (1 - DBL_EPSILON), 1e15, -1e15, 999999999999999.9, 0.1, 0.2 + 0.1,
        -0.0, 1e-310, 4.9406564584124654e-324 * 3, 1.7976931348623157e-300}) {
    Scene s;
    s.tokens = {"x"};
    s.Q = attn::Matrix::Constant(1, 1, x);
    s.K = attn::Matrix::Constant(1, 1, 1.0);
    s.V = attn::Matrix::Constant(1, 1, 1.0);
    const links::MadeFragment made = links::make_fragment(s);
    REQUIRE(made.ok());
    const links::Fragment got = parsed(made.fragment);
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", x);
    INFO("x = " << text);
    CHECK(bits_of(got.scene->Q(0, 0)) == bits_of(x));
  }
}

TEST_CASE("round trip: the bundled presets") {
  for (const scene::PresetInfo& info : scene::preset_list()) {
    INFO(info.name);
    const std::optional<Scene> want = scene::preset(info.name);
    REQUIRE(want.has_value());
    const links::MadeFragment made = links::make_fragment(*want);
    REQUIRE(made.ok());
    CHECK(made.fragment.size() < 10240);  // every preset fits in a short link (torch-mha: ~8.3 KiB)
    const links::Fragment got = parsed(made.fragment);
    check_same_scene(*got.scene, *want);
  }
}

#if AL_ALL_MODES
TEST_CASE("fragment: circuits= holds the Circuits mode's recipe, implies mode=circuits, round-trips") {
  // The recipe of the model the CLI trains with `--train induction --steps 450 --seed 1` (the
  // defaults: 2 layers × 2 heads, d_model 32, lr 0.01): scene/model_json.hpp's text form.
  const links::Fragment f = parsed("circuits=induction,2,2,32,1,0.01,450");
  CHECK(f.mode == links::Mode::Circuits);
  REQUIRE(f.circuits.has_value());
  CHECK(f.circuits->steps == 450);
  CHECK(f.circuits->config.seed == 1);
  CHECK(f.circuits->config.dims.layers == 2);
  CHECK(f.circuits->config.lr == 0.01);
  CHECK(!f.scene.has_value());
  CHECK(links::parse_fragment("circuits=induction,2,2,32,1,0.01,450&mode=circuits").ok());
  // Written with its mode and the view keys; read back to the same recipe.
  links::Appearance look;
  look.lang = "de";
  const links::MadeFragment made = links::make_circuits_fragment(*f.circuits, look);
  REQUIRE(made.ok());
  CHECK(made.fragment == "circuits=induction,2,2,32,1,0.01,450&mode=circuits&lang=de");
  const links::Fragment back = parsed(made.fragment);
  CHECK(scene::recipe_text(*back.circuits) == "induction,2,2,32,1,0.01,450");
  CHECK(back.lang == "de");
  // Errors name the key and keep nothing.
  const auto error_of = [](const char* text) { return links::parse_fragment(text).error; };
  CHECK(error_of("circuits=induction,2,2,32,1,0.01,450&mode=train") ==
        "link: circuits= belongs to mode=circuits, not mode=train");
  CHECK(error_of("circuits=induction,2,2,32,1,0.01,99999") ==
        "link: circuits=: recipe: steps: must be a whole number from 0 to 10000");
  CHECK(error_of("circuits=induction,2,2,32,1,0.01,1&circuits=induction,2,2,32,1,0.01,1") ==
        "link: circuits= appears twice");
  // A link without circuits= reads as before.
  CHECK(!links::parse_fragment("demo=causal-5&mode=train").circuits.has_value());
}

TEST_CASE("fragment: probe= holds what the Circuits model was probed with, only beside circuits=") {
  links::CircuitsProbe p;
  p.text = "abcd é";
  p.ablate = {"1.0", "0.1"};
  p.open_layer = 1;
  p.open_head = 1;
  // The compact JSON, base64url: {"text":"abcd é","ablate":["1.0","0.1"],"open":"1.1"}.
  const std::string value = links::circuits_probe_text(p);
  CHECK(links::base64url_decode(value).bytes ==
        "{\"text\":\"abcd é\",\"ablate\":[\"1.0\",\"0.1\"],\"open\":\"1.1\"}");
  const links::Fragment f = parsed("circuits=induction,2,2,32,1,0.01,450&probe=" + value + "&mode=circuits");
  CHECK(f.probe == value);
  CHECK(*links::parse_circuits_probe(f.probe).probe == p);
  CHECK(f.mode == links::Mode::Circuits);
  const links::MadeFragment made = links::make_circuits_fragment(*f.circuits, {}, &p);
  CHECK(made.fragment == "circuits=induction,2,2,32,1,0.01,450&probe=" + value + "&mode=circuits");
  // Each part is optional: an empty probe writes nothing, one part writes only that part.
  const links::CircuitsProbe empty;
  CHECK(links::make_circuits_fragment(*f.circuits, {}, &empty).fragment ==
        "circuits=induction,2,2,32,1,0.01,450&mode=circuits");
  links::CircuitsProbe only_open;
  only_open.open_layer = 0;
  only_open.open_head = 1;
  CHECK(links::base64url_decode(links::circuits_probe_text(only_open)).bytes == "{\"open\":\"0.1\"}");
  // Errors name the key and the field.
  const auto error_of = [](const std::string& text) { return links::parse_fragment(text).error; };
  const auto b64 = [](const std::string& json) { return links::base64url_encode(json); };
  CHECK(error_of("probe=" + b64("{}")) == "link: probe= belongs beside circuits= (the model it probes)");
  const std::string recipe = "circuits=induction,2,2,32,1,0.01,450&probe=";
  CHECK(error_of(recipe + b64("[1]")) == "link: probe: not a JSON object");
  CHECK(error_of(recipe + b64("{\"ablate\":[\"1.0:mean\"]}")) ==
        "link: probe: ablate: must be a list of heads \"L.H\"");
  CHECK(error_of(recipe + b64("{\"open\":\"x\"}")) == "link: probe: open: must be a head \"L.H\"");
  CHECK(error_of(recipe + b64("{\"text\":5}")) ==
        "link: probe: text: must be UTF-8 text of at most 2048 bytes");
  CHECK(error_of(recipe + b64("{\"seed\":1}")) ==
        "link: probe: unknown key \"seed\" (known: text, ablate, open)");
  CHECK(error_of(recipe + "a+b") == "link: probe: bad base64 at character 2: '+'");
}
#endif
