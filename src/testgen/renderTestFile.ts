import * as t from '@babel/types';
import { CALLS_SYMBOL } from '../record/callTrace.ts';
import type { ChildMock } from './childMocks.ts';
import type { ErrorRef, Outcome } from './outcomes.ts';
import type { TestPlan } from './planCalls.ts';
import { propertyAccess, renderJson, renderValue, type RenderNames } from './renderSnapshot.ts';
import type { ClassRef } from './programIndex.ts';
import { holdsUniqueSymbol, replayParts, type ReplayValue } from './replayValue.ts';
import type { SkippedCall } from './skipReasons.ts';
import { VALUE_HELPERS } from './valueHelpers.ts';

export interface TestFileInput {
  /** The program module the file tests (`lib/cart.js`). */
  readonly module: string;
  readonly plans: readonly TestPlan[];
  /** This module's skipped calls, listed at the end of the file. */
  readonly skipped: readonly SkippedCall[];
  /** Where the file imports snipexec's test hooks from: `snipexec/replay`, or a relative path (the helper gen-tests writes next to the tests when the project does not depend on snipexec). */
  readonly replayModule: string;
  /** The program directory, relative to the test file's directory, `/`-separated (`..`, `.`). */
  readonly programDirFromTest: string;
  /** The trace file's name, for the header. */
  readonly traceName: string;
  /** The program's own entry module, which runs the program when imported: how the recorded run went. */
  readonly entry: { readonly module: string; readonly argv: readonly string[]; readonly exitCode: number };
  /** The file's opening comment lines; default gen-tests' own (one test per recorded call). */
  readonly header?: readonly string[];
}

// Names the file itself declares or imports: a module variable never takes one.
const FILE_NAMES = new Set(['test', 'mock', 'assert', 'fileURLToPath', 'Console', 'Writable', 'registerTestHooks', 'mocks', 'reach', 'instance', 'error', 'replay', 'importProgram', 'quietly', 'result', 'self', 'ran', 'ranBefore', 'bySymbolDescription', 'Cycle', 'cycle', 'linked']);

/** The console methods that print: while the program is imported, they write into a buffer. */
const PRINTING = ['log', 'info', 'debug', 'warn', 'error', 'trace', 'dir', 'dirxml', 'table', 'group', 'groupCollapsed', 'assert'];

const HELPERS = {
  quietly: `/**
 * Runs \`load\` (the imports of the program) with the console writing into a buffer: what the program
 * prints when it loads is not the tests' output. When \`load\` fails, the buffer goes to stderr.
 */
async function quietly(load) {
  const held = [];
  const sink = new Writable({ write(chunk, encoding, done) { held.push(String(chunk)); done(); } });
  const quiet = new Console({ stdout: sink, stderr: sink });
  const printing = ${JSON.stringify(PRINTING)}.filter((name) => typeof console[name] === 'function');
  const mocked = printing.map((name) => mock.method(console, name, quiet[name]));
  try {
    await load();
  } catch (error) {
    process.stderr.write(held.join(''));
    throw error;
  } finally {
    for (const method of mocked) method.mock.restore();
  }
}`,
  importProgram: `/**
 * Imports the program itself, which runs it, as it ran when recorded: with its arguments, and with
 * process.exit held off (it throws instead) until the import is done. When the recorded run failed
 * (\`crashed\`), the same failure here is expected: the module's functions are reachable all the same.
 */
async function importProgram(specifier, argv, crashed) {
  const { argv: saved, exitCode } = process;
  process.argv = [saved[0], fileURLToPath(new URL(specifier, import.meta.url)), ...argv];
  const exit = mock.method(process, 'exit', (code) => {
    throw Object.assign(new Error(\`the program called process.exit(\${code ?? ''}) when imported\`), { programExit: true });
  });
  try {
    await import(specifier);
  } catch (error) {
    if (!crashed && error?.programExit !== true) throw error;
  } finally {
    exit.mock.restore();
    process.argv = saved;
    process.exitCode = exitCode;
  }
}`,
  instance: `/** An object of \`Class\` with these own fields, made without running its constructor. */
function instance(Class, fields) {
  const object = Object.create(Class.prototype);
  for (const [key, value] of Object.entries(fields)) Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  return object;
}`,
  error: `/** An error of \`Class\` with this message, made without running its constructor. */
function error(Class, message) {
  return Reflect.construct(Error, message === undefined ? [] : [message], Class);
}`,
  ran: `/** How often each of these anonymous or nested program functions has run (the test hooks count them), less \`before\`. */
function ran(keys, before = {}) {
  const counts = globalThis[Symbol.for(${JSON.stringify(CALLS_SYMBOL)})] ?? new Map();
  return Object.fromEntries(keys.map((key) => [key, (counts.get(key) ?? 0) - (before[key] ?? 0)]));
}`,
  ...VALUE_HELPERS,
  replay: `/** Replaces the program function \`key\` until mocks().delete(key): its calls get the recorded outcomes, in order. */
function replay(key, outcomes) {
  const fn = mock.fn(() => { throw new Error(\`\${key} was called more often than when it was recorded\`); });
  outcomes.forEach((outcome, index) => fn.mock.mockImplementationOnce(outcome, index));
  mocks().set(key, fn);
  return fn;
}`,
} as const;

