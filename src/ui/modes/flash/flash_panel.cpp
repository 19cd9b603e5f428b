// flash_panel.cpp — the FlashAttention mode: the tiled pass with the online softmax, one tile per
// step (core/online.hpp; the state is ui::FlashStepper).
//
// [SECTION] flash_tick: keep the pass on the shown step, Play
// [SECTION] draw_flash_panel: block size, Start / Prev / Next / Play, what the step did, memory
// [SECTION] draw_flash_tiles: the tiles over the Scores grid (done, current, skipped, not yet)
// [SECTION] draw_flash_rows: each query row's m, ℓ, rescale factor, partial and final output
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "ui/look/theme.hpp"
#include "ui/modes/flash/flash.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/step_controls.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {
namespace {

constexpr double kPlaySeconds = 0.8;  // Play: one tile per this many seconds
// Tiles this many pixels across or more are drawn one by one with their outlines; smaller ones (a big
// scene at a small block: 512² tiles under a pixel each at n = 1024, B = 2) would paint every pixel of
// the grid in outline colour many times over, and hundreds of thousands of rectangles each frame.
constexpr float kTileOutlinePx = 4.0f;

// A tiny difference in scientific notation: "1.1e-16".
std::string sci(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g", x);
  return text;
}

// Tokens a…b as "a–b" (or "a" for one).
std::string span(int begin, int end) {
  return end - begin == 1 ? std::to_string(begin) : std::to_string(begin) + "–" + std::to_string(end - 1);
}

}  // namespace

//-------------------------------------------------------------------------------------------------
// [SECTION] flash_tick
//-------------------------------------------------------------------------------------------------

void flash_tick(AppState& state) {
  FlashStepper& f = state.ui.flash;
  stepper_tick(state, {f.playing, f.play_clock, kPlaySeconds}, f.step, [&](int want) {
    flash_update(f, state.scene, state.result, result_key(state), want);
    return f.finished();
  });
}

//-------------------------------------------------------------------------------------------------
// [SECTION] draw_flash_panel
//-------------------------------------------------------------------------------------------------

void draw_flash_panel(AppState& state, const Fonts& fonts) {
  panel_header(state, fonts, tr(Text::FlashTitle), tr(Text::FlashHint), 3);
  FlashStepper& f = state.ui.flash;
  if (!state.computed || !f.pass) return;
  const attn::OnlinePass& pass = *f.pass;
  const int n = pass.n(), total = pass.step_count();
  const float em = ImGui::GetFontSize();

  // Block size.
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Text::BlockSize));
  ImGui::SameLine(
      std::max(6.0f * em, ImGui::GetCursorPosX() + ImGui::CalcTextSize(tr(Text::BlockSize)).x + 0.8f * em));
  ImGui::SetNextItemWidth(-FLT_MIN);
  int block = f.block;
  if (slider_int(state, "flash/block", "##flash-block", &block, 1, std::max(n, 2), tr(Text::BlockFormat),
                 {1, n, "block size B"}) &&
      block != f.block) {
    f.block = std::clamp(block, 1, n);
    f.step = 0;
    f.playing = false;
    flash_update(f, state.scene, state.result, result_key(state), 0);
  }

  // Start / Prev / Next / Play.
  const int want = step_controls(state, {"flash/start", "flash/prev", "flash/next", "flash/play"}, f.step,
                                 f.finished(), {f.playing, f.play_clock, kPlaySeconds});
  if (want != f.step) flash_update(f, state.scene, state.result, result_key(state), want);

  // What this step did.
  ImGui::Spacing();
  ImGui::PushFont(fonts.heading);
  ImGui::TextUnformatted(fill(tr(Text::StepOf), {std::to_string(f.step), std::to_string(total)}).c_str());
  ImGui::PopFont();
  if (f.step == 0) {
    wrapped_text(tr(Text::FlashBefore));
  } else {
    const attn::OnlineStep& st = f.last;
    wrapped_text(fill(tr(Text::FlashTile), {std::to_string(st.row_block), std::to_string(st.col_block),
                                            span(st.row_begin, st.row_end), span(st.col_begin, st.col_end)}));
    if (st.skipped) {
      ImGui::TextColored(to_vec4(palette::text_dim()), "%s", tr(Text::FlashSkipped));
    } else {
      int grew = 0;
      double smallest = 1.0;
      for (double a : st.rescale)
        if (a < 1.0) {
          ++grew;
          smallest = std::min(smallest, a);
        }
      if (grew > 0) {
        ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::query()));
        const std::string alpha = format_weight(smallest, 3);
        wrapped_text((grew == 1 ? fill(tr(Text::FlashGrewOne), {alpha})
                                : fill(tr(Text::FlashGrewMany), {std::to_string(grew), alpha})));
        ImGui::PopStyleColor();
      } else {
        wrapped_text(tr(Text::FlashNoGrowth));
      }
    }
  }
  if (f.finished()) {
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::accent()));
    wrapped_text(fill(tr(Text::FlashSame), {f.max_abs_diff == 0.0 ? std::string("0") : sci(f.max_abs_diff)}));
    ImGui::PopStyleColor();
  }

  // Memory: what the pass holds vs the matrix it never builds.
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::PushFont(fonts.small);
  const long long B = pass.block(), d_v = pass.O().cols();
  wrapped_text(fill(tr(Text::FlashMemory),
                    {std::to_string(B * B), std::to_string(n), std::to_string(static_cast<long long>(n) * n),
                     std::to_string(2 * n), std::to_string(n * d_v)}));
  wrapped_text(
      fill(tr(Text::FlashTiles), {std::to_string(pass.tiles_computed()), std::to_string(pass.tiles_skipped()),
                                  std::to_string(total - f.step)}));
  ImGui::PopFont();
  record_item_rect(state, "flash/memory");
}

