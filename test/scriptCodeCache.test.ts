import assert from 'node:assert/strict';
import { test } from 'node:test';
import ivm from 'isolated-vm';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { drainIsolatePool } from '../src/sandbox/isolatePool.ts';
import { environmentCompilations } from '../src/sandbox/runtimeBundle.ts';
import { ScriptCodeCache, type CodeCacheCounts } from '../src/sandbox/scriptCodeCache.ts';

/**
 * V8's code cache of a script per startup snapshot (src/sandbox/scriptCodeCache.ts): produced at
 * the first compilation, produced again from finished runs with the functions they compiled, and
 * used for the environments' bundles loaded at run time.
 */
const LAZY = 'globalThis.f = function () { return [1, 2, 3].map(function (x) { return x * 2; }).join(","); }; 0';

test('code cache: refreshed from a run that called the script\'s functions, it holds them; on the 1st, 2nd, 4th… run only', () => {
  const counts: CodeCacheCounts = { produced: 0, fromCache: 0, rejected: 0, refreshed: 0 };
  const cache = new ScriptCodeCache('lazy.js', counts);
  const run = (call: boolean) => {
    const isolate = new ivm.Isolate({ memoryLimit: 16 });
    try {
      const context = isolate.createContextSync();
      const script = cache.compile(isolate, LAZY);
      script.runSync(context);
      if (call) assert.equal(context.evalSync('f()'), '2,4,6');
      const before = cache.bytes;
      cache.refresh(isolate, LAZY);
      return { before, after: cache.bytes };
    } finally {
      isolate.dispose();
    }
  };
  const first = run(true);
  assert.ok(first.before > 0);
  assert.ok(first.after > first.before, `the functions f called are in the cache: ${first.after} > ${first.before}`);
  assert.deepEqual(counts, { produced: 1, fromCache: 0, rejected: 0, refreshed: 1 });
  run(true);
  run(true);
  assert.deepEqual(counts, { produced: 1, fromCache: 2, rejected: 0, refreshed: 2 });
  run(true);
  assert.deepEqual(counts, { produced: 1, fromCache: 3, rejected: 0, refreshed: 3 });
});

test('code cache: an environment loaded at run time (node-fs) compiles from the cache after its first run', async () => {
  const code = "const fs = require('fs'); fs.writeFileSync('/tmp/a.txt', 'x'); console.log(fs.readFileSync('/tmp/a.txt', 'utf8'));";
  const before = { ...environmentCompilations };
  const first = await runSnippet(code, { mode: 'none' });
  assert.equal(first.status, 'completed');
  assert.ok(first.environments?.loaded.includes('node-fs'), JSON.stringify(first.environments));
  // A new isolate: a warm one (src/sandbox/isolatePool.ts) runs the script it compiled again, compiling nothing.
  drainIsolatePool();
  const second = await runSnippet(code, { mode: 'none' });
  assert.equal(second.status, 'completed');
  assert.equal(first.stdout, 'x\n');
  assert.equal(second.stdout, 'x\n');
  assert.ok(environmentCompilations.fromCache > before.fromCache, JSON.stringify({ before, after: environmentCompilations }));
  assert.equal(environmentCompilations.rejected, before.rejected);
});
