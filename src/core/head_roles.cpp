// head_roles.cpp — each head's scores on a text and the role they name (head_roles.hpp).
#include "core/head_roles.hpp"

#include <cmath>
#include <cstddef>

namespace attn::model {

std::vector<HeadRole> head_roles(const Forward& f) {
  std::vector<HeadRole> out;
  const int n = static_cast<int>(f.tokens.size());
  // For each position, the latest earlier position holding the same token (−1: none).
  std::vector<int> earlier(static_cast<std::size_t>(n), -1);
  for (int i = 1; i < n; ++i)
    for (int j = i - 1; j >= 0; --j)
      if (f.tokens[static_cast<std::size_t>(j)] == f.tokens[static_cast<std::size_t>(i)]) {
        earlier[static_cast<std::size_t>(i)] = j;
        break;
      }
  for (std::size_t l = 0; l < f.layers.size(); ++l)
    for (std::size_t h = 0; h < f.layers[l].heads.size(); ++h) {
      const Matrix& A = f.layers[l].heads[h].weights;
      HeadRole r;
      r.layer = static_cast<int>(l);
      r.head = static_cast<int>(h);
      double prefix = 0.0, mean_log_len = 0.0;
      int prefix_count = 0;
      for (int i = 1; i < n; ++i) {
        r.previous_token += A(i, i - 1);
        r.first_token += A(i, 0);
        r.self += A(i, i);
        double entropy = 0.0;
        for (int j = 0; j <= i; ++j)
          if (A(i, j) > 0) entropy -= A(i, j) * std::log2(A(i, j));
        r.entropy += entropy;
        mean_log_len += std::log2(static_cast<double>(i + 1));
        const int j = earlier[static_cast<std::size_t>(i)];
        if (j >= 0 && j + 1 < i) {
          prefix += A(i, j + 1);
          ++prefix_count;
        }
      }
      const double rows = n > 1 ? n - 1 : 1;
      r.previous_token /= rows;
      r.first_token /= rows;
      r.self /= rows;
      r.entropy /= rows;
      mean_log_len /= rows;
      r.prefix_matching = prefix_count ? prefix / prefix_count : -1.0;
      const std::pair<double, const char*> named[] = {{r.previous_token, "previous-token"},
                                                      {r.first_token, "first-token"},
                                                      {r.self, "self"},
                                                      {r.prefix_matching, "induction"}};
      double best = 0.4;
      r.role = "";
      for (const auto& [score, name] : named)
        if (score >= best) best = score, r.role = name;
      if (r.role.empty()) r.role = n > 1 && r.entropy >= 0.5 * mean_log_len ? "broad" : "mixed";
      out.push_back(std::move(r));
    }
  return out;
}

}  // namespace attn::model
