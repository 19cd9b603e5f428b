// generate.cpp — see generate.hpp.
#include "scene/generate.hpp"

#include <cmath>
#include <vector>

#include "core/lookup.hpp"

namespace scene {
namespace {

// The patterns by name (--gen PATTERN,…), in the order the controls list them.
constexpr attn::Row<Pattern, const char*> kPatternNames[] = {
    {Pattern::Random, "random"}, {Pattern::Local, "local"},       {Pattern::Previous, "previous"},
    {Pattern::Sink, "sink"},     {Pattern::Periodic, "periodic"}, {Pattern::Block, "block"},
};

// splitmix64: a tiny, well-mixed generator whose output is the same on every platform
// (std::uniform_real_distribution is not specified bit for bit).
struct Rng {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  double unit() { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  double symmetric() { return 2.0 * unit() - 1.0; }           // [−1, 1)
};

// 3 decimals: short JSON, and the same bits wherever it is computed.
double round3(double x) {
  return std::round(x * 1000.0) / 1000.0;
}

constexpr double kPi = 3.14159265358979323846;

// cos and sin of t by reduction to [−π/4, π/4] and Taylor polynomials in +, −, × only (no libm,
// whose last bit may differ between builds); error ~1e-16, far below the 3 decimals kept.
void cos_sin(double t, double* c, double* s) {
  const double quarter = kPi / 2;
  const double k = std::round(t / quarter);  // t = k·π/2 + r
  const double r = t - k * quarter;
  const double r2 = r * r;
  double cr = 1.0, sr = 1.0, term_c = 1.0, term_s = 1.0;
  for (int i = 1; i <= 10; ++i) {
    term_c *= -r2 / double((2 * i - 1) * (2 * i));
    term_s *= -r2 / double((2 * i) * (2 * i + 1));
    cr += term_c;
    sr += term_s;
  }
  sr *= r;
  const long long quadrant = static_cast<long long>(k) & 3;
  switch (quadrant) {
    case 0:
      *c = cr, *s = sr;
      break;
    case 1:
      *c = -sr, *s = cr;
      break;
    case 2:
      *c = -cr, *s = -sr;
      break;
    default:
      *c = sr, *s = -cr;
      break;
  }
}

// Position features of token `pos`: [cos(ω_m pos), sin(ω_m pos)] in columns 2m, 2m+1 of row `row`,
// scaled by `gain` (an odd last column stays as it is).
void put_features(attn::Matrix& M, int row, double pos, const std::vector<double>& omega, double gain) {
  for (std::size_t m = 0; m < omega.size(); ++m) {
    double c = 0, s = 0;
    cos_sin(omega[m] * pos, &c, &s);
    M(row, Eigen::Index(2 * m)) = gain * c;
    M(row, Eigen::Index(2 * m + 1)) = gain * s;
  }
}

bool parse_uint(std::string_view text, std::uint64_t max, std::uint64_t* out) {
  if (text.empty() || text.size() > 10 || (text.size() > 1 && text[0] == '0')) return false;
  std::uint64_t v = 0;
  for (char ch : text) {
    if (ch < '0' || ch > '9') return false;
    v = v * 10 + std::uint64_t(ch - '0');
  }
  if (v > max) return false;
  *out = v;
  return true;
}

}  // namespace

std::string_view pattern_name(Pattern pattern) {
  return attn::lookup(kPatternNames, pattern, "random");
}

std::optional<Pattern> pattern_from_name(std::string_view name) {
  return attn::key_named(kPatternNames, name);
}

std::string pattern_names() {
  return attn::comma_list(kPatternNames, [](const auto& row) { return row.value; });
}

GenParse parse_gen(std::string_view text) {
  GenParse result;
  std::string_view fields[5];
  int count = 0;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    if (count == 5) {
      result.error = "gen: expected 5 fields PATTERN,N,D_K,D_V,SEED, got more";
      return result;
    }
    fields[count++] =
        text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (count != 5) {
    result.error = "gen: expected 5 fields PATTERN,N,D_K,D_V,SEED, got " + std::to_string(count);
    return result;
  }
  GenSpec spec;
  const std::optional<Pattern> pattern = pattern_from_name(fields[0]);
  if (!pattern) {
    result.error = "gen: unknown pattern '" + std::string(fields[0].substr(0, 32)) +
                   "' (patterns: " + pattern_names() + ")";
    return result;
  }
  spec.pattern = *pattern;
  struct Field {
    const char* name;
    std::uint64_t lo, hi;
  };
  const Field checks[4] = {{"n", 1, std::uint64_t(kMaxTokens)},
                           {"d_k", 1, std::uint64_t(kMaxDim)},
                           {"d_v", 1, std::uint64_t(kMaxDim)},
                           {"seed", 0, 4294967295ULL}};
  std::uint64_t values[4];
  for (int f = 0; f < 4; ++f) {
    if (!parse_uint(fields[f + 1], checks[f].hi, &values[f]) || values[f] < checks[f].lo) {
      result.error = std::string("gen: ") + checks[f].name + " must be an integer " +
                     std::to_string(checks[f].lo) + " … " + std::to_string(checks[f].hi) + ", got '" +
                     std::string(fields[f + 1].substr(0, 32)) + "'";
      return result;
    }
  }
  spec.n = int(values[0]);
  spec.d_k = int(values[1]);
  spec.d_v = int(values[2]);
  spec.seed = std::uint32_t(values[3]);
  result.spec = spec;
  return result;
}

std::string gen_text(const GenSpec& spec) {
  return std::string(pattern_name(spec.pattern)) + "," + std::to_string(spec.n) + "," +
         std::to_string(spec.d_k) + "," + std::to_string(spec.d_v) + "," + std::to_string(spec.seed);
}

Scene generate(const GenSpec& spec) {
  const int n = spec.n, d_k = spec.d_k, d_v = spec.d_v;
  Rng rng{0x5EEDULL * 0x100000000ULL + spec.seed};
  Scene s;
  s.tokens.resize(std::size_t(n));
  for (int i = 0; i < n; ++i) s.tokens[std::size_t(i)] = "t" + std::to_string(i);
  s.mode = Mode::Direct;
  s.scale = attn::Scale{};  // √d_k
  s.Q = attn::Matrix::Zero(n, d_k);
  s.K = attn::Matrix::Zero(n, d_k);
  s.V.resize(n, d_v);
  for (Eigen::Index i = 0; i < s.V.size(); ++i) s.V.data()[i] = round3(rng.symmetric());

  // Small noise everywhere, so no two tokens are identical and the grid is not too clean.
  auto add_noise = [&](attn::Matrix& M, double amount) {
    for (Eigen::Index i = 0; i < M.size(); ++i) M.data()[i] += amount * rng.symmetric();
  };
  const int pairs = d_k / 2;  // position features use columns 0 … 2·pairs − 1
  // Gain α so the preferred key's scaled score is ~`peak` above a typical other: q·k = α² Σ_m …
  // ≈ α²·pairs at the peak, divided by √d_k.
  auto gain_for = [&](double peak) {
    return pairs > 0 ? std::sqrt(peak * std::sqrt(double(d_k)) / pairs) : 1.0;
  };
  std::vector<double> omega(static_cast<std::size_t>(pairs));

  switch (spec.pattern) {
    case Pattern::Random:
      for (Eigen::Index i = 0; i < s.Q.size(); ++i) s.Q.data()[i] = rng.symmetric();
      for (Eigen::Index i = 0; i < s.K.size(); ++i) s.K.data()[i] = rng.symmetric();
      break;
    case Pattern::Local:
    case Pattern::Previous: {
      // local: frequencies in (0, π/8): Σ cos(ω Δ) is a bump about ±5 positions wide.
      // previous: frequencies in (0, π): Σ cos(ω Δ) ≈ 0 for every integer Δ ≠ 0 (a sharp peak);
      // random, not evenly spaced, so the sum has no period that would repeat the peak.
      const double top = spec.pattern == Pattern::Local ? kPi / 8 : kPi;
      for (double& w : omega) w = top * (0.05 + 0.95 * rng.unit());
      const double gain = gain_for(spec.pattern == Pattern::Local ? 6.0 : 12.0);
      const double shift = spec.pattern == Pattern::Previous ? 1.0 : 0.0;
      for (int i = 0; i < n; ++i) {
        put_features(s.Q, i, double(i) - shift, omega, gain);
        put_features(s.K, i, double(i), omega, gain);
      }
      add_noise(s.Q, 0.05);
      add_noise(s.K, 0.05);
      break;
    }
    case Pattern::Periodic: {
      // Frequencies 2π·h/8, h = 1 … 4: Σ cos(ω Δ) peaks exactly when Δ ≡ 0 (mod 8).
      for (std::size_t m = 0; m < omega.size(); ++m) omega[m] = 2 * kPi * double(1 + m % 4) / 8.0;
      const double gain = gain_for(8.0);
      for (int i = 0; i < n; ++i) {
        put_features(s.Q, i, double(i), omega, gain);
        put_features(s.K, i, double(i), omega, gain);
      }
      add_noise(s.Q, 0.05);
      add_noise(s.K, 0.05);
      break;
    }
    case Pattern::Sink: {
      // Every query shares a direction u; token 0's key points along it, the others are small and
      // random: q_i · k_0 is large for every i.
      for (Eigen::Index i = 0; i < s.Q.size(); ++i) s.Q.data()[i] = 0.5 * rng.symmetric();
      for (Eigen::Index i = 0; i < s.K.size(); ++i) s.K.data()[i] = 0.5 * rng.symmetric();
      const double gain = std::sqrt(8.0 * std::sqrt(double(d_k)));  // q·k_0 ≈ gain², scaled ≈ 8
      for (int i = 0; i < n; ++i) s.Q(i, 0) = gain;
      s.K(0, 0) = gain;
      break;
    }
    case Pattern::Block: {
      // Segments of 16 tokens, each with a random unit direction c_s; q_i and k_j are c of their
      // segment: q_i · k_j is large within a segment, near 0 across (random directions are nearly
      // orthogonal when d_k is large).
      const int segment = 16;
      const double gain = std::sqrt(8.0 * std::sqrt(double(d_k)));
      std::vector<double> c(static_cast<std::size_t>(d_k));
      for (int s0 = 0; s0 < n; s0 += segment) {
        double norm2 = 0;
        for (double& v : c) {
          v = rng.symmetric();
          norm2 += v * v;
        }
        const double scale = gain / std::sqrt(norm2 > 0 ? norm2 : 1.0);
        for (int i = s0; i < n && i < s0 + segment; ++i)
          for (int col = 0; col < d_k; ++col) s.Q(i, col) = s.K(i, col) = scale * c[std::size_t(col)];
      }
      add_noise(s.Q, 0.05);
      add_noise(s.K, 0.05);
      break;
    }
  }
  for (Eigen::Index i = 0; i < s.Q.size(); ++i) s.Q.data()[i] = round3(s.Q.data()[i]);
  for (Eigen::Index i = 0; i < s.K.size(); ++i) s.K.data()[i] = round3(s.K.data()[i]);
  return s;
}

}  // namespace scene
