import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildProgram, type ProgramParts } from '../src/emit/buildProgram.ts';
import { noteProgramFacts, notedProgramFacts } from '../src/emit/programFacts.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';
import { runSnippet } from '../src/index.ts';

/** A snippet's syntax facts, noted at its parse (src/emit/programFacts.ts): its programs do not parse it again. */
const parts = (parsed: ProgramParts['parsed']): ProgramParts => ({
  parsed,
  instrumented: { async: false, topLevelNames: [], topLevelReturn: false, driveTargets: [] },
  rendered: { source: '', accessors: [], identifiers: new Set(), receiver: undefined } as unknown as ProgramParts['rendered'],
  drives: [],
});

test('program facts: noted at the parse, before the tree is rewritten; a program built from the snippet uses them, not a parse', () => {
  const parsed = parseSnippet("'use strict';\nconsole.log(1);\n", 'js');
  noteProgramFacts(parsed);
  assert.deepEqual(notedProgramFacts(parsed), { directives: true, rewrite: false });
  // Rewriting the tree in place, as instrumentation does, changes nothing noted.
  parsed.ast.program.directives.length = 0;
  assert.deepEqual(notedProgramFacts(parsed), { directives: true, rewrite: false });
  // The same program as from a parse of its own.
  const fresh = parseSnippet("'use strict';\nconsole.log(1);\n", 'js');
  assert.equal(buildProgram(parts(parsed)), buildProgram(parts(fresh)));
  // The program takes the noted facts, without a parse: here they say the text needs no rewrite, though a parse of it would.
  const noted = parseSnippet('console.log(1);\n', 'js');
  noteProgramFacts(noted);
  (noted as { code: string }).code = "import { x } from './y';\nconsole.log(x);\n";
  assert.match(buildProgram(parts(noted)), /^import \{ x \}/m);
});

test('program facts: a snippet with module syntax is still rewritten (imports of injected modules)', async () => {
  const result = await runSnippet("import { x } from './thing';\nconsole.log(typeof x);\n", { mode: 'trace' });
  assert.ok(!/^import /m.test(result.program ?? ''), result.program);
});
