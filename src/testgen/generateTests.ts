import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { InvalidOptions } from '../core/errors.ts';
import { siblingModule } from '../core/moduleFile.ts';
import { traceFileFor, type CallTrace } from '../record/callTrace.ts';
import { functionKeys } from '../record/testHooks.ts';
import { planCalls, type TestPlan } from './planCalls.ts';
import { ProgramIndex } from './programIndex.ts';
import { renderTestFile } from './renderTestFile.ts';
import { SKIP_KINDS, summarize, type SkippedCall, type SkipReason } from './skipReasons.ts';

export const generateTestsOptionsSchema = z
  .object({
    traceDir: z.string().min(1).describe('The directory of the trace file: the trace names its program relative to it.'),
    programDir: z.string().min(1).optional().describe("The program's directory, which module paths are relative to; default the directory of the trace's program."),
    outDir: z.string().min(1).describe('Where the test files go (created); record uses generated_tests/ next to the program.'),
    snipexecRoot: z.string().min(1).optional().describe(`The snipexec installation the tests import its test hooks from (src/replay.ts, .js when it runs from its build) when the project does not resolve \`snipexec/replay\`, through ${'`snipexec-replay.mjs`'} written next to them; default this one.`),
  })
  .strict();

export type GenerateTestsOptions = z.input<typeof generateTestsOptionsSchema>;

export interface GeneratedFile {
  /** Absolute path of the `.test.mjs` file. */
  readonly path: string;
  /** The program module it tests. */
  readonly module: string;
  readonly tests: number;
}

export interface GeneratedTests {
  readonly files: readonly GeneratedFile[];
  /** Every call not turned into a test, with its one-line reason (formatSkipped prints it). */
  readonly skipped: readonly SkippedCall[];
  /** `gen-tests: 7 tests in 2 files; 3 calls skipped (2 a generator, 1 a redacted value)`. */
  readonly summary: string;
  /** Skipped calls of anonymous and nested functions that a written test runs (inside the call it tests) and whose number it asserts. */
  readonly ranInside: ReadonlySet<number>;
  /** The directory's index.js, which `node --test DIR` runs (Node 24 takes a directory argument as a file, and runs its index.js). */
  readonly index: string | undefined;
  /** The helper the tests import snipexec's test hooks through (REPLAY_HELPER) when the project does not depend on snipexec; absent when they import `snipexec/replay`. */
  readonly replayHelper?: string;
}

/** This installation's root: src/testgen/ is two levels down. */
const INSTALLATION = resolve(import.meta.dirname, '../..');
/** This installation's public replay module, relative to its root: `src/replay.ts`, or `.js` when it runs from its build. */
const REPLAY_MODULE = relative(INSTALLATION, fileURLToPath(siblingModule(import.meta.url, '../replay')));
/** The package export generated tests import snipexec's test hooks by (package.json "exports"). */
export const REPLAY_SPECIFIER = 'snipexec/replay';
/** The file written next to the tests when the project does not resolve REPLAY_SPECIFIER: it re-exports the hooks of a snipexec installation, by a relative path. */
export const REPLAY_HELPER = 'snipexec-replay.mjs';

/**
 * Writes one `node:test` file per program module of the trace into `outDir` (`lib/cart.js` →
 * `lib/cart.test.mjs`), one test per recorded call that can be replayed, and an index.js so that
 * `node --test outDir/` runs them all. A module none of whose calls can be replayed gets no file.
 */
export function generateTests(trace: CallTrace, options: GenerateTestsOptions): GeneratedTests {
  return writeTests(trace, options, new Map());
}

/** How a set of test files is named, headed and indexed: gen-tests' own, or another set beside it in the same directory (gen-tests --ai). */
export interface TestFileLayout {
  /** Ends every file's name (`.test.mjs`: `lib/cart.test.mjs`). */
  readonly suffix: string;
  /** A file's opening comment lines; default gen-tests' own. */
  readonly header?: (module: string, traceName: string) => readonly string[];
  /** Whether writeTests writes index.js listing its files; a set beside gen-tests' own lists itself with writeIndex. */
  readonly writeIndex: boolean;
}

