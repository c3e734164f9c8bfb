import assert from 'node:assert/strict';
import { test } from 'node:test';
import ivm from 'isolated-vm';
import pino from 'pino';
import { UNIT_CONFIG } from './helpers.ts';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { environmentBundleRequest, loadEnvironments } from '../src/environments/loadEnvironments.ts';
import { ENVIRONMENTS } from '../src/environments/registry.ts';
import { ENVIRONMENT_MODULES_GLOBAL, NODE_UTIL_GLOBAL } from '../src/protocol/runtime.ts';
import { bundleGuest, type GuestBundle } from '../src/sandbox/bundleGuest.ts';
import { environmentSnapshot, forgetSnapshots } from '../src/sandbox/environmentSnapshots.ts';
import { probeEnvironments } from '../src/sandbox/environmentProbe.ts';
import { createStartupSnapshot, environmentScript, warmUpScript } from '../src/sandbox/runtimeBundle.ts';

/**
 * Environments evaluated into the isolate's startup snapshot (src/sandbox/environmentSnapshots.ts):
 * the snippet reaches none of the snapshot's globals, environments behave as when loaded at run
 * time, a module that reads what the runtime provides stays out, and a snapshot that cannot be
 * made falls back to loading at run time.
 */
const SILENT = pino({ level: 'silent' });

/**
 * An inline environment that defines `where<tag>`: 'snapshot' when its module was evaluated in the
 * startup snapshot (the modules' record exists only there), 'run' when at run time.
 */
function env(tag: string, moduleCode = '', setupCode = ''): GuestBundle {
  return {
    name: `snap-${tag}`,
    code: `const where = typeof globalThis.${ENVIRONMENT_MODULES_GLOBAL} === 'object' ? 'snapshot' : 'run';\n${moduleCode}\nexports.setup = (host) => { host.defineGlobal('where${tag}', where); ${setupCode} };`,
  };
}

async function stdoutOf(code: string, environments: readonly GuestBundle[], inSnapshot: number, seed = 1): Promise<string> {
  const r = await runSnippet(code, { mode: 'none', seed }, { environments, environmentsInSnapshot: inSnapshot });
  assert.deepEqual(r.environments?.failed ?? [], [], 'every environment loads');
  return r.stdout;
}

test('environment snapshot: the snippet finds none of the snapshot\'s globals, and the environment is set up from it', async () => {
  const e = env('Integrity');
  const out = await stdoutOf(
    `const names = Object.getOwnPropertyNames(globalThis).concat(Object.getOwnPropertySymbols(globalThis).map(String));\nconsole.log(whereIntegrity, names.filter((n) => /snipexec_(nodeUtil|environmentModules|realIntl)/.test(n)).length, typeof ${ENVIRONMENT_MODULES_GLOBAL}, typeof ${NODE_UTIL_GLOBAL});`,
    [e],
    1,
  );
  assert.equal(out, 'snapshot 0 undefined undefined\n');
});

test('environment snapshot: a module that reads what the runtime provides (setTimeout, Math.random) at evaluation is loaded at run time', async () => {
  const timer = env('Timer', "const timerType = typeof setTimeout;", "host.defineGlobal('timerType', timerType);");
  const random = env('Random', 'const r = Math.random();', "host.defineGlobal('r', r);");
  const plain = env('Plain');
  const out = await stdoutOf('console.log(whereTimer, timerType, whereRandom, wherePlain);', [timer, random, plain], 3);
  assert.equal(out, 'run function run snapshot\n');
  // Its value comes from the run's seeded Math.random, as without snapshots.
  const seeded = await stdoutOf('console.log(r);', [random], 1, 7);
  assert.equal(seeded, await stdoutOf('console.log(r);', [random], 0, 7));
});

test('environment snapshot: an Intl object a module makes at evaluation works in the run', async () => {
  const intl = env('Intl', "const f = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });", "host.defineGlobal('fmt', (n) => f.format(n) + ' ' + (f instanceof Intl.NumberFormat) + ' ' + f.resolvedOptions().locale);");
  assert.equal(await stdoutOf('console.log(whereIntl, fmt(1234.56));', [intl], 1), 'snapshot 1,234.6 true en-US\n');
});

test('environment snapshot: when the snapshot cannot be made, the environments load at run time and a debug log says why', async () => {
  const e = env('Fallback', '', "host.defineGlobal('answer', 42);");
  const lines: string[] = [];
  const log = pino({ level: 'debug' }, { write: (s: string) => void lines.push(s) });
  const snapshot = await environmentSnapshot([e], {
    config: UNIT_CONFIG,
    log,
    create: () => {
      throw new Error('createSnapshot failed');
    },
  });
  assert.deepEqual(snapshot.environments, []);
  assert.ok(lines.some((l) => /createSnapshot failed/.test(l)), lines.join(''));
  // The failed set is kept: the run loads the environment at run time, as without snapshots.
  assert.equal(await stdoutOf('console.log(whereFallback, answer);', [e], 1), 'run 42\n');
});

