import type { DriveTarget } from '../instrument/driveTargets.ts';
import type { DriveRecord } from '../protocol/runtime.ts';
import type { RenderedDefinitions } from '../emit/renderedDefinitions.ts';
import { drivenArguments, drivenCalls } from '../emit/drivenCalls.ts';
import { commentText, jsString } from '../core/sourceText.ts';
import { ABSENT_PACKAGE_HOOKS, ABSENT_PACKAGE_IMPORTS } from './absentPackages.ts';
import { throughDeclaration, type DeclaredCall } from './throughDeclaration.ts';
import { ownInstanceReplay } from './ownInstanceReplay.ts';

/** What a reproduction needs of the run that showed a finding. */
export interface ReproductionParts {
  /** The changed file, relative to the repository's top level. */
  readonly file: string;
  /** It has import or export statements (fileNames): loaded as an ES module. */
  readonly esm: boolean;
  readonly type: string;
  readonly message: string;
  readonly line: number;
  readonly fragment: string;
  readonly rendered: RenderedDefinitions;
  readonly targets: readonly DriveTarget[];
  /** The drive call that threw; absent for an error of the module's top level. */
  readonly drive: DriveRecord | undefined;
  /** Drive calls made before it that it depends on (methods of the same object, which set the state it reads): replayed first, their errors ignored. */
  readonly before?: readonly DriveRecord[];
  /** The drive call whose result is the function that threw (`wrapHelper(…)` returned `wrapper`): the call is made on what it returns. */
  readonly returnedBy?: DriveRecord;
  /** The call as the human report shows it. */
  readonly callText: string | undefined;
  /** Globals deleted before the file loads: one the change uses without the base version's test for it (`unguarded`). */
  readonly absent?: readonly string[];
  /** The call throws a value on purpose (a thrown-value edge) that the base version lets out: that value passes, only a TypeError, RangeError or ReferenceError fails. */
  readonly rethrows?: boolean;
}

const MADE = '__snipexec_made';

/**
 * A call of a function the file's top level cannot name (`_.object` inside an IIFE) through what
 * the file exports: `_.object(list)` is `module.exports.object(list)` when the file exports `_`,
 * or `module.exports._.object(list)`. Found by name when the call runs (the base version's function
 * is another one); undefined for a target that is not a function or method of a named object.
 */
function throughExports(target: DriveTarget | undefined, record: DriveRecord, accessors: ReadonlyMap<string, string>): string | undefined {
  if (!target || (target.kind !== 'function' && target.kind !== 'method') || target.memberOf === 'class' || target.memberOf === 'prototype') return undefined;
  const path = target.name.split('.');
  if (path.length < 2 || !path.every((p) => /^[A-Za-z_$][\w$]*$/.test(p))) return undefined;
  const args = drivenArguments(target, target.params, accessors, record).join(', ');
  // The exports as the path's root, else holding the root: the owner of the last name, which is the function.
  const lookup = `((exported, path) => { for (const from of [path.slice(1), path]) { let owner = exported; for (const name of from.slice(0, -1)) owner = owner == null ? owner : owner[name]; if (owner != null && typeof owner[from[from.length - 1]] === 'function') return owner; } throw new Error('snipexec: ' + path.join('.') + ' is not reachable from the exports'); })(module.exports, ${JSON.stringify(path)})`;
  return `${lookup}[${JSON.stringify(path[path.length - 1])}](${args})`;
}

/**
 * A `node:test` file that replays a finding under plain Node: it loads the file with the learnt
 * values for what lies outside it, then makes the driven call that threw. It fails with the
 * finding's error against the changed file and passes against the base version
 * (`SNIPEXEC_TARGET=FILE`). A CommonJS file is compiled as a module function whose parameters hold
 * the learnt values; an ES module (or TypeScript Node strips) is imported through module hooks
 * (`module.registerHooks`) that answer its imports with the learnt modules and add an export that
 * makes the call, the learnt values being globals. A function the top level cannot name is called
 * through the file's exports (throughExports); undefined when it is not reachable so (a callback, a
 * nested function drive reached by its registry), which does not replay without snipexec.
 */
