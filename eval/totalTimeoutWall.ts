/**
 * Does a run keep to --total-timeout within 10 %? Each input runs through the library with a
 * small --total-timeout (and a --timeout as large, so the budget is the one that ends it), and
 * the wall time of runSnippet is compared with the budget. A wall-clock figure, so it is an eval
 * script, not a test: run it on an idle machine.
 *
 *   npx node --no-node-snapshot --expose-gc eval/totalTimeoutWall.ts [budgetMs ...]
 *
 * Prints one line per input and budget, and exits 1 when any run took over 110 % of its budget.
 */
import { runSnippet } from '../src/index.ts';

const INPUTS: Record<string, string> = {
  'endless loop': 'while (true) {}\n',
  'endless async loop': 'for (;;) await null;\n',
  '19,999 statements of x; (main thread)': 'x;'.repeat(19_999) + '\n',
  '149,000-element array (worker)': `const a = [${Array.from({ length: 149_000 }, (_, i) => i % 10).join(',')}];\nfor (;;) a.push(a.length);\n`,
  '349,000 lines of x; (refused)': 'x;\n'.repeat(349_000),
  'unknown values in a loop (trace)': 'for (;;) { if (cfg.p.q > limit) api.call(cfg.p); }\n',
};

const budgets = process.argv.slice(2).map(Number).filter((n) => n > 0);
let over = 0;
for (const budget of budgets.length > 0 ? budgets : [2_000, 5_000]) {
  for (const [name, code] of Object.entries(INPUTS)) {
    const started = performance.now();
    const r = await runSnippet(code, { mode: name.includes('trace') ? 'trace' : 'none', timeoutMs: budget, totalTimeoutMs: budget });
    const wall = performance.now() - started;
    const ratio = wall / budget;
    if (ratio > 1.1) over++;
    console.log(`${String(budget).padStart(6)} ms  ${name.padEnd(40)} ${r.status.padEnd(14)} ${Math.round(wall).toString().padStart(6)} ms  ${(ratio * 100).toFixed(0)} %${ratio > 1.1 ? '  OVER' : ''}`);
  }
}
process.exitCode = over > 0 ? 1 : 0;
