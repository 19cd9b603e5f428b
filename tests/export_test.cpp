// Export tests (scene/export): the lesson examples as LaTeX and SVG text, the scripts' exact input
// numbers, and errors naming the field. No file I/O: this also runs as wasm. The scripts themselves
// are run by Python in export_test.py (NumPy, PyTorch) against the CLI.
#include "scene/export.hpp"

#include <doctest/doctest.h>

#include <initializer_list>
#include <string>

#include "helpers.hpp"
#include "scene/colormap.hpp"

namespace {

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// Each of `parts` stands in `text` (a CHECK each, naming the part that is missing).
void check_has(const std::string& text, std::initializer_list<const char*> parts) {
  for (const char* part : parts) {
    INFO("missing: ", part);
    CHECK(text.find(part) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("export latex: lesson 1's weights, first row [0.155 0.422 0.422] (LESSONS.md)") {
  const scene::Scene s = *scene::preset("practice-qkv");
  // The lesson's A (tests/fixtures/lessons.json) at 3 decimals, row by row: "0.155 & 0.422 & 0.422 \\".
  const auto latex_rows = [](const attn::Matrix& m, int decimals) {
    std::string rows;
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
      for (Eigen::Index j = 0; j < m.cols(); ++j) rows += (j ? " & " : "") + printed(m(i, j), decimals);
      rows += i + 1 < m.rows() ? " \\\\\n" : "\n";
    }
    return rows;
  };
  const std::string tex = scene::export_latex(s, scene::ExportStage::Weights);
  CHECK(tex.find("\\begin{bmatrix}\n" + latex_rows(lesson_matrix("practice-qkv", "weights"), 3) +
                 "\\end{bmatrix}\n") != std::string::npos);
  // Output Y, 6 decimals: LESSONS.md's full values.
  const std::string y = scene::export_latex(s, scene::ExportStage::Output, 6);
  CHECK(y.find("\\begin{bmatrix}\n" + latex_rows(lesson_matrix("practice-qkv", "output"), 6) + "\\end{bmatrix}\n") !=
        std::string::npos);
  CHECK(y.find("% columns: dimensions 1..4") != std::string::npos);
}

TEST_CASE("export latex: lesson 4's causal mask is -\\infty in the scaled stage, 0 in the weights") {
  const scene::Scene s = *scene::preset("causal-5");
  const std::string tex = scene::export_latex(s, scene::ExportStage::Scaled, 2);
  const std::string scaled = tex.substr(tex.find("\\begin{bmatrix}"));
  CHECK(count(scaled, "-\\infty") == 10);  // the strict upper triangle of 5×5
  CHECK(count(scaled, " \\\\\n") == 4);    // 5 rows
  const std::string weights = scene::export_latex(s, scene::ExportStage::Weights, 0);
  check_has(weights,
            {"\\begin{bmatrix}\n1 & 0 & 0 & 0 & 0 \\\\\n", "% rows (queries): the, cat, sat, on, mats"});
}

TEST_CASE("export numpy / pytorch: the inputs as exact literals, the app's conventions spelled out") {
  scene::Scene s = *scene::preset("soft-dictionary");
  s.Q(0, 0) = 0.1;  // not a short binary fraction: must print as 0.1, which reads back exactly
  s.scale = {attn::ScaleMode::Temperature, 0.3};
  s.causal = true;
  s.mask = attn::MaskMatrix::Ones(s.n(), s.n());
  const std::string py = scene::export_numpy(s);
  check_has(py, {"[0.1, 0.0]", "s = 0.3  # the temperature T", "allowed &= np.tril(", "allowed &= mask == 1",
                 "0/0 = NaN"});
  const std::string torch = scene::export_pytorch(*scene::preset("practice-qkv"));
  check_has(torch, {"q_proj = nn.Linear(4, 2, bias=False, dtype=torch.float64)", "q_proj.weight.copy_(Wq.T)",
                    "torch.where(allowed.any(dim=-1, keepdim=True)"});
}

TEST_CASE("export svg: one cell per weight in viridis, masked cells hatched (lesson 4)") {
  const std::string svg = scene::export_svg(*scene::preset("causal-5"), scene::ExportStage::Weights);
  CHECK(svg.rfind("<?xml", 0) == 0);
  CHECK(count(svg, "class=\"cell\"") == 15);
  CHECK(count(svg, "class=\"cell masked\"") == 10);
  // Row 0 attends only to itself: weight 1 = viridis(1) = #FDE725 (matplotlib's last entry).
  CHECK(svg.find("data-row=\"0\" data-col=\"0\"") < svg.find("fill=\"#FDE725\""));
  CHECK(svg.find("fill=\"#FDE725\"><title>the → the: 1.000000</title>") != std::string::npos);
  const std::uint8_t* top = scene::colormap_entry(scene::Colormap::Viridis, 1.0f);
  CHECK((top[0] == 0xFD && top[1] == 0xE7 && top[2] == 0x25));
}

TEST_CASE("export: bad kind, stage or digits name the field; nothing is produced") {
  const scene::Scene s = *scene::preset("causal-5");
  CHECK(scene::export_scene(s, "numpy").ok());
  scene::ExportResult r = scene::export_scene(s, "matlab");
  CHECK(r.error.rfind("export: unknown kind \"matlab\"", 0) == 0);
  CHECK(r.text.empty());
  r = scene::export_scene(s, "latex", "softmax");
  CHECK(r.error.rfind("stage: unknown stage", 0) == 0);
  r = scene::export_scene(s, "latex", "weights", 16);
  CHECK(r.error.rfind("digits: must be 0 to 15", 0) == 0);
  scene::Scene broken = s;
  broken.K.resize(2, 2);
  r = scene::export_scene(broken, "numpy");
  CHECK(r.error.rfind("K:", 0) == 0);
  CHECK(r.text.empty());
}

TEST_CASE("export pytorch: the torch-mha preset as nn.MultiheadAttention with its weights set") {
  const std::string py = scene::export_pytorch(*scene::preset("torch-mha"));
  CHECK(py.find("mha = nn.MultiheadAttention(E, h, bias=False, batch_first=True, dtype=torch.float64)") !=
        std::string::npos);
  check_has(py, {"mha.in_proj_weight.copy_(torch.cat([Wq.T, Wk.T, Wv.T]))", "mha.out_proj.weight.copy_(Wo.T)",
                 "average_attn_weights=True"});
  // NumPy writes the heads out: a loop over h = 2 heads, their outputs concatenated, then Wo.
  const std::string np = scene::export_numpy(*scene::preset("torch-mha"));
  check_has(np, {"h = 2  # heads", "output = concat @ Wo", "weights = sum(head_weights) / h"});
}
