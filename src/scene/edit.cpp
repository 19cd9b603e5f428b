// edit.cpp — resizing and the exact direct ↔ projected conversions (see edit.hpp).
#include "scene/edit.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "scene/variant_keys.hpp"

namespace scene {
namespace {

// Salts of fresh_value per matrix, so Q, K and V (and X and the W's) of a new token differ.
enum Salt {
  kSaltQ = 1,
  kSaltK = 2,
  kSaltV = 3,
  kSaltX = 4,
  kSaltWq = 5,
  kSaltWk = 6,
  kSaltWv = 7,
  kSaltWo = 8
};

// rows×cols keeping the top-left block of `m`; new entries from fresh_value(salt), or 0.
void resize_keep(attn::Matrix& m, int rows, int cols, int salt, bool new_rows_zero = false) {
  attn::Matrix out(rows, cols);
  for (int i = 0; i < rows; ++i) {
    for (int c = 0; c < cols; ++c) {
      if (i < m.rows() && c < m.cols())
        out(i, c) = m(i, c);
      else
        out(i, c) = (new_rows_zero && i >= m.rows()) ? 0.0 : fresh_value(i, c, salt);
    }
  }
  m = std::move(out);
}

// d_model×d selection block: rows [offset, offset + d) are the identity, the rest 0.
attn::Matrix selection(int d_model, int offset, int d) {
  attn::Matrix w = attn::Matrix::Zero(d_model, d);
  w.block(offset, 0, d, d) = attn::Matrix::Identity(d, d);
  return w;
}

}  // namespace

double fresh_value(int row, int col, int salt) {
  const double x = std::sin(12.9898 * (row + 1) + 78.233 * (col + 1) + 37.719 * salt) * 43758.5453;
  return std::round((2.0 * (x - std::floor(x)) - 1.0) * 100.0) / 100.0;
}

int model_dim(const Scene& s) {
  return s.mode == Mode::Projected ? static_cast<int>(s.X.cols()) : 0;
}

std::string make_learned(Scene& s) {
  if (s.mode == Mode::Projected) return "Make learned: the scene is already learned (X, W_q, W_k, W_v)";
#if AL_ALL_MODES
  // X = [Q | K | V] needs one row per token for all three; the sources' K and V have m rows of their own.
  if (is_cross_attention(s))
    return "Make learned: a cross-attention scene's keys and values belong to its sources, not its tokens; "
           "give X, X_src, W_q, W_k, W_v in the scene file";
#endif
  // K has d_k columns, or d_k·H_kv/h when heads share K/V groups (grouped-query attention).
  const int n = s.n(), d_k = s.d_k(), d_key = static_cast<int>(s.K.cols()), d_v = s.d_v();
  const long long d_model = static_cast<long long>(d_k) + d_key + d_v;
  if (d_model > kMaxDim)
    return "Make learned: d_model = 2·d_k + d_v = " + std::to_string(d_model) + " is over the limit " +
           std::to_string(kMaxDim) + "; make d_k or d_v smaller first";
  // X = [Q | K | V]: n × d_model, token i's embedding is its query, key and value side by side.
  attn::Matrix X(n, static_cast<Eigen::Index>(d_model));
  X << s.Q, s.K, s.V;
  s.Wq = selection(int(d_model), 0, d_k);            // picks columns 0 … d_k−1       → Q
  s.Wk = selection(int(d_model), d_k, d_key);        // picks the next d_key columns    → K
  s.Wv = selection(int(d_model), d_k + d_key, d_v);  // picks the last d_v columns      → V
  s.X = std::move(X);
  s.Q.resize(0, 0);
  s.K.resize(0, 0);
  s.V.resize(0, 0);
  s.mode = Mode::Projected;
  return {};
}

std::string make_direct(Scene& s) {
  if (s.mode == Mode::Direct) return "Edit Q, K, V directly: the scene is already direct";
  // The core's own products (the full matrices, before any split into heads), so the direct scene
  // attends over exactly the matrices shown.
  attn::HeadsResult r = compute_heads(s);
  if (r.Q.size() == 0) return "Edit Q, K, V directly: " + validate(s);
  Scene direct = s;
  direct.mode = Mode::Direct;
  direct.Q = std::move(r.Q);
  direct.K = std::move(r.K);
  direct.V = std::move(r.V);
  direct.X.resize(0, 0);
  direct.Wq.resize(0, 0);
  direct.Wk.resize(0, 0);
  direct.Wv.resize(0, 0);
#if AL_ALL_MODES
  if (direct.variants && direct.variants->X_src.size() != 0) {  // cross-attention: K, V are the sources'
    VariantKeys keys = *direct.variants;
    keys.X_src.resize(0, 0);
    direct.variants = std::make_shared<const VariantKeys>(std::move(keys));
  }
#endif
  if (std::string problem = validate(direct); !problem.empty())
    return "Edit Q, K, V directly: " + problem + " (X·W is too large for a direct scene)";
  s = std::move(direct);
  return {};
}

void set_token_count(Scene& s, int n) {
  n = std::clamp(n, 1, kMaxTokens);
  const int old_n = s.n();
  if (n == old_n) return;
  s.tokens.resize(n);
  for (int i = old_n; i < n; ++i) s.tokens[i] = "t" + std::to_string(i);
  // Cross-attention's keys and values belong to the m sources: only the queries follow n.
  const int m = is_cross_attention(s) ? int(key_count(s)) : n;
  if (s.mode == Mode::Direct) {
    const int d_k = s.d_k(), d_v = s.d_v();
    resize_keep(s.Q, n, d_k, kSaltQ);
    resize_keep(s.K, m, int(s.K.cols()), kSaltK);  // d_k, or d_k·H_kv/h with shared K/V groups
    resize_keep(s.V, m, d_v, kSaltV);
  } else {
    resize_keep(s.X, n, int(s.X.cols()), kSaltX);  // a new token is a new embedding row
  }
  if (s.mask.size() > 0) {
    attn::MaskMatrix mask = attn::MaskMatrix::Ones(n, m);
    const int keep = std::min(old_n, n), keep_cols = std::min(int(s.mask.cols()), m);
    mask.topLeftCorner(keep, keep_cols) = s.mask.topLeftCorner(keep, keep_cols);
    s.mask = std::move(mask);
  }
}

void set_key_dim(Scene& s, int d_k) {
  d_k = std::clamp(d_k, 1, kMaxDim);
  if (d_k == s.d_k()) return;
  // Shared K/V groups (kv_heads < heads): K keeps d_k/h columns per group.
  const int d_key = s.kv() != s.heads && s.heads > 0 && d_k % s.heads == 0 ? d_k / s.heads * s.kv() : d_k;
  if (s.mode == Mode::Direct) {
    resize_keep(s.Q, s.n(), d_k, kSaltQ);
    resize_keep(s.K, int(key_count(s)), d_key, kSaltK);
  } else {
    resize_keep(s.Wq, int(s.Wq.rows()), d_k, kSaltWq);
    resize_keep(s.Wk, int(s.Wk.rows()), d_key, kSaltWk);
  }
}

void set_value_dim(Scene& s, int d_v) {
  d_v = std::clamp(d_v, 1, kMaxDim);
  if (d_v == s.d_v()) return;
  if (s.mode == Mode::Direct)
    resize_keep(s.V, int(key_count(s)), d_v, kSaltV);
  else
    resize_keep(s.Wv, int(s.Wv.rows()), d_v, kSaltWv);
  // Multi-head output map W_o (h·d_v/H_kv × d_out): one row per column of the concat.
  if (s.Wo.size() > 0) resize_keep(s.Wo, s.concat_dim(), int(s.Wo.cols()), kSaltWo);
}

std::string set_model_dim(Scene& s, int d_model) {
  if (s.mode != Mode::Projected) return "d_model: only a learned scene (X, W_q, W_k, W_v) has d_model";
  d_model = std::clamp(d_model, 1, kMaxDim);
  if (d_model == model_dim(s)) return {};
  resize_keep(s.X, s.n(), d_model, kSaltX);
  // New rows of the W's are 0: a new feature of x changes nothing until its W rows are edited.
  resize_keep(s.Wq, d_model, int(s.Wq.cols()), kSaltWq, /*new_rows_zero=*/true);
  resize_keep(s.Wk, d_model, int(s.Wk.cols()), kSaltWk, true);
  resize_keep(s.Wv, d_model, int(s.Wv.cols()), kSaltWv, true);
  return {};
}

namespace {

// `m`'s columns regrouped from `from` groups of `width` into `to` groups, both dividing h. When `to`
// is a multiple of `from`, each old group is repeated (exact); otherwise the groups are first
// repeated to one per head (t reads old group t / (h / from)) and each new group is the mean of its
// h / to heads, summed in head order.
attn::Matrix regroup(const attn::Matrix& m, int from, int to, int width, int h) {
  attn::Matrix out(m.rows(), static_cast<Eigen::Index>(to) * width);
  for (int g = 0; g < to; ++g) {
    if (to % from == 0) {
      out.middleCols(g * width, width) = m.middleCols(g / (to / from) * width, width);
      continue;
    }
    const int k = h / to;  // heads per new group
    attn::Matrix sum = m.middleCols((g * k) / (h / from) * width, width);
    for (int t = g * k + 1; t < (g + 1) * k; ++t) sum += m.middleCols(t / (h / from) * width, width);
    out.middleCols(g * width, width) = sum / static_cast<double>(k);
  }
  return out;
}

}  // namespace

std::string set_kv_heads(Scene& s, int kv_heads) {
  const int h = s.heads, from = s.kv();
  if (kv_heads < 1 || kv_heads > h || h % kv_heads != 0)
    return "kv_heads: must divide heads = " + std::to_string(h) + ", got " + std::to_string(kv_heads);
  if (kv_heads == from) return {};
  const int dk_head = s.d_k() / h, dv_head = s.d_v() / from;
  Scene out = s;
  attn::Matrix& K = out.mode == Mode::Direct ? out.K : out.Wk;
  attn::Matrix& V = out.mode == Mode::Direct ? out.V : out.Wv;
  K = regroup(K, from, kv_heads, dk_head, h);
  V = regroup(V, from, kv_heads, dv_head, h);
  out.kv_heads = kv_heads == h ? 0 : kv_heads;
  if (std::string problem = validate(out); !problem.empty()) return problem;
  s = std::move(out);
  return {};
}

}  // namespace scene