export const TEST_FILE_LAYOUT: TestFileLayout = { suffix: '.test.mjs', writeIndex: true };

/** generateTests, with `excluded` calls skipped for the reasons given (checkTests' failing replays). */
export function writeTests(trace: CallTrace, options: GenerateTestsOptions, excluded: ReadonlyMap<number, SkipReason>, layout: TestFileLayout = TEST_FILE_LAYOUT): GeneratedTests {
  const parsed = generateTestsOptionsSchema.safeParse(options);
  if (!parsed.success) throw new InvalidOptions(parsed.error.issues.map((i) => `${i.path.join('.') || 'options'}: ${i.message}`).join('; '));
  const traceDir = resolve(parsed.data.traceDir);
  const programDir = resolve(parsed.data.programDir ?? dirname(resolve(traceDir, trace.program)));
  const outDir = resolve(parsed.data.outDir);
  const helper = resolvesReplay(outDir) ? undefined : join(outDir, REPLAY_HELPER);
  const modules = [...new Set(trace.calls.map((call) => call.module))];
  const program = { module: relative(programDir, resolve(traceDir, trace.program)).split(sep).join('/'), argv: trace.argv, exitCode: trace.exitCode };
  const index = new ProgramIndex(programDir, modules, [outDir], trace.reach);
  const byModule = new Map<string, { plans: TestPlan[]; skipped: SkippedCall[] }>(modules.map((module) => [module, { plans: [], skipped: [] }]));
  const skipped: SkippedCall[] = [];
  // By module, on demand: a function value may come from a module none of whose calls is recorded.
  const keysByModule = new Map<string, ReturnType<typeof functionKeys>>();
  const keysOf = (key: string): ReturnType<typeof functionKeys> => {
    const module = key.slice(0, key.indexOf('#'));
    let keys = keysByModule.get(module);
    if (keys === undefined) keysByModule.set(module, (keys = functionKeys(programDir, [module])));
    return keys;
  };
  const keys = { mockable: (key: string) => keysOf(key).mockable.has(key), unique: (key: string) => keysOf(key).unique.has(key) };
  for (const planned of planCalls(trace, index, keys, excluded)) {
    const entry = byModule.get(planned.call.module);
    if (entry === undefined) continue;
    if ('test' in planned) entry.plans.push(planned.test);
    else {
      const { callId, qualname, module } = planned.call;
      const call: SkippedCall = { callId, qualname, module, kind: planned.skip.kind, reason: `${SKIP_KINDS[planned.skip.kind]}: ${planned.skip.detail}` };
      entry.skipped.push(call);
      skipped.push(call);
    }
  }
  const fileNames = testFileNames(modules.filter((module) => (byModule.get(module)?.plans.length ?? 0) > 0), layout.suffix);
  const files: GeneratedFile[] = [];
  for (const [module, fileName] of fileNames) {
    const entry = byModule.get(module);
    if (entry === undefined) continue;
    const path = join(outDir, ...fileName.split('/'));
    const programDirFromTest = relative(dirname(path), programDir).split(sep).join('/') || '.';
    const traceName = traceFileFor(basename(trace.program));
    const header = layout.header?.(module, traceName);
    const replayModule = helper === undefined ? REPLAY_SPECIFIER : relativeSpecifier(dirname(path), helper);
    const text = renderTestFile({ module, plans: entry.plans, skipped: entry.skipped, replayModule, programDirFromTest, traceName, entry: program, ...(header ? { header } : {}) });
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    files.push({ path, module, tests: entry.plans.length });
  }
  let indexPath: string | undefined;
  if (files.length > 0 && layout.writeIndex) indexPath = writeIndex(outDir, [...fileNames.values()]);
  if (files.length > 0 && helper !== undefined) writeReplayHelper(helper, parsed.data.snipexecRoot === undefined ? INSTALLATION : resolve(parsed.data.snipexecRoot));
  const tests = files.reduce((sum, file) => sum + file.tests, 0);
  const tested = new Set([...byModule.values()].flatMap((entry) => entry.plans.map((plan) => plan.call.callId)));
  const ranInside = new Set([...byModule.values()].flatMap((entry) => entry.plans.flatMap((plan) => plan.ran.flatMap((r) => r.callIds))).filter((id) => !tested.has(id)));
  return { files, skipped, summary: summarize(tests, files.length, skipped, ranInside.size), ranInside, index: indexPath, ...(files.length > 0 && helper !== undefined ? { replayHelper: helper } : {}) };
}

