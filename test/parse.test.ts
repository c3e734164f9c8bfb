import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSnippet } from '../src/index.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';
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
    assert.equal(p.code.split('\n').length >= c.code.split('\n').length, true, 'lines are kept');
  });
}

test('parse: partial-snippet syntax needs no repair', () => {
  for (const code of ['return 1;', 'await x;', 'if (a) { import b from "b"; }', 'export const a = 1;']) {
    assert.deepEqual(parseSnippet(code).repairs, [], code);
  }
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

test('repair: lines that are not code are dropped, and named', async () => {
  const r = await runSnippet('npm install express\nconst a = 1;\nconsole.log(a);');
  assert.deepEqual(r.repairs, ['dropped-lines:1']);
  assert.deepEqual(r.lines.measured, [2, 3]);
  assert.equal(r.fullyExecuted, true);
});
