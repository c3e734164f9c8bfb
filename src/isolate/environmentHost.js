// Runs INSIDE the isolate, in the same closure as runtime.js and probe.js (appended to them): the
// EnvironmentHost an environment's setup(host) gets (src/protocol/environment.ts), the drivers
// environments add, exit(), and the lifecycle object the host drives the run with. The closure
// returns that object to the host as a Reference: no global names it.

const environmentModules = ObjectCreate(null); // module specifier (without `node:`) -> an environment's value
const drivers = list();                           // { name, drive } in the order added
const environmentValues = ObjectCreate(null);  // element id -> the value valueOf gave in this run
/** Thrown by exit(): it unwinds whatever runs, and ends the run as completed. */
const EXIT = ObjectFreeze(ObjectCreate(null));
let exited = false;
let exitCode = 0;

const environmentHost = ObjectFreeze({
  global: G,
  defineGlobal(name, value) {
    defineProperty(G, str(name), { __proto__: null, value, writable: true, configurable: true, enumerable: false });
  },
  defineModule(specifier, value) {
    let key = str(specifier);
    if (apply(strSlice, key, [0, 5]) === 'node:') key = apply(strSlice, key, [5]);
    environmentModules[key] = value;
  },
  afterSnippet(name, drive) {
    if (typeof drive === 'function') push(drivers, { __proto__: null, name: str(name), drive });
  },
  topLevelFunctions() {
    const out = [];
    for (let k = 0; k < entries.length; k++) {
      const fn = entries[k];
      if (fn === undefined) continue;
      push(out, ObjectFreeze({ name: config.entryPoints[k].name, fn, called: entered[k] === true }));
    }
    return out;
  },
  exit(code) {
    if (!exited) {
      exited = true;
      exitCode = typeof code === 'number' && code === code ? code : 0;
      state.stopped = true;
    }
    throw EXIT;
  },
  valueOf(id, reason) {
    const key = str(id);
    if (key in environmentValues) return environmentValues[key];
    lastSite = -1;
    const v = inject({ __proto__: null, id: key, kind: 'environment', sid: -1, message: cut(str(reason), 500) });
    const value = v === NONE ? undefined : v;
    environmentValues[key] = value;
    return value;
  },
  isProbe(v) { return isProbe(v); },
});

/** What the host calls, in this order: environments, (prelude, snippet), tick…, afterSnippet, tick…, drive, tick…, report. */
const lifecycle = ObjectFreeze({
  /** Runs an environment's module and its setup(host); '' when it loaded, else why not (the run goes on without it). */
  loadEnvironment(name, factory) {
    try {
      const module = { exports: {} };
      apply(factory, module.exports, [module, module.exports]);
      const setup = module.exports && module.exports.setup;
      if (typeof setup !== 'function') return `environment ${str(name)} exports no setup function`;
      apply(setup, module.exports, [environmentHost]);
      return '';
    } catch (e) {
      if (e === EXIT) { exited = false; state.stopped = false; return `environment ${str(name)} called exit() while loading`; }
      let message;
      try { message = str(e && e.message !== undefined ? e.message : e); } catch { message = '[unprintable error]'; }
      return cut(message, 500) || 'failed to load';
    }
  },
  /** Runs the environments' drivers, in the order added; whether any ran (then the host runs timers again). */
  afterSnippet() {
    let ran = false;
    for (let i = 0; i < drivers.length && !state.stopped; i++) {
      ran = true;
      try {
        const r = apply(drivers[i].drive, undefined, []);
        if (isPromise(r)) settle(r, undefined, (e) => uncaught(e));
        else if (r && typeof r.then === 'function') r.then(undefined, (e) => uncaught(e));
      } catch (e) {
        uncaught(e);
      }
    }
    return ran;
  },
  /** Calls the snippet's script (an arrow taking the hooks), which runs it through main. */
  enter(script) {
    if (typeof script === 'function') apply(script, undefined, [H]);
  },
  /** The `[id, value]` pairs of the adopt script: the prelude's values, by element id. */
  adopt(pairs) {
    if (isArray(pairs)) H.adopt(pairs);
  },
  /** The `[id, error]` pairs of the prelude's definitions that threw. */
  preludeFailures(pairs) {
    if (!isArray(pairs)) return;
    for (let i = 0; i < pairs.length; i++) H.pf(pairs[i][0], pairs[i][1]);
  },
  tick: H.tick,
  drive: H.drive,
  report: H.report,
});
