import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import * as t from '@babel/types';
import { runSnippet } from '../src/index.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';
import { REPAIRS } from '../src/parse/repairSnippet.ts';
import { selected } from './helpers.ts';

const REPAIRED = [
  { name: 'unclosed brackets', code: 'app.get("/", function (req, res) {\n  res.send("hi");', repair: 'close-brackets' },
  { name: 'placeholder lines', code: 'const a = 1;\n...\nconsole.log(a);', repair: 'placeholders' },
  { name: 'object placeholder', code: 'const o = {...};\nfoo(...);', repair: 'placeholders' },
  { name: 'curly quotes', code: 'console.log(\u201Chello\u201D);', repair: 'curly-quotes' },
  { name: 'line numbers', code: '1 const a = 1;\n2 const b = 2;\n3 console.log(a + b);', repair: 'line-numbers' },
  { name: 'prompt prefixes', code: '> const a = 1;\n> console.log(a);', repair: 'prompt-prefixes' },
  { name: 'bare object literal', code: '{\n  "name": "x",\n  "version": "1.0.0"\n}', repair: 'bare-object' },
] as const;

for (const c of selected(REPAIRED)) {
  test(`repair: ${c.name}`, () => {
    const p = parseSnippet(c.code);
    assert.ok(p.repairs.includes(c.repair), `repairs were ${p.repairs.join(',')}`);
    assert.equal(p.code.split('\n').length, c.code.split('\n').length, 'lines are kept');
  });
}

test('parse: partial-snippet syntax needs no repair', () => {
  for (const code of ['return 1;', 'await x;', 'if (a) { import b from "b"; }', 'export const a = 1;']) {
    assert.deepEqual(parseSnippet(code).repairs, [], code);
  }
});

test('parse: a name declared twice in one scope is a syntax error at the second declaration, which a repair drops', () => {
  const twice = "import { v4 as id } from 'uuid';\nconst { v4: id } = require('uuid');\nconsole.log(id);";
  const p = parseSnippet(twice, 'ts');
  assert.deepEqual(p.repairs, ['dropped-lines:2']);
  assert.throws(() => parseSnippet('let x = 1;\nenum x { A }', 'ts'), (e: Error & { line?: number }) => /Identifier 'x' has already been declared/.test(e.message) && e.line === 2);
});

test('parse: language is found by trying js, jsx, ts, tsx in order', () => {
  assert.equal(parseSnippet('const a = 1;').lang, 'js');
  assert.equal(parseSnippet('const a = <b/>;').lang, 'jsx');
  assert.equal(parseSnippet('const a: number = 1;').lang, 'ts');
});

test('parse: a repaired snippet is measured on its original lines', async () => {
  const r = await runSnippet('1 const a = 1;\n2 \n3 console.log(a);');
  assert.deepEqual(r.lines.measured, [1, 3]);
  assert.equal(r.fullyExecuted, true);
});

test('parse: unrepairable input reports syntax-error with line and column', async () => {
  const r = await runSnippet('const x = 1;\nlet = = 2;');
  assert.equal(r.status, 'syntax-error');
  assert.equal(r.errors[0]?.line, 2);
  assert.ok((r.errors[0]?.column ?? 0) > 0);
});

test('repair: lines that are not code are dropped, and named; they stay measured, as uncovered', async () => {
  const r = await runSnippet('npm install express\nconst a = 1;\nconsole.log(a);');
  assert.deepEqual(r.repairs, ['dropped-lines:1']);
  assert.deepEqual(r.lines.measured, [1, 2, 3]);
  assert.deepEqual(r.lines.uncovered, [1]);
  assert.equal(r.status, 'completed');
  assert.equal(r.fullyExecuted, false);
});

test('repair: a repair that leaves no statement of the original is a syntax error', async () => {
  const r = await runSnippet('function f( {\n  return 1\n');
  assert.equal(r.status, 'syntax-error');
  assert.equal(r.lines.total, 0);
  assert.equal(r.fullyExecuted, false);
});

test('repair: a { ... } placeholder over several lines keeps every line', async () => {
  const code = 'const a = 1;\nconst o = {\n  ...\n};\nfoo(a,\n  ...\n);\nconsole.log(a);\nconst b = 2;\nconsole.log(b);';
  const r = await runSnippet(code, { mode: 'dummy' });
  assert.deepEqual(r.repairs, ['placeholders']);
  assert.deepEqual(r.lines.measured, [1, 2, 5, 8, 9, 10]);
});

// ---- property: no repair moves a line -------------------------------------------------------

