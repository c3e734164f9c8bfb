import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { bundleGuest, type GuestBundle } from '../src/sandbox/bundleGuest.ts';
import type { RunResult } from '../src/core/runResult.ts';
import { selected } from './helpers.ts';

/**
 * How the runtime loads environments and runs with them, with tiny inline environments: modules
 * and globals they define, drivers after the snippet's timers and before the uncalled functions
 * are driven, exit(), valueOf, a load that fails, and whose fault an error is.
 */

/** An environment from the body of its `setup(host)`. */
const env = (name: string, setupBody: string): GuestBundle => ({ name, code: `exports.setup = function (host) {\n${setupBody}\n};` });

const demo = env('demo', `
  const log = [];
  host.defineGlobal('greeting', 'hello');
  host.defineModule('node:demo', { twice: (x) => x * 2, boom() { null.boom; }, call: (f) => f() });
  host.defineGlobal('onEvent', (h) => { log.push(h); });
  host.defineGlobal('quit', (code) => host.exit(code));
  host.defineGlobal('fetchData', () => host.valueOf('fetchData()', 'fetchData() returned nothing'));
  host.afterSnippet('events', () => { if (log.length > 0) console.log('driver'); for (const h of log) h({ type: 'click' }); });
`);

interface Case {
  readonly name: string;
  readonly code: string;
  readonly environments?: readonly GuestBundle[];
  readonly options?: Parameters<typeof runSnippet>[1];
  readonly status: RunResult['status'];
  readonly stdout?: string;
  /** The type, message and attribution of each reported error. */
  readonly errors?: readonly (readonly [string, string, string])[];
  readonly uncovered?: readonly number[];
  readonly check?: (r: RunResult) => void;
}

