// heatmap.frag — colour each cell of a rows×cols matrix from its value.
//
// u_values:   R32F texture, cols×rows texels, row-major like attn::Matrix; read with texelFetch
//             (R32F is not filterable in WebGL2, and each cell is one flat colour anyway).
//             A value ≥ 1e29 marks a masked cell (score −∞): drawn hatched, not coloured.
// u_colormap: RGBA8 256×N lookup table, one colormap per row (ui/colormap.cpp is the CPU copy,
//             so the numbers ImGui writes on top can pick a contrasting text colour).
// t = (value − lo) / (hi − lo), clamped to [0, 1], selects the colour.
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
in vec2 v_uv;
out vec4 frag_color;

void main() {
  vec2 cell_pos = mix(u_view.xy, u_view.zw, v_uv);
  ivec2 cell = clamp(ivec2(floor(cell_pos)), ivec2(0), u_grid - 1);
  // Position inside the cell in pixels: a thin gap separates neighbouring cells.
  vec2 inside = (cell_pos - vec2(cell)) * u_cell_px;
  float half_gap = 0.5 * u_gap_px;
  if (any(lessThan(inside, vec2(half_gap))) || any(greaterThan(inside, u_cell_px - half_gap))) {
    frag_color = u_gap_color;
    return;
  }
  float value = texelFetch(u_values, cell, 0).r;
  if (value >= 1e29) {
    // Masked (−∞ before softmax): diagonal stripes, fixed to the screen so neighbours line up.
    float stripe = mod(gl_FragCoord.x + gl_FragCoord.y, u_hatch_px);
    frag_color = stripe < 0.3 * u_hatch_px ? u_hatch_color : u_gap_color;
    return;
  }
  float span = max(u_range.y - u_range.x, 1e-12);
  float t = clamp((value - u_range.x) / span, 0.0, 1.0);
  frag_color = texelFetch(u_colormap, ivec2(int(t * 255.0 + 0.5), u_colormap_row), 0);
}