//-------------------------------------------------------------------------------------------------
// [SECTION] draw_flash_tiles
//-------------------------------------------------------------------------------------------------

void draw_flash_tiles(AppState& state) {
  const FlashStepper& f = state.ui.flash;
  const GridGeometry& g = state.ui.frame.scores_grid;
  if (!f.pass || !g.visible || g.rows != f.pass->n()) return;
  const attn::OnlinePass& pass = *f.pass;
  const int B = pass.block(), blocks = pass.blocks(), n = pass.n();
  const float tile = float(B) * g.cell;  // a tile's side on screen
  if (!(tile > 0.0f) || f.hidden.size() != std::size_t(blocks) * std::size_t(blocks)) return;
  const auto hidden = [&](int rb, int cb) {
    return f.hidden[std::size_t(rb) * std::size_t(blocks) + std::size_t(cb)] != 0;
  };
  // Tile corner c (0 … blocks) on screen, along x and y.
  const auto x_at = [&](int c) { return g.origin.x + float(std::min(c * B, n)) * g.cell; };
  const auto y_at = [&](int c) { return g.origin.y + float(std::min(c * B, n)) * g.cell; };
  const float em = ImGui::GetFontSize();
  const float mark = std::max(2.0f, 0.2f * em);  // the current tile's outline
  // Only the tiles that meet the frame's visible part (zoomed in, a few of them), with a tile to
  // spare on each side for the current tile's outline, which reaches past its tile.
  const auto first_tile = [&](float lo, float origin) {
    return std::clamp(int(std::floor((lo - origin) / tile)) - 1, 0, blocks);
  };
  const auto end_tile = [&](float hi, float origin) {
    return std::clamp(int(std::ceil((hi - origin) / tile)) + 1, 0, blocks);
  };
  const int rb0 = first_tile(g.clip.y - mark, g.origin.y), rb1 = end_tile(g.clip.w + mark, g.origin.y);
  const int cb0 = first_tile(g.clip.x - mark, g.origin.x), cb1 = end_tile(g.clip.z + mark, g.origin.x);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(ImVec2(g.clip.x, g.clip.y), ImVec2(g.clip.z, g.clip.w), true);
  if (tile >= kTileOutlinePx) {
    // Each tile: dimmed until computed (darker when skipped), its outline, the current one marked.
    for (int rb = rb0; rb < rb1; ++rb)
      for (int cb = cb0; cb < cb1; ++cb) {
        const int k = rb * blocks + cb;  // execution order: query blocks outer, key blocks inner
        const ImVec2 a(x_at(cb), y_at(rb)), b(x_at(cb + 1), y_at(rb + 1));
        const bool done = k < f.step, current = k == f.step - 1, skipped = hidden(rb, cb);
        if (!done)
          dl->AddRectFilled(a, b,
                            palette::with_alpha(palette::background(), 190));  // not computed yet: dimmed
        if (skipped && done) dl->AddRectFilled(a, b, palette::with_alpha(palette::background(), 120));
        dl->AddRect(a, b, palette::tile_line(), 0.0f, 0, 1.0f);
        if (current)
          dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1),
                      skipped ? palette::text_dim() : palette::accent(), 0.0f, 0, mark);
      }
  } else {
    // Tiles under kTileOutlinePx: outlines would cover every pixel, so only the fills, merged — along
    // a row of tiles, each run of skipped tiles already computed is one rectangle, and everything not
    // computed yet (the rest of the current row of tiles, every row below it) is two. The same tile
    // shades each pixel as tile by tile (fills that abut cover each pixel once).
    const int row_now = f.step / blocks, col_now = f.step % blocks;  // tiles k < step are done
    const ImU32 dim = palette::with_alpha(palette::background(), 190);
    const ImU32 skipped_dim = palette::with_alpha(palette::background(), 120);
    const auto fill = [&](int r0, int r1, int c0, int c1, ImU32 color) {  // tiles [r0, r1) × [c0, c1) in view
      r0 = std::max(r0, rb0), r1 = std::min(r1, rb1), c0 = std::max(c0, cb0), c1 = std::min(c1, cb1);
      if (r0 < r1 && c0 < c1)
        dl->AddRectFilled(ImVec2(x_at(c0), y_at(r0)), ImVec2(x_at(c1), y_at(r1)), color);
    };
    fill(row_now, row_now + 1, col_now, blocks, dim);
    fill(row_now + 1, blocks, 0, blocks, dim);
    for (int rb = rb0; rb < std::min(rb1, row_now + 1); ++rb) {
      const int done_end = std::min(cb1, rb < row_now ? blocks : col_now);
      for (int cb = cb0; cb < done_end;) {
        if (!hidden(rb, cb)) {
          ++cb;
          continue;
        }
        const int run = cb;
        while (cb < done_end && hidden(rb, cb)) ++cb;
        fill(rb, rb + 1, run, cb, skipped_dim);
      }
    }
    if (f.step > 0) {
      const int rb = (f.step - 1) / blocks, cb = (f.step - 1) % blocks;
      dl->AddRect(ImVec2(x_at(cb) - 1, y_at(rb) - 1), ImVec2(x_at(cb + 1) + 1, y_at(rb + 1) + 1),
                  hidden(rb, cb) ? palette::text_dim() : palette::accent(), 0.0f, 0, mark);
    }
  }
  dl->PopClipRect();
}

