// heatmap_renderer.hpp — draws matrices as coloured cells with shaders/heatmap.{vert,frag}.
//
// Each MatrixSlot owns an R32F texture (cols×rows, the matrix as floats) uploaded only when the
// image's version or size changes — and then, when the image says which rows and columns changed
// since the version the texture holds, only those (upload_changes). paint() uploads and queues an ImDrawList
// callback; when ImGui's GL backend reaches it, draw() binds our program and draws one quad, then ImGui's
// render state is restored (ImDrawCallback_ResetRenderState). Each paint keeps its own rectangle and view
// (a Paint record, kept until the next frame's first paint), so one texture can be painted several times
// a frame: a mosaic of heads, each painted under its own caption. Up to kMaxPaints paints a frame.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "render/gl.hpp"
#include "ui/widgets/matrix_painter.hpp"

namespace render {

class HeatmapRenderer final : public ui::MatrixPainter {
 public:
  // `glsl_version` is the first shader line: "#version 300 es" (WebGL2) or "#version 330 core".
  explicit HeatmapRenderer(std::string glsl_version) : glsl_version_(std::move(glsl_version)) {}
  ~HeatmapRenderer() override;

  // Create the program, the colormap texture and the empty vertex array. False (see error()) on
  // failure. Call again after a lost GL context is restored: old names are abandoned, not deleted.
  bool create_device_objects();
  void destroy_device_objects();
  void forget_device_objects();  // after a context loss: the names are invalid, drop them
  const std::string& error() const { return error_; }
  const std::string& glsl_version() const { return glsl_version_; }

  void paint(ImDrawList* draw_list, ImVec2 min, ImVec2 max, const ui::MatrixImage& image) override;

 private:
  struct Slot {
    GLuint texture = 0;
    int rows = 0, cols = 0;
    std::uint64_t version = ~std::uint64_t(0);
  };
  // One paint's draw parameters, read by its callback when ImGui's backend renders the frame.
  struct Paint {
    HeatmapRenderer* owner = nullptr;
    const Slot* slot = nullptr;
    ImVec4 rect;  // x0, y0, x1, y1 in ImGui coordinates
    int colormap_row = 0;
    float lo = 0, hi = 1, gap_px = 0;
    int aggregate = 0;  // ui::CellAggregate
    ImVec4 view;        // cells shown: col0, row0, col1, row1
  };
  static void draw_callback(const ImDrawList* list, const ImDrawCmd* cmd);
  void draw(const Paint& paint, const ImDrawCmd* cmd);
  void upload(Slot& slot, const ui::MatrixImage& image);
  // glTexSubImage2D of the changed rows (runs of neighbours at once) and columns (each gathered into
  // `column_` first: one texel wide, `rows` high). False when a whole upload is cheaper.
  bool upload_changes(const Slot& slot, const ui::MatrixImage& image);

  std::string glsl_version_;
  std::string error_;
  GLuint program_ = 0, vao_ = 0, colormap_texture_ = 0;
  GLint u_rect_ = -1, u_display_ = -1, u_values_ = -1, u_colormap_ = -1, u_colormap_row_ = -1, u_range_ = -1,
        u_grid_ = -1, u_view_ = -1, u_cell_px_ = -1, u_gap_px_ = -1, u_hatch_px_ = -1, u_gap_color_ = -1,
        u_hatch_color_ = -1, u_aggregate_ = -1;
  std::array<Slot, std::size_t(ui::MatrixSlot::Count)> slots_{};
  // This frame's paints; the callbacks hold their addresses, so a fixed array (no allocation code
  // in the first load either). A frame paints at most about 25 (Explore with 16 heads and legends).
  static constexpr int kMaxPaints = 64;
  std::array<Paint, kMaxPaints> paints_{};
  int paint_count_ = 0;
  int paints_frame_ = -1;      // ImGui's frame count when paint_count_ was last reset
  std::vector<float> column_;  // a changed column's values, contiguous for glTexSubImage2D
};

}  // namespace render
