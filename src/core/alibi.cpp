// alibi.cpp — ALiBi's slopes and bias (formulas in alibi.hpp).
#include "core/alibi.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

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

void add_bias(const Matrix& scaled, const Matrix& bias, int i0, int i1, int j0, int j1, Matrix& logits) {
  constexpr double kMax = std::numeric_limits<double>::max();
  for (int query_i = i0; query_i < i1; ++query_i)
    for (int key_j = j0; key_j < j1; ++key_j)
      logits(query_i, key_j) = std::clamp(scaled(query_i, key_j) + bias(query_i, key_j), -kMax, kMax);
}

bool window_allows(int query_i, int key_j, int window, int sinks, bool causal) {
  if (window <= 0 || key_j < sinks) return true;  // no window, or a sink: always visible
  const int distance = query_i - key_j;
  return causal ? distance >= 0 && distance < window : std::abs(distance) < window;
}

void hide_outside_window(MaskMatrix& allowed, int window, int sinks, bool causal) {
  const int n = static_cast<int>(allowed.rows());
  for (int query_i = 0; query_i < n; ++query_i)
    for (int key_j = 0; key_j < n; ++key_j)
      if (!window_allows(query_i, key_j, window, sinks, causal)) allowed(query_i, key_j) = 0;
}

}  // namespace attn
