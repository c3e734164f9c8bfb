import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as t from '@babel/types';
import { buildProgram, programLayout, type ProgramParts } from '../src/emit/buildProgram.ts';
import { renderDefinitions } from '../src/engine/renderDefinitions.ts';
import { instrumentSnippet, type InstrumentedSnippet } from '../src/instrument/instrumentSnippet.ts';
import type { Lang } from '../src/core/options.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';

// One parse per snippet: the completed program is generated from the form instrumentation lowered, not from a parse of its own.

const CASES: readonly { readonly name: string; readonly lang: Lang; readonly code: string }[] = [
  { name: 'TypeScript', lang: 'ts', code: "#!/usr/bin/env node\n'use strict';\nenum E { A }\nconst n: number = E.A;\nconsole.log(n as number);\n" },
  { name: 'JSX', lang: 'jsx', code: "const el = <div id=\"a\">{name}</div>;\nconsole.log(el);\n" },
  { name: 'module syntax', lang: 'js', code: "import fs from 'fs';\nexport function f() { return fs; }\nconsole.log(typeof f);\n" },
];

function prepared(lang: Lang, code: string, keepLowered: boolean): { parts: ProgramParts; instrumented: InstrumentedSnippet } {
  const parsed = parseSnippet(code, lang);
  const instrumented = instrumentSnippet(parsed.ast, parsed.code, { lang, operatorHooks: false, keepLowered });
  return { parts: { parsed, instrumented, rendered: renderDefinitions(new Map()), drives: [] }, instrumented };
}

for (const c of CASES) {
  test(`lowered program: ${c.name}: the program from the lowered form is the one a fresh parse gives, byte for byte, line map included`, () => {
    const kept = prepared(c.lang, c.code, true);
    assert.ok(kept.instrumented.lowered, 'instrumentation kept the lowered form');
    const fresh = prepared(c.lang, c.code, false);
    assert.equal(fresh.instrumented.lowered, undefined);
    assert.equal(buildProgram(kept.parts), buildProgram(fresh.parts));
    assert.deepEqual(programLayout(kept.parts), programLayout(fresh.parts));
  });
}

test('lowered program: the program is generated from the lowered form it is given, without parsing the snippet again', () => {
  const { parts, instrumented } = prepared('ts', 'const a: number = 1;\nconsole.log(a);\n', true);
  const lowered = instrumented.lowered;
  assert.ok(lowered);
  // A lowered form that differs from the snippet's text: only a program read from it shows the difference.
  const marked = t.file(t.program([t.expressionStatement(t.callExpression(t.identifier('fromLowered'), []))]));
  const program = buildProgram({ ...parts, instrumented: { ...instrumented, lowered: { ...lowered, ast: marked } } });
  assert.match(program, /fromLowered\(\)/);
  // The typed program keeps the types: it parses the snippet, as the lowered form has none.
  assert.match(buildProgram({ ...parts, instrumented: { ...instrumented, lowered: { ...lowered, ast: marked } } }, 'ts'), /const a: number = 1/);
});