/** The text of one `<module>.test.mjs`: one `node:test` test per plan. */
export function renderTestFile(input: TestFileInput): string {
  const { prelude, body: tests } = renderProgramFile(input, (names, errorOf, usesHelper) => input.plans.map((plan) => renderTest(plan, names, errorOf, usesHelper)));
  const header = input.header ?? [
    `// Generated by snipexec gen-tests from ${input.traceName}: one test per recorded call of ${input.module}.`,
    '// The calls a tested call made to other program functions are replayed as recorded. Regenerate rather than edit.',
  ];
  const lines = [...header, ...prelude, ...tests.flatMap((test) => ['', test])];
  if (input.skipped.length > 0) lines.push('', '// Skipped calls:', ...skippedLines(input.skipped));
  return `${lines.join('\n')}\n`;
}

/** Call ids a skipped-calls line names before it only counts the rest. */
const NAMED_CALLS = 5;

/** One comment line per function and reason (an inline callback called 10,000 times is one line): `// - fn (calls 3, 5 and 98 more): reason`. */
function skippedLines(skipped: readonly SkippedCall[]): string[] {
  const groups = new Map<string, SkippedCall[]>();
  for (const s of skipped) {
    const key = JSON.stringify([s.qualname, s.reason]);
    const group = groups.get(key);
    if (group) group.push(s);
    else groups.set(key, [s]);
  }
  return [...groups.values()].map((group) => {
    const [first] = group as [SkippedCall, ...SkippedCall[]];
    const ids = group.slice(0, NAMED_CALLS).map((s) => s.callId).join(', ');
    const more = group.length - NAMED_CALLS;
    const calls = group.length === 1 ? `call ${ids}` : `calls ${ids}${more > 0 ? ` and ${more} more` : ''}`;
    return `// - ${first.qualname} (${calls}): ${first.reason}`;
  });
}

/** What a file needs to call program functions as a generated test does. */
export type ProgramFileInput = Pick<TestFileInput, 'module' | 'plans' | 'replayModule' | 'programDirFromTest' | 'entry'>;

/** One plan's call as its test makes it: the lines that build the receiver, and the call expression (not awaited). */
export interface RenderedCall {
  readonly setup: readonly string[];
  readonly invoke: string;
  /** The test awaits the call (an async function). */
  readonly async: boolean;
}

/**
 * The lines that load the program exactly as a test file of these plans does (the same imports,
 * hooks, module imports and helpers), and each plan's call as its test makes it: a script made of
 * them calls the real functions the way the generated tests will (gen-tests --ai runs it).
 */
export function renderCallScript(input: ProgramFileInput): { readonly prelude: readonly string[]; readonly calls: readonly RenderedCall[] } {
  const { prelude, body } = renderProgramFile(input, (names) => input.plans.map((plan) => ({ ...renderInvocation(plan, names), async: plan.async })));
  return { prelude, calls: body };
}

type ErrorOf = (ref: ErrorRef, message: string | undefined) => string;

