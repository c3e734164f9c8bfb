// Own-class edge values (src/diff/ownInstances.ts): a learnt object the code reads members of is
// also given an instance of one of the file's own classes whose prototype (in the base version)
// holds those members: callers pass the module's own objects, and a member the change removes
// from the class shows only on one.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runDiff, type DiffReport } from '../src/diff/runDiff.ts';
import { classMembers } from '../src/diff/ownInstances.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';
import { gitRepo } from './helpers.ts';

async function change(file: string, before: string, after: string): Promise<{ report: DiffReport; dir: string }> {
  const dir = gitRepo({ [file]: before });
  writeFileSync(join(dir, file), after);
  return { report: await runDiff({ cwd: dir, reproductions: true }), dir };
}

const found = (r: DiffReport) => r.findings.map((f) => [f.line, f.type, f.message, f.evidence.edge?.source]);

// Two renderers of the module; `render` takes one from its callers.
const RENDER = [
  'function Plain() {}',
  'Plain.prototype.text = Plain.prototype.em = function (t) { return t; };',
  'Plain.prototype.para = function (t) { return t + "\\n"; };',
  '',
  'function Html() {}',
  'Html.prototype.text = function (t) { return t; };',
  '',
  'function render(renderer, src) {',
  '  var out = renderer.text(src);',
  '  return renderer.para(out);',
  '}',
  'module.exports = { Plain: Plain, Html: Html, render: render };',
  '',
].join('\n');

test('classMembers: a class\'s prototype members, each name of a chained assignment, a class body\'s methods and its parent', () => {
  const parsed = parseSnippet(`${RENDER}\nclass A extends Plain { b() {} get c() { return 1; } static d() {} }\n`);
  const members = classMembers(parsed);
  assert.deepEqual([...members.get('Plain')!.members].sort(), ['em', 'para', 'text']);
  assert.deepEqual([...members.get('Html')!.members], ['text']);
  assert.deepEqual([...members.get('A')!.members].sort(), ['b', 'c']);
  assert.equal(members.get('A')!.parent, 'Plain');
});

test('diff: a prototype method the change removes is found where a caller passes an instance of the module\'s own class, and its reproduction builds it from the exports: fails on the changed file, passes on the base', async () => {
  const after = RENDER.replace('Plain.prototype.para = function (t) { return t + "\\n"; };\n', '').replace('  var out = renderer.text(src);\n  return renderer.para(out);', '  return renderer.para(renderer.text(src));');
  const { report, dir } = await change('render.js', RENDER, after);
  const mine = found(report).filter((f) => String(f[3]).includes('__snipexec_instance'));
  assert.deepEqual(mine, [[8, 'TypeError', 'renderer.para is not a function', '__snipexec_instance("Plain", "Plain")']]);
  const f = report.findings.find((x) => String(x.evidence.edge?.source).includes('__snipexec_instance'))!;
  assert.equal(f.evidence.base, 'returned');
  const repro = join(dir, 'repro.test.cjs');
  writeFileSync(repro, f.reproduction!);
  writeFileSync(join(dir, 'base.js'), RENDER);
  const { NODE_TEST_CONTEXT: _, ...outside } = process.env;
  const run = (env: NodeJS.ProcessEnv) => spawnSync(process.execPath, ['--test', repro], { cwd: dir, encoding: 'utf8', env: { ...outside, ...env } });
  const changed = run({});
  assert.equal(changed.status, 1, changed.stdout);
  assert.match(changed.stdout, /TypeError: renderer\.para is not a function/);
  const base = run({ SNIPEXEC_TARGET: 'base.js' });
  assert.equal(base.status, 0, base.stdout);
});

test('diff: where the base version\'s class lacks the member too (its call with the instance throws as well), the own-class instance is no finding', async () => {
  const before = RENDER.replace('Plain.prototype.para = function (t) { return t + "\\n"; };\n', '');
  const after = before.replace('  var out = renderer.text(src);\n  return renderer.para(out);', '  return renderer.para(renderer.text(src));');
  const { report } = await change('render.js', before, after);
  assert.deepEqual(found(report).filter((f) => String(f[3]).includes('__snipexec_instance')), []);
});