export function reproduction(parts: ReproductionParts): string | undefined {
  let call = 'undefined';
  let declared: DeclaredCall | undefined;
  const esm = parts.esm || /\.(?:tsx?|mts|mjs)$/i.test(parts.file);
  if (parts.drive) {
    const accessors = new Map(parts.rendered.accessors);
    const target = parts.targets[parts.drive.k];
    if (parts.returnedBy) {
      // The function the outer call returns, called with its own arguments (as drive did: when it returns one).
      const outer = drivenCalls(parts.targets, [parts.returnedBy], accessors, false);
      if (outer.registered.size > 0 || outer.expressions[0] === undefined || !target) return undefined;
      // A function, or an object holding it as a method (a factory's API: `yargs()._copyDoubleDash(argv)`).
      const method = target.memberOf === 'object' && target.key !== undefined ? `made[${JSON.stringify(target.key)}](${drivenArguments(target, target.params, accessors, parts.drive).join(', ')})` : 'made';
      call = `((made) => (typeof made === 'function' ? made(${drivenArguments(target, target.params, accessors, parts.drive).join(', ')}) : ${method}))(${outer.expressions[0]})`;
    } else {
      const { expressions, registered } = drivenCalls(parts.targets, [...(parts.before ?? []), parts.drive], accessors, false);
      const last = expressions[expressions.length - 1];
      const exported = registered.size > 0 && !esm ? throughExports(target, parts.drive, accessors) : undefined;
      // Or, a function only its IIFE's body names, handed out by the file's text (throughDeclaration).
      declared = registered.size > 0 && !esm && exported === undefined ? throughDeclaration(target, parts.drive, accessors, MADE) : undefined;
      if (registered.size > 0 ? (exported ?? declared) === undefined || (parts.before?.length ?? 0) > 0 : last === undefined) return undefined;
      // The calls before it, each on its own: what one throws or rejects is not the finding.
      const prior = expressions.slice(0, -1).map((p) => `(() => { try { const r = ${p}; if (r && typeof r.then === 'function') r.then(undefined, () => {}); } catch {} })(), `);
      call = `(${prior.join('')}${exported ?? declared?.call ?? last!})`;
    }
  }
  // Instances of the file's own classes: made once the file has defined them (ownInstanceReplay).
  const own = ownInstanceReplay(parts.rendered.source);
  if (own) call = `(${own.fill}, ${call})`;
  const table = /^var require = function require\(/m.test(parts.rendered.source);
  const names = [...new Set(parts.rendered.accessors.map(([, expr]) => expr).filter((e) => /^[A-Za-z_$][\w$]*$/.test(e) && e !== 'require'))];
  const title = `${parts.fragment}${parts.callText ? `: ${parts.callText}` : ''} should not throw ${parts.type}`;
  // A CommonJS wrapper cannot load import/export statements; Node strips TypeScript's types only in an ES module load (esm above).
  const head = [
    `// snipexec diff: reproduces ${commentText(`${parts.type}: ${parts.message}`)} at ${commentText(parts.file)}:${parts.line} (${commentText(parts.fragment)}).`,
    '// Run it from the repository\'s top level: `node --test THIS_FILE` fails with that error against the changed',
    '// file; `SNIPEXEC_TARGET=path/to/base.js node --test THIS_FILE` runs it against another version of the file.',
    "'use strict';",
    "const { test } = require('node:test');",
    "const path = require('node:path');",
    // Here, not in the test: a learnt `require` (the module table) is declared in its body.
    ...(esm ? ["const { createRequire, registerHooks } = require('node:module');", "const { pathToFileURL } = require('node:url');"]
      : ["const { readFileSync } = require('node:fs');", "const { compileFunction } = require('node:vm');", "const { createRequire, registerHooks } = require('node:module');"]),
    ...ABSENT_PACKAGE_IMPORTS,
    `const target = path.resolve(process.env.SNIPEXEC_TARGET || ${jsString(parts.file)});`,
    '',
    `test(${jsString(title)}, async () => {`,
    ...(own?.head ?? []),
    '  // ---- the values snipexec learnt for what lies outside the file ----',
    ...parts.rendered.source.split('\n').filter((l) => l !== '').map((l) => `  ${l}`),
    ...(parts.absent ?? []).map((name) => `  delete globalThis[${jsString(name)}]; // an environment without it, where the base version's test for it mattered`),
  ];
  const learntRequire = table ? 'require' : 'undefined';
  const settle = (made: string) => (parts.rethrows
    ? `  try { await ${made}; } catch (error) { if (error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError) throw error; } // the thrown value itself, let out as the base version does`
    : `  await ${made};`);
  const body = esm ? [
    `  Object.assign(globalThis, { ${[MADE, ...names].map((n) => (n === MADE ? `${MADE}: {}` : n)).join(', ')} });`,
    // As in the run: snipexec gives every file CommonJS's names (code written for a bundler's CommonJS output tests them).
    '  globalThis.module ??= { exports: {} };',
    '  globalThis.exports ??= globalThis.module.exports;',
    '  globalThis.require ??= createRequire(target);',
    `  const learnt = ${learntRequire};`,
    ...ABSENT_PACKAGE_HOOKS,
    '  const learntModule = (specifier) => { if (!learnt) return undefined; try { return { value: learnt(specifier) }; } catch { return undefined; } };',
    '  const targetUrl = pathToFileURL(target).href;',
    '  registerHooks({',
    '    resolve(specifier, context, nextResolve) {',
    "      if (!specifier.startsWith('node:') && learntModule(specifier)) return { url: `snipexec-learnt:${encodeURIComponent(specifier)}`, shortCircuit: true };",
    '      try {',
    '        return nextResolve(specifier, context);',
    '      } catch (error) {',
    "        // A relative import written for a bundler (`../utils/is-array`): the file with an extension, or the folder's index, as bundlers resolve it.",
    "        if (!(error && error.code === 'ERR_MODULE_NOT_FOUND' && /^\\.\\.?\\//.test(specifier))) throw error;",
    "        for (const suffix of ['.js', '.mjs', '.cjs', '.ts', '/index.js', '/index.mjs']) { try { return nextResolve(specifier + suffix, context); } catch {} }",
    '        throw error;',
    '      }',
    '    },',
    '    load(url, context, nextLoad) {',
    "      if (url.startsWith('snipexec-learnt:')) {",
    "        const specifier = decodeURIComponent(url.slice('snipexec-learnt:'.length));",
    "        const value = learntModule(specifier).value;",
    "        const keys = value !== null && (typeof value === 'object' || typeof value === 'function') ? Object.keys(value).filter((k) => /^[A-Za-z_$][\\w$]*$/.test(k) && k !== 'default') : [];",
    "        globalThis.__snipexec_modules = { ...globalThis.__snipexec_modules, [specifier]: value };",
    "        const m = `globalThis.__snipexec_modules[${JSON.stringify(specifier)}]`;",
    "        return { format: 'module', source: `export default ${m};\\n${keys.map((k) => `export const ${k} = ${m}.${k};`).join('\\n')}`, shortCircuit: true };",
    '      }',
    "      if (url.split('?')[0] === targetUrl) {",
    '        const loaded = nextLoad(url, context);',
    `        return { format: /\\.(?:tsx?|mts)$/.test(target) ? 'module-typescript' : 'module', source: String(loaded.source) + ${jsString(`
;export const __snipexec_call = () => (${call});`)}, shortCircuit: true };`,
    '      }',
    '      return nextLoad(url, context);',
    '    },',
    '  });',
    '  const loaded = await import(`${targetUrl}?snipexec=${Date.now()}`);',
    settle('loaded.__snipexec_call()'),
  ] : [
    '  const realRequire = createRequire(target);',
    ...ABSENT_PACKAGE_HOOKS,
    ...(table ? [
      "  const moduleRequire = (id) => { try { return require(id); } catch (error) { if (error && error.code === 'MODULE_NOT_FOUND') return realRequire(id); throw error; } };",
      // The repository's other files load for real, as in the run; the packages they require are the learnt ones too.
      "  const learntValue = (specifier) => { try { return { value: require(specifier) }; } catch { return undefined; } };",
      '  registerHooks({',
      '    resolve(specifier, context, nextResolve) {',
      "      if (/^[^./]/.test(specifier) && !specifier.startsWith('node:') && learntValue(specifier)) return { url: `snipexec-learnt:${encodeURIComponent(specifier)}`, format: 'commonjs', shortCircuit: true };",
      '      return nextResolve(specifier, context);',
      '    },',
      '    load(url, context, nextLoad) {',
      "      if (!url.startsWith('snipexec-learnt:')) return nextLoad(url, context);",
      "      const specifier = decodeURIComponent(url.slice('snipexec-learnt:'.length));",
      '      globalThis.__snipexec_modules = { ...globalThis.__snipexec_modules, [specifier]: learntValue(specifier).value };',
      "      return { format: 'commonjs', source: `module.exports = globalThis.__snipexec_modules[${JSON.stringify(specifier)}];`, shortCircuit: true };",
      '    },',
      '  });',
    ] : ['  const moduleRequire = realRequire;']),
    `  const ${MADE} = {};`,
    '  const module = { exports: {} };',
    `  const run = compileFunction(${declared ? `${declared.expose}(readFileSync(target, 'utf8'))` : "readFileSync(target, 'utf8')"} + ${jsString(`
;return () => (${call});`)}, ${JSON.stringify(['exports', 'require', 'module', '__filename', '__dirname', MADE, ...names])}, { filename: target });`,
    `  const call = run(module.exports, moduleRequire, module, target, path.dirname(target), ${[MADE, ...names].join(', ')});`,
    settle('call()'),
  ];
  const tail = [
    // What the call (or the file) left to timers and promises: a callback the learnt values call later.
    "  await new Promise((resolve, reject) => { const fail = (error) => { done(); reject(error); }; const done = () => { process.off('uncaughtException', fail); process.off('unhandledRejection', fail); }; process.on('uncaughtException', fail); process.on('unhandledRejection', fail); setTimeout(() => { done(); resolve(); }, 200); });",
    '});',
    '',
  ];
  return [...head, ...body, ...tail].join('\n');
}
