// model_scores.hpp — what the heads of a model (core/model.hpp) do, as numbers: the in-context
// score, each head's previous-token and prefix-matching scores, K-composition between layers.
//
// All but the composition are measured on repeated random sequences: k random tokens t_0 … t_{k−1}
// followed by the same k again (t_{k+j} = t_j), n = 2k tokens, positions 0 … 2k−1.
//   first-copy loss   mean of −log p(t_{i+1} | t_≤i) over i = 0 … k−2  (inside the first copy: nothing
//                     earlier tells what comes next)
//   second-copy loss  the same over i = k … 2k−2  (each t_{i+1} = t_{i+1−k} stood in the first copy)
//   in-context score  second-copy loss − first-copy loss: Olsson et al. 2022's "loss at a late token
//                     minus loss at an early token", here late = the second copy and early = the
//                     first, k − 1 predictions each (position k−1, predicting t_k = t_0, is in
//                     neither: nothing can predict the repeat's start). Negative when the model uses
//                     its context; about −(first-copy loss) for a perfect induction circuit.
//   previous-token    per head, the mean of A[i][i−1] over i = 1 … 2k−1 (attention to the token just
//                     before)
//   prefix-matching   per head, the mean of A[i][i−k+1] over i = k … 2k−1: from a token of the second
//                     copy to the token after its earlier occurrence (Olsson et al.)
// each averaged over the given sequences (equal weight per position).
//
// K-composition (Elhage et al. 2021) between head a of layer 0 and head b of layer 1, in the row
// convention of model.hpp (x W; TransformerLens's):
//   W_OV^a = W_V^a W_O^a                 D×D: what head a writes, x ↦ x W_OV
//   W_QK^b = W_Q^b W_K^bᵀ                D×D: head b's scores, S[i,j] = x_i W_QK x_jᵀ / √d_head
// When b's keys read a's output (x_j → x_j W_OV^a) the scores become x_i W_QK^b W_OV^aᵀ x_jᵀ, so
//   K-comp(a, b) = ‖W_QK^b W_OV^aᵀ‖_F / (‖W_QK^b‖_F ‖W_OV^a‖_F)          (in [0, 1])
// This is Elhage et al.'s ‖W_QK W_OV‖_F / (‖W_QK‖_F ‖W_OV‖_F), written there with column vectors
// (W_QK = W_Qᵀ W_K, W_OV = W_O W_V: the transposes of the matrices above); their ‖W_QKᵀ W_OV‖ is
// Q-composition. Equal to TransformerLens's get_comp_score(W_OV^a, W_QK^bᵀ).
#pragma once

#include <vector>

#include "core/model.hpp"

namespace attn::model {

struct Scores {
  double loss = 0.0;                                 // mean next-token loss over all 2k − 1 predictions
  double first_copy_loss = 0.0;                      // see above
  double second_copy_loss = 0.0;                     // see above
  double in_context = 0.0;                           // second_copy_loss − first_copy_loss
  std::vector<std::vector<double>> previous_token;   // [layer][head]
  std::vector<std::vector<double>> prefix_matching;  // [layer][head]
};

// `sequences`: each 2k tokens, its second half equal to its first (k ≥ 2), 2k ≤ n_ctx.
Scores measure(const Model& m, const std::vector<std::vector<int>>& sequences, const Ablation& ablation = {});

// The scores of already computed passes over such sequences (what measure() does after forward()).
Scores scores_of(const std::vector<Forward>& passes);

// ‖A B‖_F / (‖A‖_F ‖B‖_F), 0 when either is zero.
double composition_score(const Matrix& A, const Matrix& B);
// H₀×H₁: K-comp(a, b) for head a of `from_layer` and head b of `to_layer` (see above). Empty when the
// model has fewer than to_layer + 1 layers.
Matrix k_composition(const Model& m, int from_layer = 0, int to_layer = 1);

// What the model predicts after each position: the most likely next symbol and its probability.
struct Prediction {
  int token = 0;        // t_i, the token at the position
  int predicted = 0;    // argmax of logits_i (the first largest)
  double p = 0.0;       // softmax(logits_i)[predicted]
  double p_next = 0.0;  // softmax(logits_i)[t_{i+1}], the probability of what did come next (0 at the end)
};
std::vector<Prediction> predictions(const Forward& f);

// A role for a head once its scores say so (the labels of the Circuits mode's grid): "induction"
// when its prefix-matching score is ≥ 0.5 (and the head is in a layer ≥ 1: in layer 0 nothing has
// told a position what came before it), else "previous token" when its previous-token score is
// ≥ 0.5, else "".
const char* head_role(int layer, double previous_token, double prefix_matching);

// The induction head has formed: some head of a layer ≥ 1 has prefix-matching ≥ 0.5 and the
// second copy's loss is below half the first copy's.
bool induction_formed(const Scores& s);

}  // namespace attn::model
