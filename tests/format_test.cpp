// Number formatting of the panels (src/ui/number_format): the lessons' numbers must read as the
// lessons print them, and an almost-0 / almost-1 weight must never read as an exact one.
#include <doctest/doctest.h>

#include "core/attention.hpp"
#include "helpers.hpp"
#include "ui/text/number_format.hpp"

using ui::format_distinct;
using ui::format_number;
using ui::format_weight;
using ui::text_length;

namespace {

// LESSONS.md example 2, soft dictionary (unscaled): K = [[10,0],[0,10]], V = [[1,2],[3,4]], q = [1,0]
// (row 0; row 1 is the other key's query [0,1], as in the soft-dictionary preset).
attn::Result soft_dictionary() {
  attn::Options options;
  options.scale.mode = attn::ScaleMode::None;
  return attn::attend(lesson_matrix("soft-dictionary", "Q"), lesson_matrix("soft-dictionary", "K"),
                      lesson_matrix("soft-dictionary", "V"), options);
}

}  // namespace

TEST_CASE("format_number: fixed decimals, a real minus sign, no negative zero") {
  CHECK(format_number(0.422319, 3) == "0.422");
  CHECK(format_number(-1.5, 2) == "−1.50");
  CHECK(format_number(-0.0001, 2) == "0.00");
  CHECK(format_number(10.0, 0) == "10");
  CHECK(format_number(1.0 / 0.0, 3) == "∞");
  CHECK(format_number(-1.0 / 0.0, 3) == "−∞");
  CHECK(format_number(1e300, 2).size() == 301 + 3);  // every digit, not a truncated buffer
}

TEST_CASE("soft dictionary (LESSONS.md 2): weights 0.999955 / 0.000045 do not read as 1 / 0") {
  const attn::Result r = soft_dictionary();
  // The lesson prints weights [0.999955, 0.000045] (tests/fixtures/lessons.json).
  const attn::Matrix weights = lesson_matrix("soft-dictionary", "weights"),
                     output = lesson_matrix("soft-dictionary", "output");
  CHECK(format_weight(r.weights(0, 0), 3) == printed(weights(0, 0), 6));
  CHECK(format_weight(r.weights(0, 1), 3) == "4.5e-5");
  // Fixed decimals alone would say "1.000" and "0.000": exactly what the panels must not show.
  CHECK(format_number(r.weights(0, 0), 3) == "1.000");
  CHECK(format_number(r.weights(0, 1), 3) == "0.000");
  // Output [1.000091, 2.000091], almost exactly the first value row [1, 2].
  CHECK(format_distinct(r.output(0, 0), r.V(0, 0), 3) == printed(output(0, 0), 6));
  CHECK(format_distinct(r.output(0, 1), r.V(0, 1), 3) == printed(output(0, 1), 6));
}

TEST_CASE("format_weight: within a character budget, falling back to fewer digits, then ≈") {
  const attn::Result r = soft_dictionary();
  const double one = r.weights(0, 0), zero = r.weights(0, 1);  // 0.9999546, 4.5398e-5
  CHECK(format_weight(one, 3, 7) == "0.99995");                // one significant digit of 1 − w = 4.5e-5
  CHECK(format_weight(one, 3, 6) == "≈1");
  CHECK(format_weight(zero, 3, 4) == "5e-5");
  CHECK(format_weight(zero, 3, 3) == "≈0");
  CHECK(text_length("≈0") == 2);
  CHECK(text_length("−0.50") == 5);
}

TEST_CASE("format_weight: ordinary weights keep the fixed decimals of the lessons' printouts") {
  // LESSONS.md example 1 (practice Q, K, V): A rounded to 3 places, first row [0.155 0.422 0.422].
  const attn::Matrix a = lesson_matrix("practice-qkv", "weights");
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j) CHECK(format_weight(a(i, j), 3) == printed(a(i, j), 3));
  const attn::Matrix row0 = lesson_matrix("practice-qkv", "weights_row0_3_places");
  CHECK(format_weight(a(0, 0), 3) == printed(row0(0, 0), 3));
  // LESSONS.md example 4 (causal): masked weights are exactly 0, token 0 sees only itself (weight 1).
  CHECK(format_weight(0.0, 3) == "0");
  CHECK(format_weight(1.0, 3) == "1.000");
  // A weight just below ½·10^-decimals: fixed text when shorter than scientific.
  CHECK(format_weight(0.04, 1) == "0.040");
  CHECK(format_weight(0.04, 1, 4) == "0.04");
  CHECK(format_weight(0.0004, 3) == "4.0e-4");
  CHECK(format_weight(0.0005, 3) == "0.001");  // rounds to a visible 0.001 already
}

TEST_CASE("format_distinct: more decimals only when the fixed text hides a difference") {
  // LESSONS.md example 1: Y[0] = [0.577681, 0.844638, …]: differs from V's entries at 3 decimals.
  CHECK(format_distinct(0.577681, 1.0, 3) == "0.578");
  CHECK(format_distinct(1.0, 1.0, 3) == "1.000");            // equal: nothing to reveal
  CHECK(format_distinct(2.999909, 3.0, 3) == "2.999909");    // second row of the soft dictionary
  CHECK(format_distinct(1.000091, 1.0, 3, 7) == "1.00009");  // one significant digit fits
  CHECK(format_distinct(1.000091, 1.0, 3, 6) == "1.0001");   // still not "1.0000"
  CHECK(format_distinct(1.000091, 1.0, 3, 5) == "1.000");    // nothing fits: the fixed text
  CHECK(format_distinct(0.99996, 1.0, 3, 7) == "0.99996");
  CHECK(format_distinct(0.99996, 1.0, 3, 6) == "1.000");    // "1.0000" would hide it: fixed text
  CHECK(format_distinct(1.0 + 1e-300, 1.0, 3) == "1.000");  // below a double's precision
}
