// head_roles.hpp — what each head of a model does on one text, as numbers a learner can read next to
// its pattern (the Model mode's labels, --lm-eval --roles). For a head's pattern A (n×n, causal):
//   previous_token   mean of A[i][i−1] over i = 1 … n−1        (attention to the token just before)
//   first_token      mean of A[i][0] over i = 1 … n−1          (the "attention sink" share)
//   self             mean of A[i][i] over i = 1 … n−1
//   entropy          mean over i = 1 … n−1 of −Σ_j A[i][j] log₂ A[i][j], in bits (high = broad)
//   prefix_matching  over the positions i whose token occurred earlier (its latest earlier occurrence
//                    at j < i, with j + 1 < i), the mean of A[i][j+1]: attention to the token that
//                    followed the earlier copy (Olsson et al.'s induction score; the Circuits mode's
//                    prefix-matching on its repeated sequences). −1 when no token repeats.
// Row 0 (which can only attend to itself) is left out of every mean. The role named is the largest
// of previous_token, first_token, self and prefix_matching when it is at least 0.4, else "broad"
// when the entropy is at least half of log₂ of the mean row length, else "mixed".
#pragma once

#include <string>
#include <vector>

#include "core/model.hpp"

namespace attn::model {

struct HeadRole {
  int layer = 0, head = 0;
  double previous_token = 0, first_token = 0, self = 0, entropy = 0, prefix_matching = -1;
  std::string role;  // "previous-token", "first-token", "self", "induction", "broad" or "mixed"
};

std::vector<HeadRole> head_roles(const Forward& f);

}  // namespace attn::model
