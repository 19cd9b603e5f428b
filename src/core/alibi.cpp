// alibi.cpp — ALiBi's slopes and bias (formulas in alibi.hpp).
#include "core/alibi.hpp"

#include <cmath>
#include <cstdlib>

namespace attn {

double alibi_slope(int head, int heads) {
  return std::pow(2.0, -8.0 * (head + 1) / heads);
}

Matrix alibi_bias(int n, double slope) {
  Matrix bias(n, n);
  for (int query_i = 0; query_i < n; ++query_i)
    for (int key_j = 0; key_j < n; ++key_j)
      bias(query_i, key_j) = slope * -std::abs(query_i - key_j);  // +0 on the diagonal
  return bias;
}

}  // namespace attn
