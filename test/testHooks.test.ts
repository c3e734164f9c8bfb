import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { instrumentModule } from '../src/record/instrumentCalls.ts';

const PROBE = fileURLToPath(new URL('./fixtures/record/probes/testHooksProbe.ts', import.meta.url));

/** The probe registers the test hooks in a fresh Node, imports fixture programs, mocks and reaches; it prints one JSON line. */
function runProbe(): Record<string, unknown> {
  const r = spawnSync(process.execPath, [PROBE], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

test('testHooks: a mocked same-module child is used, reach finds a non-exported function, lines do not move', { timeout: 90_000 }, () => {
  const out = runProbe();
  assert.equal(out.plain, 18);
  // total() called applyDiscount through the mock, with the same arguments and `this`.
  assert.equal(out.mocked, 42);
  assert.deepEqual(out.mockCalls, [{ args: [20, 10], thisIsUndefined: true }]);
  assert.equal(out.afterClear, 18);
  assert.equal(out.reached, 90);
  assert.deepEqual(out.reachNames, ['applyDiscount', 'total']);
  assert.match(String(out.reachError), /module 'nope\.js' has not been loaded.*loaded: shop\.js/);
  // total's frame is on its `return applyDiscount(sum, pct);` line, as in the file.
  const [file, line] = out.totalFrame as [string, string];
  assert.match(file, /shop\/shop\.js$/);
  assert.equal(line, '9');
  assert.deepEqual(out.mockable, ['shop.js#applyDiscount', 'shop.js#total']);

  const hooked = out.hooked as Record<string, unknown>;
  assert.equal(hooked.plain, 6.6);
  assert.equal(hooked.round, -6.6000000000000005, 'nested function mocked');
  assert.equal(hooked.arrow, 3001, 'arrow in TypeScript mocked, arguments forwarded');
  assert.equal(hooked.method, 107, 'method mocked, called with the instance as this');
  assert.equal(hooked.staticThisIsClass, 1, 'static method mocked, called with the class as this');
  assert.equal((hooked.failFrame as string[] | undefined)?.[1], '25', 'TypeScript lines do not move');
  assert.deepEqual(hooked.reachPricing, ['Cart', 'fail', 'lineTotal']);
  // A CommonJS module publishes its module.exports too (what `exports.f = …` defines).
  assert.deepEqual(hooked.reachMain, ['checkout', 'ids', 'label', 'module.exports']);
  // A destructuring arrow (label) and a generator (ids) cannot be mocked.
  assert.deepEqual(hooked.mockable, [
    'main.cjs#checkout', 'main.cjs#checkout.round', 'pricing.mts#Cart.add', 'pricing.mts#Cart.of', 'pricing.mts#Cart.sum', 'pricing.mts#fail', 'pricing.mts#lineTotal',
  ]);
});

const QUALNAMES: readonly { readonly name: string; readonly code: string; readonly want: readonly string[] }[] = [
  { name: 'declarations and nesting', code: 'function outer() { function inner() {} return inner; }', want: ['outer:function', 'outer.inner:function'] },
  { name: 'class members', code: 'class A { m() {} static s() {} get g() { return 1; } set g(v) {} async am() {} *gen() {} #p() {} h = () => 1; constructor() {} }', want: ['A.m:method', 'A.s:static', 'A.g:getter', 'A.g:setter', 'A.am:async', 'A.gen:generator', 'A.#p:method', 'A.h:arrow', 'A.constructor:constructor'] },
  { name: 'bindings and exports', code: 'const f = () => 1; let g = function named() {}; module.exports.h = function () {}; X.prototype.m = function () {}; module.exports = { k() {} };', want: ['f:arrow', 'g:function', 'h:function', 'X.m:function', 'k:function'] },
  { name: 'anonymous', code: '[1].map(function () {});\nsetTimeout(() => {});\nexport default class { m() {} }', want: ['<anonymous>@1:function', '<anonymous>@2:arrow', '<anonymous>@3:method'] },
  { name: 'objects', code: 'const api = { get(x) {}, nested: { deep: () => 1 } };\ncall({ m() {} });', want: ['api.get:function', 'api.nested.deep:arrow', '<anonymous>@2:function'] },
];

for (const c of QUALNAMES) {
  test(`testHooks: qualnames, ${c.name}`, () => {
    const { functions } = instrumentModule(c.code, 'm.js', 'commonjs', { kind: 'test' });
    assert.deepEqual(functions.map((f) => `${f.qualname}:${f.kind}`), c.want);
  });
}

test('testHooks: instrumentation only inserts text, on the same lines', () => {
  const code = "'use strict'\nfunction a(x) {\n  return (\n    x + 1\n  );\n}\nconst b = (y) =>\n  ({ y });\n";
  const { code: out } = instrumentModule(code, 'm.js', 'commonjs', { kind: 'test' });
  assert.equal(out.split('\n').length, code.split('\n').length);
  assert.ok(out.startsWith("'use strict'"), 'the directive stays first');
  const run = new Function('module', `${out}; return { a, b };`) as (m: unknown) => { a: (x: number) => number; b: (y: number) => unknown };
  const fns = run({});
  assert.equal(fns.a(1), 2);
  assert.deepEqual(fns.b(3), { y: 3 });
});