/** The file's imports, hooks, program imports, module variables and helpers, around the code `render` makes with its names. */
function renderProgramFile<T>(input: ProgramFileInput, render: (names: RenderNames, errorOf: ErrorOf, usesHelper: (helper: keyof typeof HELPERS) => void) => T): { prelude: string[]; body: T } {
  const modules = moduleVariables(input);
  const used = new Set<keyof typeof HELPERS>();
  const names: RenderNames = {
    reached: (module: string, name: string) => `${modules.get(module)}${propertyAccess(name)}`,
    get instanceHelper() {
      used.add('instance');
      return 'instance';
    },
    get cycleHelpers() {
      used.add('cycle');
      used.add('linked');
      return { cycle: 'cycle', linked: 'linked' };
    },
  };
  const errorOf: ErrorOf = (ref, message) => {
    const text = message === undefined ? '' : JSON.stringify(message);
    if (ref.kind === 'program') {
      used.add('error');
      return `error(${names.reached(ref.class.module, ref.class.name)}${text ? `, ${text}` : ''})`;
    }
    return ref.name === 'AggregateError' ? `new AggregateError([]${text ? `, ${text}` : ''})` : `new ${ref.name}(${text})`;
  };
  const body = render(names, errorOf, (helper) => used.add(helper));
  // A relative specifier starts with ./ or ../ (a bare `program/x.js` would name a package).
  const dir = input.programDirFromTest === '.' ? './' : input.programDirFromTest.startsWith('../') ? `${input.programDirFromTest}/` : `./${input.programDirFromTest}/`;
  const specifier = (module: string): string => JSON.stringify(dir + module.split('/').map(encodeURIComponent).join('/'));
  const importLine = (module: string): string => {
    if (module !== input.entry.module) return `await import(${specifier(module)});`;
    used.add('importProgram');
    return `await importProgram(${specifier(module)}, ${renderJson(input.entry.argv)}, ${input.entry.exitCode !== 0});`;
  };
  const imports = [...modules.keys()].map(importLine);
  used.add('quietly');
  const prelude = [
    "import { Console } from 'node:console';",
    "import { Writable } from 'node:stream';",
    "import { test, mock } from 'node:test';",
    "import assert from 'node:assert/strict';",
    ...(used.has('importProgram') ? ["import { fileURLToPath } from 'node:url';"] : []),
    `import { registerTestHooks, mocks, reach } from ${JSON.stringify(input.replayModule)};`,
    '',
    `registerTestHooks(new URL(${JSON.stringify(dir)}, import.meta.url));`,
    'await quietly(async () => {',
    ...imports.map((line) => `  ${line}`),
    '});',
    ...[...modules].map(([module, name]) => `const ${name} = reach(${JSON.stringify(module)});`),
    ...(Object.keys(HELPERS) as (keyof typeof HELPERS)[]).filter((helper) => used.has(helper)).flatMap((helper) => ['', HELPERS[helper]]),
  ];
  return { prelude, body };
}

/** A variable per program module the tests reach into: the tested module first, then those its classes and errors come from. */
function moduleVariables(input: ProgramFileInput): Map<string, string> {
  const modules = new Set<string>([input.module]);
  const visit = (value: ReplayValue | undefined): void => {
    if (value === undefined) return;
    if (value.kind === 'instance') modules.add(value.class.module);
    replayParts(value).forEach(visit);
  };
  const visitOutcome = (outcome: Outcome): void => {
    if (outcome.kind === 'return') visit(outcome.value);
    else if (outcome.error.kind === 'program') modules.add(outcome.error.class.module);
  };
  for (const plan of input.plans) {
    if (plan.target.kind === 'member' || plan.target.kind === 'construct') modules.add(plan.target.class.module);
    else if (plan.target.kind === 'path') modules.add(plan.target.module);
    visit(plan.receiver);
    plan.args.forEach(visit);
    visitOutcome(plan.outcome);
    plan.mocks.forEach((m) => m.outcomes.forEach(visitOutcome));
  }
  const taken = new Set(FILE_NAMES);
  const variables = new Map<string, string>();
  for (const module of modules) {
    const base = identifierFrom(module.split('/').at(-1)?.replace(/\.[^.]*$/, '') ?? 'module');
    let name = taken.has(base) || !t.isValidIdentifier(base) ? `${base}Module` : base;
    for (let n = 2; taken.has(name); n++) name = `${base}Module${n}`;
    taken.add(name);
    variables.set(module, name);
  }
  return variables;
}

function identifierFrom(text: string): string {
  const name = text.replace(/[^A-Za-z0-9_$]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase());
  return /^[A-Za-z_$]/.test(name) ? name : `_${name}`;
}

/** How a test calls the plan's function: the receiver it builds, and the call expression. */
function renderInvocation(plan: TestPlan, names: RenderNames): { setup: string[]; invoke: string } {
  const { target } = plan;
  const args = plan.args.map((arg, index) =>
    plan.spreadLast && index === plan.args.length - 1 && arg.kind === 'json' ? (arg.value as unknown[]).map(renderJson).join(', ') : renderValue(arg, names),
  );
  const argList = args.filter((arg) => arg !== '').join(', ');
  const setup: string[] = [];
  let invoke: string;
  if (target.kind === 'function') invoke = `${names.reached(target.module, target.name)}(${argList})`;
  else if (target.kind === 'construct') invoke = constructInvocation(target.class, argList, names);
  else if (target.kind === 'path') invoke = pathInvocation(target.module, target.path, argList, names);
  else {
    const owner = names.reached(target.class.module, target.class.name);
    const key = JSON.stringify(target.member);
    if (target.static) {
      const member = `${owner}${propertyAccess(target.member)}`;
      invoke = target.access === 'get' ? member : target.access === 'set' ? `${member} = ${args[0] ?? 'undefined'}` : `${member}(${argList})`;
    } else {
      setup.push(`const self = ${renderValue(plan.receiver as ReplayValue, names)};`);
      if (target.access === 'get') invoke = `Reflect.get(${owner}.prototype, ${key}, self)`;
      else if (target.access === 'set') invoke = `Reflect.set(${owner}.prototype, ${key}, ${args[0] ?? 'undefined'}, self)`;
      else invoke = `${owner}.prototype${propertyAccess(target.member)}.call(self${argList ? `, ${argList}` : ''})`;
    }
  }
  return { setup, invoke };
}