const CASES: readonly Case[] = [
  { name: 'defineModule is what require gives, with and without node:', code: "const a = require('demo'), b = require('node:demo');\nconsole.log(a === b, a.twice(21));", status: 'completed', stdout: 'true 42\n', check: (r) => assert.deepEqual(r.injections, []) },
  { name: 'defineModule is what an import gives', code: "import { twice } from 'demo';\nconsole.log(twice(4));", status: 'completed', stdout: '8\n' },
  { name: 'defineGlobal is seen as a global', code: 'console.log(greeting, typeof onEvent);', status: 'completed', stdout: 'hello function\n', check: (r) => assert.deepEqual(r.injections, []) },
  {
    name: 'a driver runs after the timers and before the uncalled functions are driven', options: { callUncalled: true },
    code: "setTimeout(() => console.log('timer'), 10);\nonEvent((e) => console.log('handler', e.type));\nfunction later() { console.log('driven'); }",
    status: 'completed', stdout: 'timer\ndriver\nhandler click\ndriven\n',
  },
  {
    name: 'a function a driver called is not driven again', options: { callUncalled: true },
    environments: [env('render', "host.afterSnippet('render', () => { for (const f of host.topLevelFunctions()) if (!f.called) f.fn('by env'); });")],
    code: "function App(p) { console.log('App', p); }\nfunction Used() {}\nUsed();",
    status: 'completed', stdout: 'App by env\n', check: (r) => assert.doesNotMatch(r.program ?? '', /called by snipexec/),
  },
  {
    name: 'topLevelFunctions lists the top-level functions without callUncalled',
    environments: [env('list', "host.afterSnippet('list', () => { console.log(host.topLevelFunctions().map((f) => f.name + ':' + f.called).join(' ')); });")],
    code: 'function a() {}\nconst b = () => {};\nfunction c() {}\na();', status: 'completed', stdout: 'a:true b:false c:false\n',
  },
  {
    name: 'exit ends the run as completed: no catch keeps it, nothing after it runs or prints',
    code: "console.log('a');\ntry { quit(3); } catch (e) { console.log('caught'); } finally { console.log('finally'); }\nsetTimeout(() => console.log('timer'), 1);\nconsole.log('after');",
    status: 'completed', stdout: 'a\n', errors: [], uncovered: [3, 4],
  },
  { name: 'exit in a timer ends the run as completed', code: "setTimeout(() => { quit(0); console.log('no'); }, 1);\nsetTimeout(() => console.log('later'), 5);", status: 'completed', stdout: '', errors: [] },
  { name: 'the line that called exit ran', code: "console.log(1);\nquit(0);\nconsole.log(2);", status: 'completed', stdout: '1\n', uncovered: [3] },
  {
    name: 'valueOf gives a value learnt from how the snippet uses it', options: { mode: 'trace' },
    code: 'const d = fetchData();\nif (d.user.age > 18) console.log(typeof d.user.name.toUpperCase());', status: 'completed', stdout: 'string\n',
    check: (r) => assert.equal(r.injections.find((i) => i.element === 'fetchData()')?.kind, 'environment'),
  },
  {
    name: 'an environment whose setup throws is reported, and the run goes on without it',
    environments: [env('broken', "throw new Error('no DOM today');"), demo],
    code: 'console.log(greeting);', status: 'completed', stdout: 'hello\n',
    check: (r) => assert.deepEqual(r.environments, { loaded: ['demo'], failed: [{ name: 'broken', message: 'no DOM today' }] }),
  },
  {
    name: 'an environment whose module throws is reported', environments: [{ name: 'bad', code: 'null.x;' }, demo],
    code: 'console.log(greeting);', status: 'completed', stdout: 'hello\n',
    check: (r) => assert.deepEqual(r.environments?.failed.map((f) => f.name), ['bad']),
  },
  {
    name: 'an environment that does not parse is reported', environments: [{ name: 'unparsable', code: 'exports.setup = function ( {' }, demo],
    code: 'console.log(greeting);', status: 'completed', stdout: 'hello\n',
    check: (r) => assert.deepEqual(r.environments?.failed.map((f) => f.name), ['unparsable']),
  },
  {
    name: 'an error raised inside environment code is the environment\'s', code: "const d = require('demo');\nd.boom();",
    status: 'stopped', errors: [['TypeError', "Cannot read properties of null (reading 'boom')", 'environment']],
  },
  {
    name: 'an error a driver raises in environment code is the environment\'s', environments: [env('driverbug', "host.afterSnippet('x', () => { undefined.fire(); });")],
    code: 'console.log(1);', status: 'stopped', stdout: '1\n', errors: [['TypeError', "Cannot read properties of undefined (reading 'fire')", 'environment']],
  },
  {
    name: 'a handler of the snippet an environment calls throws: the snippet\'s error', code: 'onEvent(function (e) {\n  const target = null;\n  target.value;\n});',
    status: 'stopped', stdout: 'driver\n', errors: [['TypeError', "Cannot read properties of null (reading 'value')", 'snippet']],
  },
  {
    name: 'a callback of the snippet an environment function calls throws: the snippet\'s error', code: "require('demo').call(() => { throw new RangeError('mine'); });",
    status: 'stopped', errors: [['RangeError', 'mine', 'snippet']],
  },
];

for (const c of selected(CASES)) {
  test(`environment loading: ${c.name}`, async () => {
    const r = await runSnippet(c.code, { timeoutMs: 30_000, ...c.options }, { environments: c.environments ?? [demo] });
    assert.equal(r.status, c.status, JSON.stringify(r.errors));
    if (c.stdout !== undefined) assert.equal(r.stdout, c.stdout);
    if (c.errors !== undefined) assert.deepEqual(r.errors.map((e) => [e.type, e.message, e.attribution]), c.errors);
    if (c.uncovered !== undefined) assert.deepEqual(r.lines.uncovered, c.uncovered);
    c.check?.(r);
  });
}

test('environment loading: an environment built by bundleGuest from TypeScript source', async () => {
  const bundle = await bundleGuest({
    name: 'typed',
    entry: { contents: "import type { EnvironmentHost } from '../src/protocol/environment.ts';\nexport function setup(host: EnvironmentHost): void { host.defineModule('typed', { n: 7 as number }); }", resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'ts' },
  });
  const r = await runSnippet("console.log(require('typed').n);", {}, { environments: [bundle] });
  assert.equal(r.stdout, '7\n');
});