test('environment snapshot: registry environments behave the same from the snapshot as loaded at run time, and repeat with a seed', async () => {
  const cases = [
    { names: { globals: ['document', '$'], modules: [] }, code: "document.body.innerHTML = '<ul><li class=a>x</li><li>y</li></ul>'; $('li').addClass('b'); console.log(document.body.innerHTML, $('.a.b').length, Math.random(), new Date().toISOString()); document.addEventListener('click', (e) => console.log('clicked', e.type));" },
    { names: { globals: [], modules: ['path', 'events', 'util'] }, code: "const { EventEmitter } = require('events'); const e = new EventEmitter(); e.on('x', (v) => console.log(require('path').join('a', v), require('util').inspect({ a: [1, { b: 2 }] }), Date.now())); e.emit('x', 'b'); setTimeout(() => console.log(Math.random()), 10);" },
  ];
  for (const c of cases) {
    const loaded = await loadEnvironments(c.names);
    const snapshot = await environmentSnapshot(loaded.bundles.slice(0, loaded.fromRegistry), { config: UNIT_CONFIG, log: SILENT });
    assert.deepEqual(snapshot.environments, loaded.names, 'the snapshot holds these environments');
    const fromSnapshot = await stdoutOf(c.code, loaded.bundles, loaded.fromRegistry, 3);
    assert.equal(fromSnapshot, await stdoutOf(c.code, loaded.bundles, 0, 3), c.code);
    assert.equal(fromSnapshot, await stdoutOf(c.code, loaded.bundles, loaded.fromRegistry, 3), 'same seed, same output');
  }
});

test('environment snapshot: loaded together, the registry\'s environments all go into the snapshot but node-fs and react, whose modules read what node and the browser define', async () => {
  const bundles = await Promise.all(ENVIRONMENTS.map((spec) => bundleGuest(environmentBundleRequest(spec))));
  const verdicts = await probeEnvironments(bundles, UNIT_CONFIG);
  const atRunTime = verdicts.filter((v) => !v.snapshot).map((v) => v.name);
  assert.deepEqual(atRunTime, ['node-fs', 'react'], JSON.stringify(verdicts));
});

test('environment snapshot: the probe\'s verdicts are kept on disk: a later process (here, after the snapshots are forgotten) makes the snapshot without probing again; other code probes again', async () => {
  const unique = `${process.pid}${Date.now()}`;
  const e = env(`Disk${unique}`, '', "host.defineGlobal('answer', 7);");
  let probes = 0;
  const probe: typeof probeEnvironments = (...args) => {
    probes++;
    return probeEnvironments(...args);
  };
  const first = await environmentSnapshot([e], { config: UNIT_CONFIG, log: SILENT, probe });
  assert.deepEqual([first.environments, probes], [[e.name], 1]);
  forgetSnapshots();
  const again = await environmentSnapshot([e], { config: UNIT_CONFIG, log: SILENT, probe });
  assert.deepEqual([again.environments, probes], [[e.name], 1], 'the verdicts came from disk');
  forgetSnapshots();
  const changed = { ...e, code: `${e.code}\n// changed` };
  await environmentSnapshot([changed], { config: UNIT_CONFIG, log: SILENT, probe });
  assert.equal(probes, 2, 'a module whose code changed is probed again');
});

test('environment snapshot: the warm-up runs each setup(host) and the drivers it adds, in a context the snapshot leaves out', async () => {
  const counting = (name: string): GuestBundle => ({
    name,
    code: `let calls = 0, drives = 0;\nexports.setup = (host) => { calls++; host.defineGlobal('fromSetup', calls); host.afterSnippet('${name}', () => { drives++; globalThis.driven = true; }); };\nexports.counts = () => [calls, drives];`,
  });
  const bundles = [counting('warm-a'), counting('warm-b')];
  const counts = bundles.map((b) => `${ENVIRONMENT_MODULES_GLOBAL}[${JSON.stringify(b.name)}].counts()`).join(', ');
  // The warm-up script itself, in a context holding the modules as the snapshot's scripts leave them.
  const isolate = new ivm.Isolate({ memoryLimit: 32 });
  try {
    const context = isolate.createContextSync();
    for (const b of bundles) context.evalSync(environmentScript(b).code);
    context.evalSync(warmUpScript(bundles.map((b) => b.name)));
    assert.equal(context.evalSync(`JSON.stringify([${counts}, fromSetup, driven])`), '[[1,1],[1,1],1,true]');
  } finally {
    isolate.dispose();
  }
  // In the snapshot, nothing of it: the modules were evaluated, never set up.
  const snapshot = createStartupSnapshot(bundles);
  const fromSnapshot = new ivm.Isolate({ memoryLimit: 32, snapshot: snapshot.blob });
  try {
    const context = fromSnapshot.createContextSync();
    assert.equal(context.evalSync(`JSON.stringify([${counts}, typeof fromSetup, typeof driven])`), '[[0,0],[0,0],"undefined","undefined"]');
  } finally {
    fromSnapshot.dispose();
  }
});
