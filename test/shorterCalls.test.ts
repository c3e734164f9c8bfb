// Shorter calls (src/diff/shorterCalls.ts): drive calls a target with fewer arguments than it
// declares when the runtime config asks (driveArity), the rest absent; `snipexec diff` tries such
// calls of the driven functions that read `arguments` as edges of their own (`f#arity`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderDefinitions } from '../src/engine/renderDefinitions.ts';
import { SnippetSession } from '../src/engine/snippetSession.ts';
import { declaredParameters } from '../src/instrument/driveTargets.ts';

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
