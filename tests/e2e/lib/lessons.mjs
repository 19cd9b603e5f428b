// lessons.mjs — the worked examples' numbers of docs/LESSONS.md, from the one fixture file the C++,
// Python and JS tests share (tests/fixtures/lessons.json).
import { readFileSync } from "node:fs";

export const lessons = JSON.parse(readFileSync(new URL("../../fixtures/lessons.json", import.meta.url), "utf8"));
