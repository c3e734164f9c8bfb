import * as t from '@babel/types';
import type { ChildMock, ErrorRef, Outcome, TestPlan } from './planCalls.ts';
import { propertyAccess, renderJson, renderValue, type RenderNames } from './renderSnapshot.ts';
import type { ReplayValue } from './replayValue.ts';
import type { SkippedCall } from './skipReasons.ts';

export interface TestFileInput {
  /** The program module the file tests (`lib/cart.js`). */
  readonly module: string;
  readonly plans: readonly TestPlan[];
  /** This module's skipped calls, listed at the end of the file. */
  readonly skipped: readonly SkippedCall[];
  /** The file URL of this installation's testHooks.ts. */
  readonly testHooksUrl: string;
  /** The program directory, relative to the test file's directory, `/`-separated (`..`, `.`). */
  readonly programDirFromTest: string;
  /** The trace file's name, for the header. */
  readonly traceName: string;
  /** The program's own entry module, which runs the program when imported: how the recorded run went. */
  readonly entry: { readonly module: string; readonly argv: readonly string[]; readonly exitCode: number };
}

// Names the file itself declares or imports: a module variable never takes one.
const FILE_NAMES = new Set(['test', 'mock', 'assert', 'fileURLToPath', 'registerTestHooks', 'mocks', 'reach', 'instance', 'error', 'replay', 'importProgram', 'result', 'self']);

const HELPERS = {
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
  const modules = moduleVariables(input);
  const used = new Set<keyof typeof HELPERS>();
  const names: RenderNames = {
    reached: (module: string, name: string) => `${modules.get(module)}${propertyAccess(name)}`,
    get instanceHelper() {
      used.add('instance');
      return 'instance';
    },
  };
  const errorOf = (ref: ErrorRef, message: string | undefined): string => {
    const text = message === undefined ? '' : JSON.stringify(message);
    if (ref.kind === 'program') {
      used.add('error');
      return `error(${names.reached(ref.class.module, ref.class.name)}${text ? `, ${text}` : ''})`;
    }
    return ref.name === 'AggregateError' ? `new AggregateError([]${text ? `, ${text}` : ''})` : `new ${ref.name}(${text})`;
  };
  const tests = input.plans.map((plan) => renderTest(plan, names, errorOf, () => used.add('replay')));
  // A relative specifier starts with ./ or ../ (a bare `program/x.js` would name a package).
  const dir = input.programDirFromTest === '.' ? './' : input.programDirFromTest.startsWith('../') ? `${input.programDirFromTest}/` : `./${input.programDirFromTest}/`;
  const specifier = (module: string): string => JSON.stringify(dir + module.split('/').map(encodeURIComponent).join('/'));
  const importLine = (module: string): string => {
    if (module !== input.entry.module) return `await import(${specifier(module)});`;
    used.add('importProgram');
    return `await importProgram(${specifier(module)}, ${renderJson(input.entry.argv)}, ${input.entry.exitCode !== 0});`;
  };
  const imports = [...modules.keys()].map(importLine);
  const lines = [
    `// Generated by snipexec gen-tests from ${input.traceName}: one test per recorded call of ${input.module}.`,
    '// The calls a tested call made to other program functions are replayed as recorded. Regenerate rather than edit.',
    "import { test, mock } from 'node:test';",
    "import assert from 'node:assert/strict';",
    ...(used.has('importProgram') ? ["import { fileURLToPath } from 'node:url';"] : []),
    `import { registerTestHooks, mocks, reach } from ${JSON.stringify(input.testHooksUrl)};`,
    '',
    `registerTestHooks(new URL(${JSON.stringify(dir)}, import.meta.url));`,
    ...imports,
    ...[...modules].map(([module, name]) => `const ${name} = reach(${JSON.stringify(module)});`),
    ...(Object.keys(HELPERS) as (keyof typeof HELPERS)[]).filter((helper) => used.has(helper)).flatMap((helper) => ['', HELPERS[helper]]),
    ...tests.flatMap((test) => ['', test]),
  ];
  if (input.skipped.length > 0) lines.push('', '// Skipped calls:', ...input.skipped.map((s) => `// - ${s.qualname} (call ${s.callId}): ${s.reason}`));
  return `${lines.join('\n')}\n`;
}

