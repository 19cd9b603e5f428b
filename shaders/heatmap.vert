// heatmap.vert — one screen-space quad per heatmap, generated from gl_VertexID (no vertex buffer).
// The `#version` line (and precision for GLSL ES) is prepended at runtime:
// "#version 300 es" for WebGL2, "#version 330 core" for desktop OpenGL 3.3.
//
// u_rect:    the heatmap's rectangle in ImGui display coordinates (x0, y0, x1, y1), y down.
// u_display: ImGui's DisplayPos (xy) and DisplaySize (zw); maps display coordinates to clip space.
// v_uv:      (0,0) at the top-left cell's corner, (1,1) at the bottom-right one.
uniform vec4 u_rect;
uniform vec4 u_display;
out vec2 v_uv;

void main() {
  // Triangle strip: 0 = top-left, 1 = top-right, 2 = bottom-left, 3 = bottom-right.
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
  vec2 pos = mix(u_rect.xy, u_rect.zw, corner);
  vec2 ndc = (pos - u_display.xy) / u_display.zw * 2.0 - 1.0;
  gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
  v_uv = corner;
}
