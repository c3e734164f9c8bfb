// Shorter calls (src/diff/shorterCalls.ts): drive calls a target with fewer arguments than it
// declares when the runtime config asks (driveArity), the rest absent; `snipexec diff` tries such
// calls of the driven functions that read `arguments` as edges of their own (`f#arity`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { renderDefinitions } from '../src/engine/renderDefinitions.ts';
import { SnippetSession } from '../src/engine/snippetSession.ts';
import { runDiff, type DiffReport } from '../src/diff/runDiff.ts';
import { shorterCalls } from '../src/diff/shorterCalls.ts';
import { declaredParameters } from '../src/instrument/driveTargets.ts';
import { gitRepo } from './helpers.ts';

/** Runs `code` once with drive's config extended by `driveArity`. */
async function driven(code: string, driveArity?: Record<number, number>) {
  const session = await SnippetSession.open(code, { mode: 'trace', scenarios: 1 });
  assert.ok(session instanceof SnippetSession);
  const book = session.newBook();
  const scenario = await session.run({ ...session.config, ...(driveArity ? { driveArity } : {}) }, book);
  book.restore(scenario.ranWith);
  return { session, result: session.result(scenario.last, book, renderDefinitions(book.defs), scenario.runs), record: scenario.last?.report?.drives?.[0] };
}

const COUNTS = 'function f(a, b, c) {\n  console.log(arguments.length, typeof c);\n}\n';

test('drive: a target called with the arity the config gives sees that many arguments (`arguments.length`), the rest absent; the record, the report and the program show the shorter call', async () => {
  const full = await driven(COUNTS);
  const target = full.session.instrumented.driveTargets[0]!;
  assert.equal(target.readsArguments, true);
  assert.equal(declaredParameters(target), 3, 'the parameters it declares, without the extra arguments drive passes for `arguments`');
  assert.equal(full.result.stdout, `${target.params} object\n`);
  const short = await driven(COUNTS, { 0: 1 });
  assert.equal(short.result.stdout, '1 undefined\n');
  assert.equal(short.record?.arity, 1);
  assert.equal(short.result.drives?.[0]?.args.length, 1);
  assert.match(short.result.program ?? '', /__snipexec_drive_call\(\(\) => f\(_f_arg0\)\);/);
});

test('shorterCalls: the driven functions that read `arguments`, from declared - 1 arguments down to 1', async () => {
  const { session } = await driven('function g(a, b, c) {\n  return arguments.length;\n}\nfunction h(a, b) {\n  return a + b;\n}\n');
  const edges = shorterCalls(session.instrumented.driveTargets, ['g', 'h']);
  assert.deepEqual(edges.map((e) => `${e.element}=${e.source}`), ['g#arity=2', 'g#arity=1']);
});

/** A repository with `before` committed as `file` and `after` in the working tree: the diff's report. */
async function change(file: string, before: string, after: string): Promise<{ report: DiffReport; dir: string }> {
  const dir = gitRepo({ [file]: before });
  writeFileSync(join(dir, file), after);
  return { report: await runDiff({ cwd: dir, reproductions: true }), dir };
}

const found = (r: DiffReport) => r.findings.map((f) => [f.line, f.type, f.message, f.evidence.edge?.element]);

// A function whose accumulator is optional: callers leave it out, and `arguments.length` tells.
const TRANSFORM = [
  'function transform(coll, acc, fn, done) {',
  '  if (arguments.length <= 3) {',
  '    done = fn;',
  '    fn = acc;',
  '    acc = {};',
  '  }',
  '  coll.forEach(function (x) { fn(acc, x); });',
  '  if (done) done(acc);',
  '  return acc;',
  '}',
  'module.exports = transform;',
  '',
].join('\n');

test('diff: a change that breaks a caller\'s shorter call (`arguments.length` tested for one count only) is found, with the call shown as made, and its reproduction fails on the changed file and passes on the base', async () => {
  const after = TRANSFORM.replace('arguments.length <= 3', 'arguments.length === 3');
  const { report, dir } = await change('transform.js', TRANSFORM, after);
  assert.deepEqual(found(report), [[7, 'TypeError', 'fn is not a function', 'transform#arity']]);
  const f = report.findings[0]!;
  assert.equal(f.evidence.edge?.source, '2');
  assert.match(f.evidence.call ?? '', /^transform\([^,]+, function [^,]*\)$/, 'two arguments: the base version\'s iteratee in the accumulator\'s place');
  const repro = join(dir, 'repro.test.cjs');
  writeFileSync(repro, f.reproduction!);
  writeFileSync(join(dir, 'base.js'), TRANSFORM);
  const { NODE_TEST_CONTEXT: _, ...outside } = process.env;
  const run = (env: NodeJS.ProcessEnv) => spawnSync(process.execPath, ['--test', repro], { cwd: dir, encoding: 'utf8', env: { ...outside, ...env } });
  const changed = run({});
  assert.equal(changed.status, 1);
  assert.match(changed.stdout, /TypeError: fn is not a function/);
  const base = run({ SNIPEXEC_TARGET: 'base.js' });
  assert.equal(base.status, 0, base.stdout);
});

for (const [refusal, how] of [["throw new Error('later: arg required')", 'throws'], ['return new Promise(function () {})', 'never settles']] as const) {
  test(`diff: a shorter call the base version does not complete (its call ${how}) is no finding, though its branch differs`, async () => {
    const before = [
      'function later(fn, ms, arg) {',
      `  if (arguments.length < 3) ${refusal};`,
      '  setTimeout(function () { fn(arg.x); }, ms);',
      '}',
      'module.exports = later;',
      '',
    ].join('\n');
    const { report } = await change('later.js', before, before.replace('arguments.length < 3', 'arguments.length < 2'));
    assert.deepEqual(found(report), []);
  });
}

test('diff: a shorter call on which the base version takes no other way is no finding', async () => {
  const before = [
    'function join(sep, a, b) {',
    '  var parts = Array.prototype.slice.call(arguments, 1);',
    '  return parts.map(function (p) { return p.trim(); }).join(sep);',
    '}',
    'module.exports = join;',
    '',
  ].join('\n');
  const { report } = await change('join.js', before, before.replace('return parts.map(function (p) { return p.trim(); }).join(sep);', 'return [a.trim(), b.trim()].join(sep);'));
  assert.deepEqual(found(report).filter((f) => f[3] === 'join#arity'), []);
});