/** One snippet line, or a few: `m<i>()` calls mark statements, so their lines can be followed. */
const piece = (i: number): fc.Arbitrary<string[]> => fc.constantFrom<string[]>(
  [`m${i}();`],
  [`const v${i} = m${i}(1, 2);`],
  [`m${i}(\u201Chi\u201D, \u2018x\u2019);`],
  [`> m${i}();`],
  [`$ m${i}();`],
  ['...'],
  ['\u2026'],
  [`m${i}(...);`],
  [`const o${i} = {`, '  ...', `};`, `m${i}();`],
  [`const o${i} = { ... }; m${i}();`],
  [`m${i}(a,`, '  ...', ');'],
  [`const l${i} = [`, '  1, ...', '];', `m${i}();`],
  [`if (x) {`, `  m${i}();`, '  // ...', '}'],
  ['Then run this:', `m${i}();`],
  ['npm install express'],
  [''],
);

interface Generated { code: string; markers: Map<string, number> }

/** A damaged snippet: pieces, perhaps numbered, perhaps truncated inside a callback, perhaps a bare object. */
const snippets: fc.Arbitrary<Generated> = fc
  .record({
    pieces: fc.array(fc.nat(1000), { minLength: 1, maxLength: 12 }).chain((seeds) => fc.tuple(...seeds.map((_, i) => piece(i)))),
    numbered: fc.boolean(),
    truncated: fc.boolean(),
    bareObject: fc.boolean(),
    trailingNewline: fc.boolean(),
  })
  .map(({ pieces, numbered, truncated, bareObject, trailingNewline }) => {
    let lines = pieces.flat();
    if (bareObject) lines = ['{', ...lines.map((_, i) => `  "k${i}": ${i},`), '} // config'];
    else if (truncated) lines = ['app.get("/", function (req, res) {', ...lines.map((l) => `  ${l}`)];
    if (numbered) lines = lines.map((l, i) => `${i + 1} ${l}`);
    const markers = new Map<string, number>();
    lines.forEach((l, i) => { for (const m of l.matchAll(/\bm\d+(?=\()/g)) markers.set(m[0], i + 1); });
    return { code: lines.join('\n') + (trailingNewline ? '\n' : ''), markers };
  });

const lineOf = (code: string, marker: string): number | undefined => {
  const i = code.split('\n').findIndex((l) => new RegExp(`\\b${marker}\\(`).test(l));
  return i < 0 ? undefined : i + 1;
};

test('repair property: each repair keeps the line count, and every marker it keeps on its line', () => {
  fc.assert(fc.property(snippets, ({ code, markers }) => {
    for (const repair of REPAIRS) {
      const out = repair.apply(code);
      assert.equal(out.split('\n').length, code.split('\n').length, `${repair.name} changed the line count`);
      for (const [marker, line] of markers) {
        const now = lineOf(out, marker);
        if (now !== undefined) assert.equal(now, line, `${repair.name} moved ${marker}`);
      }
    }
  }), { numRuns: 300, seed: 11 });
});

test('repair property: after every repair, each statement that survives starts on its original line', () => {
  fc.assert(fc.property(snippets, ({ code, markers }) => {
    let parsed;
    try {
      parsed = parseSnippet(code, 'js');
    } catch {
      return; // not repairable: a syntax error, which moves nothing
    }
    assert.equal(parsed.code.split('\n').length, code.split('\n').length, 'line count');
    t.traverseFast(parsed.ast, (node) => {
      if (!t.isCallExpression(node) || !t.isIdentifier(node.callee) || !/^m\d+$/.test(node.callee.name)) return;
      assert.equal(node.loc?.start.line, markers.get(node.callee.name), `${node.callee.name} moved`);
    });
  }), { numRuns: 300, seed: 11 });
});

test('repair: a one-token slip is edited in its line instead of dropping the line: a missing ) or comma, a stray ) or ., a } for a ), a string left open', async () => {
  const cases: [string, string][] = [
    ["res.end('Hello ' + name + '!';\nconsole.log(2);", "res.end('Hello ' + name + '!');"],
    ["gulp.task('watch', ['sass'] function () {\n  console.log(2);\n});", "gulp.task('watch', ['sass'] ,function () {"],
    ["files.filter(function (f) { return f == '.html'); });\nconsole.log(2);", "files.filter(function (f) { return f == '.html'; });"],
    ["const v = this.[key];\nconsole.log(2);", 'const v = this[key];'],
    ["res.end('Hello ' + name + '\\n'};\nconsole.log(2);", "res.end('Hello ' + name + '\\n');"],
    ["var models = require('./model);\nconsole.log(2);", "var models = require('./model');"],
  ];
  for (const [code, line1] of cases) {
    const r = await runSnippet(code, { mode: 'trace' });
    assert.ok(r.repairs?.some((x) => x.startsWith('edited-lines:1')), `${code}: ${JSON.stringify(r.repairs)}`);
    assert.ok(!r.repairs?.some((x) => x.startsWith('dropped-lines')), code);
    assert.equal(r.program?.split('\n').find((l) => l.startsWith(line1.slice(0, 8))), line1, code);
    assert.ok(r.lines.measured.includes(1) && !r.lines.uncovered.includes(1), `${code}: line 1 runs`);
    assert.match(r.stdout, /2\n$/);
  }
});
