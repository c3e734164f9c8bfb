import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from '@babel/parser';
import _generate from '@babel/generator';
import * as t from '@babel/types';
import { syntaxFacts, treeFacts } from '../src/instrument/treeFacts.ts';
import { normalizeSyntax } from '../src/instrument/normalizeSyntax.ts';

// The one-walk passes of the instrumenter (src/instrument/treeFacts.ts) and normalizeSyntax's fast walk, on spec tables.

const generate = ((_generate as unknown as { default?: unknown }).default ?? _generate) as typeof _generate.default;

function tree(code: string, jsx = false): t.File {
  // `with` is sloppy code: a script.
  return parse(code, { sourceType: code.startsWith('with') ? 'script' : 'module', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, allowImportExportEverywhere: true, plugins: ['decorators-legacy', ...(jsx ? ['jsx' as const] : [])] });
}

const FACTS: readonly { readonly code: string; readonly topLevelReturn: boolean; readonly topLevelAwait: boolean; readonly blockFunctions: readonly string[] }[] = [
  { code: 'if (x) return 1;', topLevelReturn: true, topLevelAwait: false, blockFunctions: [] },
  { code: 'function f() { return 1; }\nconst g = () => { return 2; };', topLevelReturn: false, topLevelAwait: false, blockFunctions: [] },
  { code: 'class A { m() { return 1; } f = async () => { await p; }; }', topLevelReturn: false, topLevelAwait: false, blockFunctions: [] },
  { code: 'const v = await p;', topLevelReturn: false, topLevelAwait: true, blockFunctions: [] },
  { code: 'for await (const x of xs) {}', topLevelReturn: false, topLevelAwait: true, blockFunctions: [] },
  { code: 'async function f() { await p; for await (const x of xs) {} }\nfor (const x of xs) {}', topLevelReturn: false, topLevelAwait: false, blockFunctions: [] },
  { code: '{ function f() {} }\nfunction top() { function inner() {} }\nswitch (x) { case 1: function g() {} }\nif (a) { function h() {} }', topLevelReturn: false, topLevelAwait: false, blockFunctions: ['f', 'g', 'h'] },
  { code: 'function outer() { { function nested() {} } try { function t() {} } catch { function c() {} } }', topLevelReturn: false, topLevelAwait: false, blockFunctions: ['c', 'nested', 't'] },
];

for (const c of FACTS) {
  test(`tree facts: ${JSON.stringify(c.code)}`, () => {
    const facts = treeFacts(tree(c.code));
    assert.equal(facts.topLevelReturn, c.topLevelReturn, 'top-level return');
    assert.equal(facts.topLevelAwait, c.topLevelAwait, 'top-level await');
    assert.deepEqual([...facts.blockFunctions].sort(), c.blockFunctions);
  });
}

test('tree facts: every node once, each after its parent, in the order Babel visits them', () => {
  const ast = tree('const o = { a: [1, f(x)], b() { if (y) return; } };\nwhile (z) { g(...args); }\nclass C extends D { #p = 1; get q() { return this.#p; } }\n');
  const visited: t.Node[] = [];
  t.traverseFast(ast, (node) => { visited.push(node); });
  assert.deepEqual(treeFacts(ast).nodes, visited);
});

const SYNTAX: readonly { readonly code: string; readonly jsx: boolean; readonly rewrite: boolean }[] = [
  { code: 'const a = 1;', jsx: false, rewrite: false },
  { code: "import fs from 'fs';", jsx: false, rewrite: true },
  { code: 'export const a = 1;', jsx: false, rewrite: true },
  { code: "export * from 'm';", jsx: false, rewrite: true },
  { code: '@dec class A {}', jsx: false, rewrite: true },
  { code: 'const el = <div>{x}</div>;', jsx: true, rewrite: true },
  { code: 'const el = <><b /></>;', jsx: true, rewrite: true },
];

for (const c of SYNTAX) {
  test(`syntax facts: ${JSON.stringify(c.code)}`, () => {
    assert.deepEqual(syntaxFacts(tree(c.code, true)), { jsx: c.jsx, rewrite: c.rewrite });
  });
}

// Blocks come from a fast walk; module syntax and decorators from a Babel traversal after it: both, together.
const NORMALIZED: readonly { readonly code: string; readonly out: string }[] = [
  { code: 'if (a) b();\nelse if (c) d();\nelse e();', out: 'if (a) {\n  b();\n} else {\n  if (c) {\n    d();\n  } else {\n    e();\n  }\n}' },
  { code: 'for (;;) while (x) do y(); while (z);', out: 'for (;;) {\n  while (x) {\n    do {\n      y();\n    } while (z);\n  }\n}' },
  { code: 'with (o) if (p) q();', out: 'with (o) {\n  if (p) {\n    q();\n  }\n}' },
  { code: "import a, { b as c } from 'm';\nif (x) for (const y of c) a(y);", out: "const a = require(\"m\");\nconst {\n  b: c\n} = require(\"m\");\nif (x) {\n  for (const y of c) {\n    a(y);\n  }\n}" },
  { code: 'export function f() { if (a) return; }\nexport { f as g };', out: 'function f() {\n  if (a) {\n    return;\n  }\n}\nvoid 0;' },
  { code: '@dec class A { @m method() { if (x) y(); } }', out: 'class A {\n  method() {\n    if (x) {\n      y();\n    }\n  }\n}' },
];

for (const c of NORMALIZED) {
  test(`normalize syntax: ${JSON.stringify(c.code)}`, () => {
    const ast = tree(c.code);
    normalizeSyntax(ast);
    assert.equal(generate(ast).code, c.out);
  });
}
