// minify.mjs — the site's JavaScript made smaller for the download (src/app/CMakeLists.txt runs it
// on every .js file of the site folder; README, Performance, says what it saves).
//
//   node scripts/minify/minify.mjs IN OUT [IN OUT …]   each IN minified into OUT (OUT may be IN)
//
// terser with two compress passes and local names mangled. Top-level names stay as they are: the
// page's scripts share globals (window.Module, window.attentionLab) and Emscripten's glue is one
// script whose top-level functions the wasm imports by name through its import object.
import { readFile, writeFile } from "node:fs/promises";
import { minify } from "terser";

const args = process.argv.slice(2);
if (args.length === 0 || args.length % 2 !== 0) {
  console.error("usage: node minify.mjs IN OUT [IN OUT …]");
  process.exit(2);
}
for (let i = 0; i < args.length; i += 2) {
  const [input, output] = [args[i], args[i + 1]];
  const code = await readFile(input, "utf8");
  let result;
  try {
    result = await minify(code, { compress: { passes: 2 }, mangle: true, format: { comments: false } });
  } catch (error) {
    console.error(`minify: ${input}: ${error.message}`);
    process.exit(1);
  }
  await writeFile(output, result.code);
}
