// traces.cpp — JSON of the step-by-step passes (see traces.hpp).
#include "scene/traces.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/alibi.hpp"
#include "scene/json_text.hpp"

namespace scene {
namespace {

using ordered_json = nlohmann::ordered_json;

ordered_json row_json(const attn::Matrix& m, Eigen::Index i) {
  ordered_json row = ordered_json::array();
  for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
  return row;
}

std::string dump(const ordered_json& j) {
  return j.dump(-1, ' ', /*ensure_ascii=*/false, ordered_json::error_handler_t::replace);
}

}  // namespace

attn::Options options_of(const Scene& s, int head) {
  attn::Options options;
  options.scale = s.scale;
  options.causal = s.causal;
  options.mask = s.mask;
  options.window = s.window;
  options.sinks = s.sinks;
  if (s.alibi) options.alibi_slope = attn::alibi_slope(head, std::max(s.heads, 1));
  return options;
}

attn::HeadsOptions heads_options_of(const Scene& s) {
  attn::HeadsOptions variants;
  variants.kv_heads = s.kv();
  variants.alibi = s.alibi;
  return variants;
}

std::string online_step_json(const attn::OnlineStep& step) {
  ordered_json j;
  j["row_block"] = step.row_block;
  j["col_block"] = step.col_block;
  j["skipped"] = step.skipped;
  ordered_json m = ordered_json::array();
  for (double x : step.m) {
    if (std::isinf(x))
      m.push_back(nullptr);  // no allowed cell seen yet
    else
      m.push_back(x);
  }
  j["m"] = std::move(m);
  j["l"] = step.l;
  j["rescale"] = step.rescale;
  j["O"] = json_text::matrix_json(step.O);
  return dump(j);
}

std::string decode_step_json(const attn::DecodeStep& step, bool with_policy) {
  ordered_json j;
  j["t"] = step.t;
  j["cache_len"] = step.cache_len;
  if (with_policy) {
    j["kept"] = step.kept;
    j["evicted"] = step.evicted;
  }
  j["weights"] = row_json(step.weights, 0);
  j["output"] = row_json(step.output, 0);
  return dump(j);
}

std::string matrix_rows_json(const attn::Matrix& m, int indent) {
  if (indent < 0 || m.rows() == 0) return dump(json_text::matrix_json(m));
  const std::string outer(static_cast<std::size_t>(indent), ' '), inner = outer + outer;
  std::string out = "[";
  for (Eigen::Index i = 0; i < m.rows(); ++i) out += (i ? ",\n" : "\n") + inner + dump(row_json(m, i));
  return out + "\n" + outer + "]";
}

std::string number_json(double x) {
  return dump(ordered_json(x));
}

}  // namespace scene
