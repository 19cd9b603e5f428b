// heatmap.frag — colour each cell of a rows×cols matrix from its value.
//
// u_values:   R32F texture, cols×rows texels, row-major like attn::Matrix; read with texelFetch
//             (R32F is not filterable in WebGL2, and each cell is one flat colour anyway).
//             A value ≥ 1e29 marks a masked cell (score −∞): drawn hatched, not coloured.
// u_colormap: RGBA8 256×N lookup table, one colormap per row (ui/colormap.cpp is the CPU copy,
//             so the numbers ImGui writes on top can pick a contrasting text colour).
// t = (value − lo) / (hi − lo), clamped to [0, 1], selects the colour.
//
// More cells than pixels (a 1024×1024 grid in 300 pixels): a pixel covers a block of about
// (1/u_cell_px.x) × (1/u_cell_px.y) cells, and u_aggregate says what it shows of them —
//   0  the one cell under its centre (a sample: a thin band can fall between samples and vanish)
//   1  the largest value (weights: a sharp band stays visible at any size)
//   2  the mean of the block's allowed cells
//   3  the value of largest magnitude, with its sign (scores: strong negatives stay visible too)
// Masked cells take no part; a block of masked cells only is hatched. At most 32×32 cells per pixel
// are read (beyond that, every k-th row and column of the block).
uniform sampler2D u_values;
uniform sampler2D u_colormap;
uniform int u_colormap_row;
uniform vec2 u_range;       // lo, hi
uniform ivec2 u_grid;       // cols, rows
uniform vec4 u_view;        // the cells shown (zoom): col0, row0, col1, row1; (0, 0, cols, rows) = all
uniform vec2 u_cell_px;     // one cell's size in framebuffer pixels
uniform float u_gap_px;     // gap between cells in framebuffer pixels (0 = none)
uniform float u_hatch_px;   // hatch stripe period in framebuffer pixels
uniform vec4 u_gap_color;   // gaps and the hatch background
uniform vec4 u_hatch_color; // hatch stripes
uniform int u_aggregate;    // 0 sample, 1 max, 2 mean, 3 largest magnitude (above)
in vec2 v_uv;
out vec4 frag_color;

const float kMasked = 1e29;

vec4 hatch() {
  // Masked (−∞ before softmax): diagonal stripes, fixed to the screen so neighbours line up.
  float stripe = mod(gl_FragCoord.x + gl_FragCoord.y, u_hatch_px);
  return stripe < 0.3 * u_hatch_px ? u_hatch_color : u_gap_color;
}

// The block of cells under this pixel, aggregated as u_aggregate says; kMasked when all are masked.
float block_value(vec2 cell_pos) {
  vec2 half_px = 0.5 / u_cell_px;  // half a pixel, in cells
  ivec2 c0 = clamp(ivec2(floor(cell_pos - half_px)), ivec2(0), u_grid - 1);
  ivec2 c1 = clamp(ivec2(ceil(cell_pos + half_px)) - 1, c0, u_grid - 1);
  ivec2 stride = max((c1 - c0) / 32 + 1, ivec2(1));
  float best = -3.4e38, extreme = 0.0, sum = 0.0;
  int count = 0;
  for (int y = c0.y; y <= c1.y; y += stride.y) {
    for (int x = c0.x; x <= c1.x; x += stride.x) {
      float v = texelFetch(u_values, ivec2(x, y), 0).r;
      if (v >= kMasked) continue;
      best = max(best, v);
      if (abs(v) > abs(extreme) || count == 0) extreme = v;
      sum += v;
      ++count;
    }
  }
  if (count == 0) return kMasked;
  return u_aggregate == 1 ? best : u_aggregate == 2 ? sum / float(count) : extreme;
}

void main() {
  vec2 cell_pos = mix(u_view.xy, u_view.zw, v_uv);
  ivec2 cell = clamp(ivec2(floor(cell_pos)), ivec2(0), u_grid - 1);
  float value;
  if (u_aggregate != 0 && (u_cell_px.x < 1.0 || u_cell_px.y < 1.0)) {
    value = block_value(cell_pos);
  } else {
    // Position inside the cell in pixels: a thin gap separates neighbouring cells.
    vec2 inside = (cell_pos - vec2(cell)) * u_cell_px;
    float half_gap = 0.5 * u_gap_px;
    if (any(lessThan(inside, vec2(half_gap))) || any(greaterThan(inside, u_cell_px - half_gap))) {
      frag_color = u_gap_color;
      return;
    }
    value = texelFetch(u_values, cell, 0).r;
  }
  if (value >= kMasked) {
    frag_color = hatch();
    return;
  }
  float span = max(u_range.y - u_range.x, 1e-12);
  float t = clamp((value - u_range.x) / span, 0.0, 1.0);
  frag_color = texelFetch(u_colormap, ivec2(int(t * 255.0 + 0.5), u_colormap_row), 0);
}
