// Frozen-object edge values (src/diff/frozenEdges.ts): a learnt object a driven function takes in
// a parameter whose members a changed line deletes or writes is also given frozen; a change that
// drops the base version's guard around the write (a try around `delete`) shows.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runDiff, type DiffReport } from '../src/diff/runDiff.ts';
import { mutatedParameters } from '../src/diff/frozenEdges.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';
import { gitRepo, replayed } from './helpers.ts';

async function change(file: string, before: string, after: string): Promise<DiffReport> {
  const dir = gitRepo({ [file]: before });
  writeFileSync(join(dir, file), after);
  writeFileSync(join(dir, 'base.js'), before);
  lastDir = dir;
  return runDiff({ cwd: dir, reproductions: true });
}
let lastDir = '';

const found = (r: DiffReport) => r.findings.map((f) => [f.line, f.type, f.message, f.evidence.edge?.source.startsWith('Object.freeze(') === true]);

const COPY = [
  "'use strict';",
  'function copyExtra(argv) {',
  '  if (!argv._) return argv;',
  '  argv._.push.apply(argv._, argv.extra);',
  '  try {',
  '    delete argv.extra;',
  '  } catch (e) {}',
  '  return argv;',
  '}',
  'module.exports = copyExtra;',
  '',
].join('\n');

test('mutatedParameters: the parameters whose members a changed line deletes, assigns or updates, where the base version wrote the same member', () => {
  const code = 'function f(a, b, c, d) {\n  delete a.x;\n  b.y = 1;\n  c.n++;\n  d.z;\n}\n';
  const parsed = parseSnippet(code);
  assert.deepEqual([...(mutatedParameters(parsed, new Set([2, 3, 4, 5]), parsed).get(1) ?? [])].sort(), [0, 1, 2]);
  assert.equal(mutatedParameters(parsed, new Set([5]), parsed).size, 0);
  // A write the change adds (the base's `f` never wrote `b.y`): no frozen edge for it.
  assert.deepEqual([...(mutatedParameters(parsed, new Set([2, 3]), parseSnippet(code.replace('  b.y = 1;\n', ''))).get(1) ?? [])], [0]);
});

test('diff: a member write the change adds to a caller\'s object is no finding with the object frozen (the base never wrote it)', async () => {
  const before = COPY.replace('  try {\n    delete argv.extra;\n  } catch (e) {}\n', '');
  const report = await change('copy.js', before, before.replace('  return argv;', '  argv.done = true;\n  return argv;'));
  assert.deepEqual(found(report).filter((f) => f[3]), []);
});

test('diff: a change that drops the try around a delete of a caller\'s member is found with the caller\'s object frozen', async () => {
  const after = COPY.replace('  try {\n    delete argv.extra;\n  } catch (e) {}', '  delete argv.extra;');
  const report = await change('copy.js', COPY, after);
  assert.deepEqual(found(report).filter((f) => f[3]), [[5, 'TypeError', "Cannot delete property 'extra' of #<Object>", true]]);
  // Its reproduction freezes the same object: fails on the changed file, passes on the base.
  const f = report.findings.find((x) => x.evidence.edge?.source.startsWith('Object.freeze('))!;
  const r = replayed(lastDir, 'copy.js', COPY, f.reproduction!);
  assert.ok(r.failsOnChanged, r.output);
  assert.match(r.output, /Cannot delete property 'extra'/);
  assert.ok(r.passesOnBase, r.output);
});

test('diff: a delete the base version made unguarded too is no finding with the object frozen', async () => {
  const before = COPY.replace('  try {\n    delete argv.extra;\n  } catch (e) {}', '  delete argv.extra;');
  const report = await change('copy.js', before, before.replace('  delete argv.extra;', "  delete argv['extra'];"));
  assert.deepEqual(found(report).filter((f) => f[3]), []);
});

// A factory's API: the method is put on the object the factory returns, and callers call it there.
const FACTORY = [
  "'use strict';",
  'function Factory(opts) {',
  '  const self = {};',
  '  self.copy = function (argv) {',
  '    if (!argv._) return argv;',
  '    argv._.push.apply(argv._, argv.extra);',
  '    try {',
  '      delete argv.extra;',
  '    } catch (e) {}',
  '    return argv;',
  '  };',
  '  return self;',
  '}',
  'module.exports = Factory;',
  '',
].join('\n');

test('diff: a method of the object a factory returns is called as callers call it: its frozen-object error counts, and its reproduction calls it on the factory\'s result', async () => {
  const after = FACTORY.replace('    try {\n      delete argv.extra;\n    } catch (e) {}', '    delete argv.extra;');
  const report = await change('factory.js', FACTORY, after);
  assert.deepEqual(found(report).filter((f) => f[3]), [[7, 'TypeError', "Cannot delete property 'extra' of #<Object>", true]]);
  const f = report.findings.find((x) => x.evidence.edge?.source.startsWith('Object.freeze('))!;
  const r = replayed(lastDir, 'factory.js', FACTORY, f.reproduction!);
  assert.ok(r.failsOnChanged, r.output);
  assert.match(r.output, /Cannot delete property 'extra'/);
  assert.ok(r.passesOnBase, r.output);
});
