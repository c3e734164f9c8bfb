import assert from 'node:assert/strict';
import { test } from 'node:test';
import { programCoverage } from '../src/emit/programCoverage.ts';
import { runSnippet } from '../src/engine/runSnippet.ts';
import type { Lang } from '../src/core/options.ts';
import type { RunResult } from '../src/core/runResult.ts';
import { selected } from './helpers.ts';

// The completed program's layout (where each snippet line went) and the check that a program,
// run under plain node with V8 coverage, covers the lines its run covered (eval/checkEmit.ts).

const ADMIN = "if (user.isAdmin) {\n  console.log('admin');\n} else {\n  console.log('user');\n}";

/** The lines a result covered: measured, not uncovered. */
const coveredBy = (r: RunResult) => r.lines.measured.filter((l) => !r.lines.uncovered.includes(l));

/** The first two words of a line of code, which its program line must hold, in order (types erased, spacing changed). */
function words(line: string): RegExp {
  const [a = '', b = ''] = line.match(/[\w$]+|[^\s\w$]/g) ?? [];
  return new RegExp(`${a.replace(/\W/g, '\\$&')}.*${b.replace(/\W/g, '\\$&')}`);
}

/** Each case's program text is buildProgram's, each measured line sits where the layout says, and the program covers what its run covered. */
const CASES: readonly { name: string; code: string; lang?: Lang }[] = [
  { name: 'a snippet kept as its text, in two scenarios', code: ADMIN },
  { name: 'TypeScript, regenerated without its types (the source map places the lines)', lang: 'ts', code: "interface User { isAdmin: boolean }\nconst u: User = user;\nif (u.isAdmin) {\n  const who: string = 'admin';\n  console.log(who);\n} else {\n  console.log('user');\n}\n" },
  { name: "'use strict': the snippet in a function of its own", code: "'use strict';\nconst n = count + 1;\nconsole.log(n > 2 ? 'many' : 'few');\n" },
  { name: 'top-level await: an async function', code: 'const data = await api.load();\nconsole.log(data.name);\n' },
  { name: 'a body that returns at its top level: the driven calls in a finally', code: "if (!opts) return;\nfunction helper(x) {\n  console.log(x.n * 2);\n}\nconsole.log(typeof opts.n);\n" },
  { name: 'a nested function drive registers, lines retained', code: "function outer() {\n  const inner = (v) => {\n    console.log(v.id);\n  };\n  return 1;\n}\nouter();\n" },
  { name: 'module syntax, regenerated', code: "import { join } from 'path';\nconst where = join(base.dir, 'a.txt');\nconsole.log(where.length > 0);\n" },
  { name: "an environment's registration after 'use strict'", code: "'use strict';\nfunction show(msg) {\n  document.title = msg.text;\n  console.log(document.title);\n}\nconsole.log(typeof document);\n" },
];

for (const c of selected(CASES)) {
  test(`program coverage: ${c.name}`, { timeout: 120_000 }, async () => {
    const r = await runSnippet(c.code, { timeoutMs: 30_000, ...(c.lang ? { lang: c.lang } : {}) });
    const snippetLines = c.code.split('\n');
    for (const s of [r, ...(r.detail?.scenarios ?? [])]) {
      assert.equal(s.status, 'completed', JSON.stringify(s.errors));
      const layout = s.detail?.programLayout();
      assert.ok(layout !== undefined);
      assert.equal(layout.code, s.program, 'the layout is of the same program, byte for byte');
      const programLines = layout.code.split('\n');
      for (const line of s.lines.measured) {
        const held = layout.snippetLines.get(line) ?? [];
        assert.ok(held.length > 0, `line ${line} is in the program`);
        const text = snippetLines[line - 1] ?? '';
        // An import is read as a require of the same module.
        assert.match(held.map((l) => programLines[l - 1]).join('\n'), text.startsWith('import ') ? /require\(/ : words(text), `line ${line} sits where the layout says:\n${layout.code}`);
      }
      const covered = await programCoverage(layout, coveredBy(s), { timeoutMs: 30_000 });
      assert.equal(covered.run.exitCode, s.exitCode ?? 0, covered.run.output);
      assert.equal(covered.run.output, s.stdout);
      assert.ok(covered.measured);
      assert.deepEqual(covered.missing, [], layout.code);
    }
  });
}

test('program coverage: a line the program does not run is missing (scenario 1 does not take the else)', async () => {
  const r = await runSnippet(ADMIN, { mode: 'trace' });
  const second = r.detail?.scenarios?.[0];
  assert.ok(second !== undefined);
  assert.deepEqual(coveredBy(second), [1, 4]);
  const layout = r.detail?.programLayout();
  assert.ok(layout !== undefined);
  const covered = await programCoverage(layout, coveredBy(second));
  assert.equal(covered.run.output, 'admin\n');
  assert.deepEqual(covered.missing, [4], "scenario 1's program never prints 'user'");
});

test('program coverage: by hand, a line in a block V8 counted 0 is missing, a line not in the program too', async () => {
  const code = "const x = 1;\nif (x > 2) {\n  console.log('big');\n}\nfunction never() {\n  return 2;\n}\nconsole.log('done');\n";
  const snippetLines = new Map([1, 2, 3, 4, 5, 6, 7, 8].map((l) => [l, [l]]));
  const covered = await programCoverage({ code, snippetLines }, [1, 2, 3, 6, 8, 12]);
  assert.equal(covered.run.output, 'done\n');
  assert.deepEqual(covered.missing, [3, 6, 12]);
  assert.ok(covered.coveredLines.has(2) && !covered.coveredLines.has(4) && !covered.coveredLines.has(7), 'the lines closing blocks that did not run did not run');
});
