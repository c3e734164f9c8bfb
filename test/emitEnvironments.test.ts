// The completed program of a run that used environments: it loads the same environments in plain
// Node, from this snipexec installation (src/emit/nodeEnvironments.ts), and prints what the run
// printed. Programs are run with runWithNode (this process's binary, Node 24), not through snipexec.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { buildProgram, type ProgramParts } from '../src/emit/buildProgram.ts';
import { programEnvironments } from '../src/emit/environmentPreamble.ts';
import { runWithNode } from '../src/emit/runWithNode.ts';
import type { Definition } from '../src/engine/definition.ts';
import { renderDefinitions } from '../src/engine/renderDefinitions.ts';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { instrumentSnippet } from '../src/instrument/instrumentSnippet.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';
import { bundleGuest, type GuestBundle } from '../src/sandbox/bundleGuest.ts';
import { selected } from './helpers.ts';

/** An environment from the body of its `setup(host)`. */
const env = (name: string, setupBody: string): GuestBundle => ({ name, code: `exports.setup = function (host) {\n${setupBody}\n};` });

const demo = env('demo', `
  const log = [];
  host.defineGlobal('greeting', 'hello');
  host.defineGlobal('__dirname', '/app');
  host.defineModule('node:demo', { twice: (x) => x * 2 });
  host.defineGlobal('onEvent', (h) => { log.push(h); });
  host.defineGlobal('quit', (code) => host.exit(code));
  host.defineGlobal('fetchData', () => host.valueOf('fetchData()', 'fetchData() returned nothing'));
  host.defineGlobal('probe', (v) => host.isProbe(v));
  host.afterSnippet('events', () => { if (log.length > 0) console.log('driver'); for (const h of log) h({ type: 'click' }); });
`);
// A global require as Node's environment defines one: its answers (the run's values), MODULE_NOT_FOUND for the rest.
const requirer = env('requirer', `
  host.defineGlobal('require', (spec) => {
    if (typeof spec !== 'string') return 'any value';
    if (spec === 'learnt-module') return { v: 'learnt' };
    if (spec === 'broken') throw new Error('no broken here');
    throw Object.assign(new Error('Cannot find module ' + spec), { code: 'MODULE_NOT_FOUND' });
  });
`);
const lister = env('list', "host.afterSnippet('list', () => { console.log(host.topLevelFunctions().map((f) => f.name + ':' + f.called).join(' ')); });");

/** A definition the run learnt, as the definition book holds it. */
function definition(id: string, kind: Definition['kind'], source: string, name = id): Definition {
  return { id, kind, parent: undefined, name, usageKey: id, line: 1, message: '', proposal: { source, refs: [], category: 'object' }, provider: 'test', attempts: 1, history: [], rejected: [], fallbacks: 0 };
}

interface Unit {
  readonly name: string;
  readonly code: string;
  readonly environments?: readonly GuestBundle[];
  /** Definitions of the run (injected elements, and values the environments asked for). */
  readonly defs?: readonly Definition[];
  /** Entry points (by index) the run called because nothing else did. */
  readonly driven?: readonly number[];
  readonly output: string;
  readonly exitCode?: number;
  readonly program?: (program: string) => void;
}

/** The parts buildProgram gets from a run of `code` with these environments and definitions. */
function partsOf(c: Unit): ProgramParts {
  const parsed = parseSnippet(c.code, 'js');
  const instrumented = instrumentSnippet(parsed.ast, parsed.code, { lang: 'js', operatorHooks: false, drive: (c.driven ?? []).length > 0 });
  const defs = new Map((c.defs ?? []).map((d) => [d.id, d]));
  const values = (c.defs ?? []).filter((d) => d.kind === 'environment').map((d) => d.id);
  const environments = programEnvironments(c.environments ?? [demo], new Set(), values);
  return {
    parsed, instrumented, rendered: renderDefinitions(defs), drives: (c.driven ?? []).map((k) => ({ k, outcome: 'returned' as const })),
    clock: { seed: 1, startTime: 1_700_000_000_000, maxTimerTicks: 1_000 },
    ...(environments ? { environments } : {}),
  };
}

