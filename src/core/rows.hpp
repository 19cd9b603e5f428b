// rows.hpp — a matrix written row by row, as the lessons print them: rows_of({{1, 0}, {0, 1}}).
// Used by the presets and the tests (one copy).
#pragma once

#include <initializer_list>

#include "core/attention.hpp"

namespace attn {

// rows.size() × rows.begin()->size(); every row must have the first row's length.
inline Matrix rows_of(std::initializer_list<std::initializer_list<double>> rows) {
  Matrix m(static_cast<Eigen::Index>(rows.size()),
           rows.size() == 0 ? Eigen::Index{0} : static_cast<Eigen::Index>(rows.begin()->size()));
  Eigen::Index i = 0;
  for (const auto& row : rows) {
    Eigen::Index j = 0;
    for (double v : row) m(i, j++) = v;
    ++i;
  }
  return m;
}

}  // namespace attn