/** Whether `snipexec/replay` resolves from `dir` to a file (the project depends on snipexec), as the tests there will resolve it. */
function resolvesReplay(dir: string): boolean {
  try {
    return existsSync(createRequire(join(dir, 'index.js')).resolve(REPLAY_SPECIFIER));
  } catch {
    return false;
  }
}

/** `./x.mjs` or `../x.mjs`: `target` as an import specifier relative to `fromDir` (a file URL only across Windows drives). */
function relativeSpecifier(fromDir: string, target: string): string {
  const path = relative(fromDir, target);
  if (isAbsolute(path)) return pathToFileURL(target).href;
  const posix = path.split(sep).map(encodeURIComponent).join('/');
  return posix.startsWith('../') ? posix : `./${posix}`;
}

/** The helper: the installation's replay module by a path relative to the tests, so no absolute path is written. */
function writeReplayHelper(path: string, installation: string): void {
  writeFileSync(path, [
    '// Written by snipexec gen-tests: the tests here import snipexec\'s test hooks through this file, because this',
    '// project does not depend on snipexec. They hold as long as that installation stays where it is; for tests that',
    `// hold after a move or \`npm ci\`, \`npm install --save-dev snipexec\` and generate them again: they import ${REPLAY_SPECIFIER}.`,
    `export { registerTestHooks, mocks, reach } from ${JSON.stringify(relativeSpecifier(dirname(path), join(installation, REPLAY_MODULE)))};`,
    '',
  ].join('\n'));
}

/** `lib/cart.js` → `lib/cart.test.mjs`; modules that would share a name (`cart.js`, `cart.ts`) keep their extension (`cart.js.test.mjs`). */
function testFileNames(modules: readonly string[], suffix: string): Map<string, string> {
  const stem = (module: string): string => module.replace(/\.[^./]*$/, '');
  const counts = new Map<string, number>();
  for (const module of modules) counts.set(stem(module), (counts.get(stem(module)) ?? 0) + 1);
  return new Map(modules.map((module) => [module, `${counts.get(stem(module)) === 1 ? stem(module) : module}${suffix}`]));
}

/** Writes `outDir/index.js` loading these test files (paths relative to outDir, `/`-separated), in order; returns its path. */
export function writeIndex(outDir: string, fileNames: readonly string[]): string {
  const path = join(outDir, 'index.js');
  writeFileSync(path, indexText(fileNames));
  return path;
}

/** The test files `outDir/index.js` loads (as writeIndex was given them); none when there is no index or it is not one of ours. */
export function readIndex(outDir: string): string[] {
  const path = join(outDir, 'index.js');
  if (!existsSync(path)) return [];
  const list = /^\[(.*)\]\.reduce\(/m.exec(readFileSync(path, 'utf8'))?.[1];
  try {
    const specifiers = JSON.parse(`[${list ?? ''}]`) as unknown[];
    return specifiers.filter((s): s is string => typeof s === 'string' && s.startsWith('./')).map((s) => s.slice(2).split('/').map(decodeURIComponent).join('/'));
  } catch {
    return [];
  }
}

/**
 * The index `node --test DIR` runs: it imports every test file of the directory. `import()` works
 * whether Node reads index.js as CommonJS or as a module (a program's package.json may say either).
 */
function indexText(fileNames: readonly string[]): string {
  const files = fileNames.map((name) => JSON.stringify(`./${name.split('/').map(encodeURIComponent).join('/')}`));
  return [
    '// Generated by snipexec gen-tests. `node --test DIR` runs a directory as its index.js: this loads every test file here, in order.',
    '// (`node --test "DIR/**/*.test.mjs"` runs each file in a process of its own instead.)',
    `[${files.join(', ')}].reduce((loaded, file) => loaded.then(() => import(file)), Promise.resolve());`,
    '',
  ].join('\n');
}
