// Mutation testing of the page scripts' logic (StrykerJS, pinned in package.json): the pure
// functions of runs.js and report.js (each file up to its `const logic = {` line; the rest
// draws the page and is covered by the browser tests), against their node tests.
//   sh scripts/mutation-js.sh
import { readFileSync } from "node:fs";

function logicOf(file) {
  const lines = readFileSync(file, "utf8").split("\n");
  const end = lines.findIndex((line) => line.includes("const logic = {"));
  if (end < 0) { throw new Error(`${file}: no "const logic = {" line`); }
  return `${file}:1-${end}`;
}

export default {
  testRunner: "command",
  commandRunner: { command: "node --test tests/js/runs.test.js tests/js/report.test.js" },
  mutate: [logicOf("templates/assets/runs.js"), logicOf("templates/assets/report.js")],
  coverageAnalysis: "off",
  concurrency: 2,
  reporters: ["clear-text", "progress"],
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
  ignorePatterns: ["/*", "!/templates", "!/tests", "/tests/*", "!/tests/js", "!/package.json", "!/stryker.config.mjs"],
  timeoutMS: 20000,
};