//-------------------------------------------------------------------------------------------------
// [SECTION] draw_flash_rows
//-------------------------------------------------------------------------------------------------

void draw_flash_rows(AppState& state, const Fonts& fonts) {
  panel_header(state, fonts, tr(Text::FlashRowsTitle), tr(Text::FlashRowsHint), 1);
  const FlashStepper& f = state.ui.flash;
  if (!state.computed || !f.pass) return;
  const attn::OnlinePass& pass = *f.pass;
  const attn::Result& r = state.result;
  const int n = pass.n(), d_v = int(pass.O().cols());
  const float em = ImGui::GetFontSize();
  ImGui::PushFont(fonts.small);
  const float digit_w = ImGui::CalcTextSize("0").x;
  ImGui::PopFont();

  // Scale of the m bars: the largest |scaled score| over allowed cells (kept with the pass).
  const double s_max = f.scaled_max;

  const float label_w = 4.5f * em, bar_w = 7.5f * em, alpha_w = 4.2f * em;
  const float out_w = std::max(float(d_v) * 7.0f * digit_w, 6.0f * em);
  const float row_h = 1.7f * em;
  const float total_w = label_w + 2.0f * (bar_w + 0.5f * em) + alpha_w + 2.0f * out_w + 1.0f * em;
  ImGui::BeginChild("##flash-rows", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // Column heads.
  const ImVec2 head = ImGui::GetCursorScreenPos();
  const float x_m = head.x + label_w, x_l = x_m + bar_w + 0.5f * em, x_a = x_l + bar_w + 0.5f * em;
  const float x_p = x_a + alpha_w, x_f = x_p + out_w + 0.5f * em;
  ImGui::PushFont(fonts.small);
  dl->AddText(ImVec2(x_m, head.y), palette::text_dim(), tr(Text::FlashColMax));
  dl->AddText(ImVec2(x_l, head.y), palette::text_dim(), tr(Text::FlashColSum));
  dl->AddText(ImVec2(x_a, head.y), palette::text_dim(), "α");
  dl->AddText(ImVec2(x_p, head.y), palette::text_dim(), tr(Text::FlashColNow));
  dl->AddText(ImVec2(x_f, head.y), palette::text_dim(), "softmax · V");
  ImGui::PopFont();
  ImGui::Dummy(ImVec2(total_w, fonts.small->FontSize + 0.3f * em));

  ImGuiListClipper clipper;
  clipper.Begin(n, row_h);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const bool in_block = f.step > 0 && i >= f.last.row_begin && i < f.last.row_end;
      if (in_block)
        dl->AddRectFilled(p, ImVec2(p.x + total_w, p.y + row_h - 0.15f * em), palette::accent_soft(),
                          0.2f * em);
      const float text_y = p.y + 0.5f * (row_h - ImGui::GetTextLineHeight());
      dl->AddText(ImVec2(p.x, text_y), palette::text(),
                  fit_text(state.scene.tokens[std::size_t(i)], label_w - 0.4f * em).c_str());
      const double m = pass.m()[std::size_t(i)], l = pass.l()[std::size_t(i)];
      const bool seen = l > 0.0;
      ImGui::PushFont(fonts.small);
      const float bar_y0 = p.y + 0.15f * em, bar_y1 = p.y + row_h - 0.3f * em;
      auto track = [&](float x) {
        dl->AddRectFilled(ImVec2(x, bar_y0), ImVec2(x + bar_w, bar_y1), palette::track(), 0.15f * em);
      };
      // m: signed bar from the track's middle.
      track(x_m);
      if (seen) {
        const float mid = x_m + 0.5f * bar_w;
        const float end = mid + float(std::clamp(m / s_max, -1.0, 1.0)) * 0.5f * bar_w;
        dl->AddRectFilled(ImVec2(std::min(mid, end), bar_y0), ImVec2(std::max(mid, end), bar_y1),
                          palette::with_alpha(palette::key(), 150));
      }
      const std::string m_text = seen ? format_number(m, 3) : "−∞";
      dl->AddText(ImVec2(x_m + 0.3f * em, text_y), palette::text(), m_text.c_str());
      // ℓ: from 0 up to n (each exp(s − m) ≤ 1).
      track(x_l);
      if (seen)
        dl->AddRectFilled(ImVec2(x_l, bar_y0), ImVec2(x_l + bar_w * float(std::min(l / n, 1.0)), bar_y1),
                          palette::with_alpha(palette::value(), 150));
      dl->AddText(ImVec2(x_l + 0.3f * em, text_y), palette::text(), format_number(l, 3).c_str());
      // α: only where this step rescaled.
      if (in_block && f.last.rescale[std::size_t(i - f.last.row_begin)] < 1.0) {
        const std::string a = "×" + format_weight(f.last.rescale[std::size_t(i - f.last.row_begin)], 3, 7);
        dl->AddText(ImVec2(x_a, text_y), palette::query(), a.c_str());  // α in q's orange
      }
      // Partial O / ℓ next to the final output.
      std::string partial, final_row;
      for (int c = 0; c < d_v; ++c) {
        partial += (c ? "  " : "") + (seen ? format_number(f.partial(i, c), 3) : std::string("—"));
        final_row += (c ? "  " : "") + format_number(r.output(i, c), 3);
      }
      const bool same = seen && (f.partial.row(i) - r.output.row(i)).cwiseAbs().maxCoeff() <= 1e-12;
      dl->AddText(ImVec2(x_p, text_y), same ? palette::accent() : palette::text(), partial.c_str());
      dl->AddText(ImVec2(x_f, text_y), palette::text_dim(), final_row.c_str());
      ImGui::PopFont();
      ImGui::Dummy(ImVec2(total_w, row_h));
    }
  }
  ImGui::EndChild();
  record_item_rect(state, "flash/rows");
}

}  // namespace ui
