// minify.mjs — the site's JavaScript and CSS made smaller for the download (src/app/CMakeLists.txt
// runs it on every .js and .css file of the site folder; README, Performance, says what it saves).
//
//   node scripts/minify/minify.mjs IN OUT [IN OUT …]   each IN minified into OUT (OUT may be IN)
//
// terser with two compress passes and local names mangled. Top-level names stay as they are: the
// page's scripts share globals (window.Module, window.attentionLab) and Emscripten's glue is one
// script whose top-level functions the wasm imports by name through its import object.
// A .css file: clean-css at level 2 (comments, whitespace, merged rules; the same cascade).
import { readFile, writeFile } from "node:fs/promises";
import { minify } from "terser";
import CleanCSS from "clean-css";

const args = process.argv.slice(2);
if (args.length === 0 || args.length % 2 !== 0) {
  console.error("usage: node minify.mjs IN OUT [IN OUT …]");
  process.exit(2);
}
for (let i = 0; i < args.length; i += 2) {
  const [input, output] = [args[i], args[i + 1]];
  const code = await readFile(input, "utf8");
  if (input.endsWith(".css")) {
    const css = new CleanCSS({ level: 2 }).minify(code);
    if (css.errors.length || css.warnings.length) {
      console.error(`minify: ${input}: ${[...css.errors, ...css.warnings].join("; ")}`);
      process.exit(1);
    }
    await writeFile(output, css.styles);
    continue;
  }
  let result;
  try {
    result = await minify(code, { compress: { passes: 2 }, mangle: true, format: { comments: false } });
  } catch (error) {
    console.error(`minify: ${input}: ${error.message}`);
    process.exit(1);
  }
  await writeFile(output, result.code);
}