/** A variable per program module the tests reach into: the tested module first, then those its classes and errors come from. */
function moduleVariables(input: TestFileInput): Map<string, string> {
  const modules = new Set<string>([input.module]);
  const visit = (value: ReplayValue | undefined): void => {
    if (value === undefined) return;
    if (value.kind === 'instance') {
      modules.add(value.class.module);
      value.fields.forEach(([, field]) => visit(field));
    } else if (value.kind === 'map') value.entries.forEach(([k, v]) => (visit(k), visit(v)));
    else if (value.kind === 'set') value.values.forEach(visit);
  };
  const visitOutcome = (outcome: Outcome): void => {
    if (outcome.kind === 'return') visit(outcome.value);
    else if (outcome.error.kind === 'program') modules.add(outcome.error.class.module);
  };
  for (const plan of input.plans) {
    if (plan.target.kind === 'member') modules.add(plan.target.class.module);
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

function renderTest(plan: TestPlan, names: RenderNames, errorOf: (ref: ErrorRef, message: string | undefined) => string, usesReplay: () => void): string {
  const { call, target } = plan;
  const args = plan.args.map((arg, index) =>
    plan.spreadLast && index === plan.args.length - 1 && arg.kind === 'json' ? (arg.value as unknown[]).map(renderJson).join(', ') : renderValue(arg, names),
  );
  const argList = args.filter((arg) => arg !== '').join(', ');
  const setup: string[] = [];
  let invoke: string;
  if (target.kind === 'function') invoke = `${names.reached(target.module, target.name)}(${argList})`;
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
  const body: string[] = [];
  if (plan.outcome.kind === 'throw') {
    const { error, message } = plan.outcome;
    const type = error.kind === 'program' ? names.reached(error.class.module, error.class.name) : error.name;
    const check = message === undefined ? type : `(error) => error instanceof ${type} && error.message === ${JSON.stringify(message)}`;
    body.push(plan.async ? `await assert.rejects(async () => ${invoke}, ${check});` : `assert.throws(() => ${invoke}, ${check});`);
  } else if (target.kind === 'member' && target.access === 'set') {
    body.push(`${invoke};`);
  } else {
    body.push(`const result = ${plan.async ? 'await ' : ''}${invoke};`, `assert.deepStrictEqual(result, ${renderValue(plan.outcome.value, names)});`);
  }
  const mockNames = new Map<ChildMock, string>();
  for (const child of plan.mocks) {
    const base = `${identifierFrom(child.qualname)}Mock`;
    let name = base;
    for (let n = 2; [...mockNames.values()].includes(name); n++) name = `${base}${n}`;
    mockNames.set(child, name);
    usesReplay();
    const outcomes = child.outcomes.map((outcome) => mockOutcome(outcome, child.async, names, errorOf));
    setup.push(`const ${name} = replay(${JSON.stringify(child.key)}, [${outcomes.join(', ')}]);`);
    body.push(`assert.strictEqual(${name}.mock.callCount(), ${child.outcomes.length}, ${JSON.stringify(`calls of ${child.qualname}`)});`);
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

function mockOutcome(outcome: Outcome, async: boolean, names: RenderNames, errorOf: (ref: ErrorRef, message: string | undefined) => string): string {
  const head = async ? 'async () =>' : '() =>';
  if (outcome.kind === 'throw') return `${head} { throw ${errorOf(outcome.error, outcome.message)}; }`;
  const value = renderValue(outcome.value, names);
  return `${head} ${value.startsWith('{') ? `(${value})` : value}`;
}
