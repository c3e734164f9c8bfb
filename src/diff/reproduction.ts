import type { DriveTarget } from '../instrument/driveTargets.ts';
import type { DriveRecord } from '../protocol/runtime.ts';
import type { RenderedDefinitions } from '../engine/renderDefinitions.ts';
import { drivenCalls } from '../emit/drivenCalls.ts';
import { commentText, jsString } from '../emit/sourceText.ts';

/** What a reproduction needs of the run that showed a finding. */
export interface ReproductionParts {
  /** The changed file, relative to the repository's top level. */
  readonly file: string;
  readonly type: string;
  readonly message: string;
  readonly line: number;
  readonly fragment: string;
  readonly rendered: RenderedDefinitions;
  readonly targets: readonly DriveTarget[];
  /** The drive call that threw; absent for an error of the module's top level. */
  readonly drive: DriveRecord | undefined;
  /** The call as the human report shows it. */
  readonly callText: string | undefined;
}

const MADE = '__snipexec_made';
const CALL = '__snipexec_drive_call';
/** Recognises a file with `import`/`export` statements, which a CommonJS wrapper cannot load. */
const MODULE_SYNTAX = /^\s*(?:import\s*[\w{*'"]|export\s+(?:default|const|let|var|function|class|async|\{|\*))/m;

/**
 * A `node:test` file that replays a finding under plain Node: it loads the file as CommonJS with
 * the learnt values for what lies outside it (modules through `require`, free names as the module
 * function's parameters), then makes the driven call that threw. It fails with the finding's error
 * against the changed file and passes against the base version (`SNIPEXEC_TARGET=FILE`). Undefined
 * when the file is an ES module or TypeScript, or the call goes through a nested function drive
 * reached by its registry: neither replays without snipexec.
 */
export function reproduction(parts: ReproductionParts, source: string): string | undefined {
  if (MODULE_SYNTAX.test(source) || /\.(?:tsx?|mts|cts|mjs)$/i.test(parts.file)) return undefined;
  let call = 'undefined';
  if (parts.drive) {
    const { calls, registered } = drivenCalls(parts.targets, [parts.drive], new Map(parts.rendered.accessors), false);
    if (registered.size > 0) return undefined;
    const last = calls[calls.length - 1];
    const m = last === undefined ? null : new RegExp(`^${CALL}\\(\\(\\) => ([\\s\\S]*)\\);$`).exec(last);
    if (!m) return undefined;
    call = m[1]!;
  }
  const table = /^var require = function require\(/m.test(parts.rendered.source);
  const names = [...new Set(parts.rendered.accessors.map(([, expr]) => expr).filter((e) => /^[A-Za-z_$][\w$]*$/.test(e) && e !== 'require'))];
  const title = `${parts.fragment}${parts.callText ? `: ${parts.callText}` : ''} should not throw ${parts.type}`;
  return [
    `// snipexec diff: reproduces ${commentText(`${parts.type}: ${parts.message}`)} at ${commentText(parts.file)}:${parts.line} (${commentText(parts.fragment)}).`,
    '// Run it from the repository\'s top level: `node --test THIS_FILE` fails with that error against the changed',
    '// file; `SNIPEXEC_TARGET=path/to/base.js node --test THIS_FILE` runs it against another version of the file.',
    "'use strict';",
    "const { test } = require('node:test');",
    "const { readFileSync } = require('node:fs');",
    "const path = require('node:path');",
    "const { compileFunction } = require('node:vm');",
    "const { createRequire } = require('node:module');",
    `const target = path.resolve(process.env.SNIPEXEC_TARGET || ${jsString(parts.file)});`,
    '',
    `test(${jsString(title)}, async () => {`,
    '  const realRequire = createRequire(target);',
    '  // ---- the values snipexec learnt for what lies outside the file ----',
    ...parts.rendered.source.split('\n').filter((l) => l !== '').map((l) => `  ${l}`),
    table
      ? "  const moduleRequire = (id) => { try { return require(id); } catch (error) { if (error && error.code === 'MODULE_NOT_FOUND') return realRequire(id); throw error; } };"
      : '  const moduleRequire = realRequire;',
    `  const ${MADE} = {};`,
    '  const module = { exports: {} };',
    `  const run = compileFunction(readFileSync(target, 'utf8') + ${jsString(`\n;return () => (${call});`)}, ${JSON.stringify(['exports', 'require', 'module', '__filename', '__dirname', MADE, ...names])}, { filename: target });`,
    `  const call = run(module.exports, moduleRequire, module, target, path.dirname(target), ${[MADE, ...names].join(', ')});`,
    '  await call();',
    '});',
    '',
  ].join('\n');
}
