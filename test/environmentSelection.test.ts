import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from '@babel/parser';
import { loadEnvironments } from '../src/environments/loadEnvironments.ts';
import { environmentsFor, type EnvironmentSpec } from '../src/environments/registry.ts';
import { snippetNames } from '../src/environments/snippetNames.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';

const spec = (name: string, globals: string[], modules: string[], needs: string[] = []): EnvironmentSpec => ({ name, entry: `${name}/index.ts`, globals, modules, needs, summary: '' });
const REGISTRY = [spec('browser', ['document', 'window'], []), spec('jquery', ['$', 'jQuery'], ['jquery'], ['browser']), spec('node', ['process'], ['path', 'fs'])];

test('snippetNames: free names, module specifiers of every form, React for JSX', () => {
  const cases: { code: string; globals: string[]; modules: string[] }[] = [
    { code: "const p = require('path'); let y = 1; y; $('#a'); document.title", globals: ['require', '$', 'document'], modules: ['path'] },
    { code: "import _ from 'lodash'; export * from 'a'; export { b } from 'b'; import('c'); require(`d`)", globals: ['require'], modules: ['lodash', 'a', 'b', 'c', 'd'] },
    { code: 'function f(window) { return window.x } const el = <div/>;', globals: ['React'], modules: [] },
    { code: "const fs = require(name); fs.readFileSync('x')", globals: ['require', 'name'], modules: [] },
  ];
  for (const c of cases) {
    const names = snippetNames(parseSnippet(c.code).ast);
    assert.deepEqual([...names.globals].sort(), [...c.globals].sort(), c.code);
    assert.deepEqual([...names.modules].sort(), [...c.modules].sort(), c.code);
  }
});

test('snippetNames: the free names parseSnippet found are those a crawl of a tree parsed elsewhere finds', () => {
  const codes = ["const p = require('path'); let y = 1; y; $('#a'); document.title", 'function f(a) { var b = a + c; return () => d(b, this.e); } class K extends Base {} f(g);', 'for (const k in o) { try { k(); } catch (err) { log(err, k); } }'];
  for (const code of codes) {
    const own = parse(code, { sourceType: 'module', allowReturnOutsideFunction: true });
    assert.deepEqual(snippetNames(parseSnippet(code).ast).globals, snippetNames(own).globals, code);
  }
});

test('environmentsFor: selected by a global or a module (node: prefix stripped), with what they need, in registry order', () => {
  const pick = (globals: string[], modules: string[]) => environmentsFor({ globals, modules }, REGISTRY).map((e) => e.name);
  assert.deepEqual(pick(['$'], []), ['browser', 'jquery']);
  assert.deepEqual(pick([], ['node:path']), ['node']);
  assert.deepEqual(pick(['process', 'document'], []), ['browser', 'node']);
  assert.deepEqual(pick(['foo'], ['lodash']), []);
});

test('loadEnvironments: an environment that cannot be built is reported as that snippet\'s failure, the others load', async () => {
  const registry = [spec('missing-env-for-test', ['a'], []), { ...spec('demo', ['b'], []), entry: '../../../test/fixtures/environments/demo.ts' }];
  const loaded = await loadEnvironments({ globals: ['a', 'b'], modules: [] }, registry);
  assert.deepEqual(loaded.names, ['missing-env-for-test', 'demo']);
  assert.deepEqual(loaded.bundles.map((b) => b.name), ['demo']);
  assert.equal(loaded.failures.length, 1);
  assert.equal(loaded.failures[0]?.name, 'missing-env-for-test');
  assert.match(loaded.failures[0]?.message ?? '', /could not bundle missing-env-for-test/);
  assert.match(loaded.bundles[0]?.code ?? '', /demo environment/);
});
