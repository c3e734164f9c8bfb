// CPU of each environment's setup(host) alone, outside the isolate: the environments' bundles are
// evaluated in a fresh node:vm context (as the startup snapshot evaluates them), then timed is the
// script the snapshot's warm-up runs (runtimeBundle.ts warmUpScript: every setup with a stand-in
// host, then the drivers they added). --warmup contexts first, then --runs, a mean per context.
// Add `--cpu-prof` to the node flags to see where a setup spends it.
// Usage: npx node --no-node-snapshot eval/environmentSetupCost.ts [--runs N] [--warmup N] NAME...
//        (NAME: browser, jquery, react, server…, in load order, e.g. `browser jquery`)
import vm from 'node:vm';
import { parseArgs } from 'node:util';
import { ENVIRONMENT_MODULES_GLOBAL } from '../src/protocol/runtime.ts';
import { bundleGuest } from '../src/sandbox/bundleGuest.ts';
import { warmUpScript } from '../src/sandbox/runtimeBundle.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string', default: '50' }, warmup: { type: 'string', default: '20' } } });
if (positionals.length === 0) throw new Error('name the environments, in load order: e.g. browser jquery');
const bundles = await Promise.all(positionals.map((name) => bundleGuest({ entry: `src/guest/environments/${name}/index.ts`, name })));
const setup = warmUpScript(positionals);
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** CPU ms of the setups in one fresh context whose modules are evaluated (not timed). */
function once(): number {
  const context = vm.createContext({});
  vm.runInContext(`globalThis.${ENVIRONMENT_MODULES_GLOBAL} = {};`, context);
  for (const b of bundles) {
    vm.runInContext(`(function () { const module = { exports: {} }; (function (module, exports) {\n${b.code}\n})(module, module.exports); globalThis.${ENVIRONMENT_MODULES_GLOBAL}[${JSON.stringify(b.name)}] = module.exports; })();`, context);
  }
  const start = cpuMs();
  vm.runInContext(setup, context);
  return cpuMs() - start;
}

for (let i = 0; i < Number(values.warmup); i++) once();
let total = 0;
for (let i = 0; i < Number(values.runs); i++) total += once();
console.log(`${positionals.join(' + ')}: ${(total / Number(values.runs)).toFixed(2)} CPU ms per context for setup(host) and the drivers`);