/** `new Class(args)`, the class reached from its module. */
function constructInvocation(ref: ClassRef, argList: string, names: RenderNames): string {
  return `new ${names.reached(ref.module, ref.name)}(${argList})`;
}

/** `api.get(args)` on the live object (its `this`), or `(0, exported)(args)` for a function that is a module's exports itself (no `this`). */
function pathInvocation(module: string, path: readonly string[], argList: string, names: RenderNames): string {
  const [head = '', ...rest] = path;
  const callee = `${names.reached(module, head)}${rest.map(propertyAccess).join('')}`;
  return rest.length === 0 ? `(0, ${callee})(${argList})` : `${callee}(${argList})`;
}

function renderTest(plan: TestPlan, names: RenderNames, errorOf: ErrorOf, usesHelper: (helper: keyof typeof HELPERS) => void): string {
  const { call, target } = plan;
  const { setup, invoke } = renderInvocation(plan, names);
  const body: string[] = [];
  if (plan.outcome.kind === 'throw') {
    const { error, message } = plan.outcome;
    const type = error.kind === 'program' ? names.reached(error.class.module, error.class.name) : error.name;
    const check = message === undefined ? type : `(error) => error instanceof ${type} && error.message === ${JSON.stringify(message)}`;
    body.push(plan.async ? `await assert.rejects(async () => ${invoke}, ${check});` : `assert.throws(() => ${invoke}, ${check});`);
  } else if (target.kind === 'member' && target.access === 'set') {
    body.push(`${invoke};`);
  } else {
    const expected = renderValue(plan.outcome.value, names);
    // A unique symbol in the result: the test's Symbol("x") is another symbol, so both sides are compared with each one as its description.
    const compared = holdsUniqueSymbol(plan.outcome.value) ? (usesHelper('bySymbolDescription'), `bySymbolDescription(result), bySymbolDescription(${expected})`) : `result, ${expected}`;
    const result = plan.iterate ? `[...${invoke}]` : `${plan.async ? 'await ' : ''}${invoke}`;
    body.push(`const result = ${result};`, `assert.deepStrictEqual(${compared});`);
  }
  const mockNames = new Map<ChildMock, string>();
  for (const child of plan.mocks) {
    const base = `${identifierFrom(child.qualname)}Mock`;
    let name = base;
    for (let n = 2; [...mockNames.values()].includes(name); n++) name = `${base}${n}`;
    mockNames.set(child, name);
    usesHelper('replay');
    const outcomes = child.outcomes.map((outcome) => mockOutcome(outcome, child.async, names, errorOf));
    setup.push(`const ${name} = replay(${JSON.stringify(child.key)}, [${outcomes.join(', ')}]);`);
    body.push(`assert.strictEqual(${name}.mock.callCount(), ${child.outcomes.length}, ${JSON.stringify(`calls of ${child.qualname}`)});`);
  }
  if (plan.ran.length > 0) {
    // The anonymous and nested functions the call runs: they ran as often as when recorded.
    usesHelper('ran');
    const keys = `[${plan.ran.map((r) => JSON.stringify(r.key)).join(', ')}]`;
    setup.push(`const ranBefore = ran(${keys});`);
    body.push(`assert.deepStrictEqual(ran(${keys}, ranBefore), { ${plan.ran.map((r) => `${JSON.stringify(r.key)}: ${r.callIds.length}`).join(', ')} }, "calls of the anonymous and nested functions it runs");`);
  }
  const title = JSON.stringify(`${call.qualname} (call ${call.callId})`);
  const indent = (lines: readonly string[], depth: number): string[] => lines.map((line) => `${'  '.repeat(depth)}${line}`);
  const inner =
    plan.mocks.length === 0
      ? indent([...setup, ...body], 1)
      : [
          ...indent(setup, 1),
          '  try {',
          ...indent(body, 2),
          '  } finally {',
          ...indent(plan.mocks.map((m) => `mocks().delete(${JSON.stringify(m.key)});`), 2),
          '  }',
        ];
  return [`test(${title}, ${plan.async ? 'async ' : ''}() => {`, ...inner, '});'].join('\n');
}

function mockOutcome(outcome: Outcome, async: boolean, names: RenderNames, errorOf: ErrorOf): string {
  const head = async ? 'async () =>' : '() =>';
  if (outcome.kind === 'throw') return `${head} { throw ${errorOf(outcome.error, outcome.message)}; }`;
  const value = renderValue(outcome.value, names);
  return `${head} ${value.startsWith('{') ? `(${value})` : value}`;
}