const UNITS: readonly Unit[] = [
  {
    name: 'require gives the environment\'s module, with and without node:',
    code: "const a = require('demo'), b = require('node:demo');\nconsole.log(a === b, a.twice(21));",
    output: 'true 42\n',
  },
  { name: 'a global the environment defines is seen', code: 'console.log(greeting, typeof onEvent);', output: 'hello function\n' },
  {
    name: 'the drivers run after the timers and before the functions nothing called',
    code: "setTimeout(() => console.log('timer'), 10);\nonEvent((e) => console.log('handler', e.type));\nfunction later() { console.log('driven'); }",
    // Drive target 2: the two arrows come first, in source order.
    driven: [2],
    output: 'timer\ndriver\nhandler click\ndriven\n',
  },
  {
    name: 'topLevelFunctions sees the functions of a wrapped strict snippet, whose directive stays first',
    code: "'use strict';\nfunction one() {}\nconst two = () => { return 2; };\nconst strict = (function () { return this; })() === undefined;\nconsole.log(strict);\nawait 0;",
    environments: [lister],
    output: 'true\none:false two:false\n',
    program: (p) => assert.match(p, /\(async function \(\) \{\n'use strict';\n__snipexec_env\.functions/),
  },
  {
    name: 'valueOf answers with the value the run gave the element the environment asked for',
    code: 'const d = fetchData();\nconsole.log(d.user.name, fetchData() === d);',
    defs: [definition('fetchData()', 'environment', '{ user: { name: "Ada" } }')],
    output: 'Ada true\n',
  },
  { name: 'valueOf of an element the run gave no value is undefined', code: 'console.log(fetchData());', output: 'undefined\n' },
  { name: 'isProbe is false: no recording proxy runs in the program', code: 'console.log(probe({}));', output: 'false\n' },
  {
    name: 'exit ends the program with its code, and nothing after it runs',
    code: "console.log('before');\nquit(3);\nconsole.log('after');",
    output: 'before\n', exitCode: 3,
  },
  { name: '__dirname is the environment\'s, as the run saw it', code: 'console.log(__dirname);', output: '/app\n' },
  {
    name: 'the injected module table hands the specifiers it lacks to the environments',
    code: "const axios = require('axios');\nconsole.log(typeof axios.get, require('demo').twice(2));",
    defs: [definition('require("axios")', 'module', '{ get() {} }', 'axios')],
    output: 'function 4\n',
    program: (p) => assert.match(p, /return __snipexec_require\(id\);/),
  },
  {
    // so-12358055-2 hands `require` to a learnt function that calls it with an object: the run's require took it.
    name: 'a global require an environment defines answers the program\'s require after its modules, before Node\'s, any value too',
    code: "const name = ['learnt', 'module'].join('-');\nconsole.log(require(name).v, typeof require('node:os').cpus, require('demo').twice(1));\ntry { require('broken'); } catch (e) { console.log(e.message); }\nconsole.log([{}].map(require)[0]);",
    environments: [demo, requirer],
    output: 'learnt function 2\nno broken here\nany value\n',
  },
  {
    name: 'only the program\'s own require gets the environments\' modules',
    code: "const Module = require('module');\ntry { new Module('/elsewhere.js').require('demo'); } catch (e) { console.log(e.code); }",
    output: 'MODULE_NOT_FOUND\n',
  },
  {
    name: 'an environment that cannot be loaded again stops the program with why',
    code: "console.log('never');",
    environments: [env('gone', "throw new Error('no DOM here');")],
    output: 'environment gone could not be loaded: no DOM here', exitCode: 1,
  },
];

for (const c of selected(UNITS)) {
  test(`emit with environments: ${c.name}`, async () => {
    const program = buildProgram(partsOf(c));
    c.program?.(program);
    const run = await runWithNode(program, { timeoutMs: 30_000 });
    assert.equal(run.exitCode, c.exitCode ?? 0, run.output);
    if (c.exitCode === 1) assert.match(run.output, new RegExp(c.output));
    else assert.equal(run.output, c.output);
  });
}

test('emit with environments: a bundle built by bundleGuest is named by its request, and built again from the cache', async () => {
  const bundle = await bundleGuest({ name: 'fixture', entry: fileURLToPath(new URL('./fixtures/environments/demo.ts', import.meta.url)) });
  const program = buildProgram(partsOf({ name: 'fixture', code: 'console.log(b);', environments: [bundle], output: '' }));
  assert.doesNotMatch(program, /demo environment/, 'the program names the request, not the code');
  const run = await runWithNode(program, { timeoutMs: 30_000 });
  assert.deepEqual([run.exitCode, run.output], [0, 'demo environment\n']);
});

test('emit with environments: a program without environments has no environment preamble', () => {
  const parsed = parseSnippet("console.log('x');", 'js');
  const instrumented = instrumentSnippet(parsed.ast, parsed.code, { lang: 'js', operatorHooks: false });
  assert.doesNotMatch(buildProgram({ parsed, instrumented, rendered: renderDefinitions(new Map()), drives: [] }), /__snipexec_env|nodeEnvironments/);
});


/** End to end: runSnippet with an inline environment (or the registry's, when none is given), then its program under plain Node. */
const E2E: readonly { readonly name: string; readonly code: string; readonly environments?: readonly GuestBundle[]; readonly loaded?: readonly string[]; readonly stdout: string; readonly options?: Parameters<typeof runSnippet>[1] }[] = [
  {
    name: 'modules, globals, a driver and a value learnt for the environment',
    code: "const d = fetchData();\nconsole.log(greeting, require('demo').twice(d.count));\nonEvent((e) => console.log('handler', e.type));",
    environments: [demo],
    stdout: /* count is learnt as a number */ '',
  },
  {
    name: 'the functions nothing called run after the drivers', options: { callUncalled: true },
    code: "onEvent(() => console.log('handler'));\nfunction later() { console.log('driven'); }",
    environments: [demo],
    stdout: 'driver\nhandler\ndriven\n',
  },
  { name: 'exit ends the program with its code', code: "console.log('a');\nquit(2);\nconsole.log('b');", environments: [demo], stdout: 'a\n' },
  { name: 'node: a real path.join', code: "console.log(require('path').join('a', 'b'));", loaded: ['node'], stdout: 'a/b\n' },
  {
    name: 'browser: a click listener runs', code: "document.querySelector('#b').addEventListener('click', () => console.log('clicked'));",
    loaded: ['browser'], stdout: 'clicked\n',
  },
  {
    name: 'jquery: a click handler runs with a jQuery event', code: "$('#b').on('click', function (e) { e.preventDefault(); console.log('jq', e.type); });",
    loaded: ['browser', 'jquery'], stdout: 'jq click\n',
  },
  // so-29734376-2: in the sandbox an injected global is the global object's; the program's `var` is put on it too (globalMirror).
  {
    name: 'node: an injected global read through the real global object', code: "var port = global.settings.port;\nconsole.log(typeof port, global.settings === settings);\nglobal.settings = 1;\nconsole.log(settings);",
    loaded: ['node'], stdout: 'number true\n1\n',
  },
  // so-57143203-3: window[name] finds the injected global, not the snippet's own function (the sandbox runs it in a function scope).
  {
    name: 'browser: window[name] of an injected global', code: "function foo(n) { console.log('own', n); }\nconst func = 'foo 5'.split(' ')[0];\nwindow[func](5);\nconsole.log('after');",
    loaded: ['browser'], stdout: 'after\n', options: { drive: false },
  },
  {
    name: 'node-fs and process.env: the learnt file and variable, and __dirname as the run saw them',
    code: "const fs = require('fs');\nconst text = fs.readFileSync('notes.txt', 'utf8');\nconsole.log(text.split('\\n').length > 0, process.env.PORT, __dirname);",
    loaded: ['node', 'node-fs'], stdout: '',
  },
];

for (const c of selected(E2E)) {
  test(`emit with environments, end to end: ${c.name}`, async () => {
    const r = await runSnippet(c.code, { timeoutMs: 30_000, mode: 'trace', ...c.options }, c.environments ? { environments: c.environments } : {});
    assert.equal(r.status, 'completed', JSON.stringify(r.errors));
    if (c.loaded) assert.deepEqual(r.environments, { loaded: c.loaded, failed: [] });
    if (c.stdout !== '') assert.equal(r.stdout, c.stdout);
    const run = await runWithNode(r.program ?? '', { timeoutMs: 30_000 });
    assert.deepEqual([run.exitCode, run.output], [r.exitCode ?? 0, r.stdout], r.program);
  });
}
