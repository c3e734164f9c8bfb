import { fileURLToPath } from 'node:url';
import type { RenderedDefinitions } from './renderedDefinitions.ts';
import type { DriveTarget } from '../instrument/driveTargets.ts';
import type { ValueOutcome } from '../core/explored.ts';
import type { GuestBundle } from '../sandbox/bundleGuest.ts';
import { siblingModule } from '../core/moduleFile.ts';
import type { EmittedEnvironment } from './nodeEnvironments.ts';
import { commentText, jsString } from '../core/sourceText.ts';

/** The environments a run loaded, as the completed program loads them again. */
export interface ProgramEnvironments {
  /** In load order: only those that loaded in the run. */
  readonly loaded: readonly EmittedEnvironment[];
  /** Element ids the environments asked values for (`valueOf`), whose definitions are in the prelude. */
  readonly values: readonly string[];
  /** Entry points (by index) the run had called before the environments' drivers ran; none when the run did not say. */
  readonly called?: readonly number[];
  /** The other outcomes the run's exploration scenario asked of the environments' values (a file left missing), by element id. */
  readonly outcomes?: Readonly<Record<string, ValueOutcome>>;
}

/**
 * What the program needs of a run's environments: the bundles that loaded (by the request each was
 * built from, else by its code), and the ids of the values they asked for. Undefined when none loaded.
 */
export function programEnvironments(bundles: readonly GuestBundle[], failed: ReadonlySet<string>, values: readonly string[], called?: readonly number[], outcomes?: Readonly<Record<string, ValueOutcome>>): ProgramEnvironments | undefined {
  const loaded = bundles.filter((b) => !failed.has(b.name)).map((b): EmittedEnvironment => (b.request ? { name: b.name, request: b.request } : { name: b.name, code: b.code }));
  if (loaded.length === 0) return undefined;
  return { loaded, values, ...(called ? { called } : {}), ...(outcomes && Object.keys(outcomes).length > 0 ? { outcomes } : {}) };
}

/** The loader the program requires, by its absolute path in this snipexec installation: nodeEnvironments.ts, run with Node's type stripping, or the build's .js when snipexec runs from it. */
export const NODE_ENVIRONMENTS_LOADER = fileURLToPath(siblingModule(import.meta.url, './nodeEnvironments'));

/** The variable of the program that holds its loaded environments. */
export const ENVIRONMENTS_VARIABLE = '__snipexec_env';
/** Node's own `require`, taken before the prelude's module table (`var require = …`) is assigned. */
const NODE_REQUIRE = '__snipexec_require';

/**
 * The program's lines that load the run's environments, before the injected definitions (as the
 * sandbox loads them before its prelude): `require` of the loader, the environments, the values
 * they asked for (read from the prelude's variables when asked, so a value asked for during setup
 * is not there yet), and the drivers, queued to run once the snippet's timers ran out.
 */
export function environmentPreamble(envs: ProgramEnvironments, rendered: RenderedDefinitions, withClock: boolean): string {
  const access = new Map(rendered.accessors);
  const values = envs.values.flatMap((id) => {
    const expression = access.get(id);
    return expression === undefined ? [] : [`${jsString(id)}: () => ${expression}`];
  });
  const list = envs.loaded.map((e) => JSON.stringify(e).replace(/[\u2028\u2029]/g, (c) => jsString(c).slice(1, -1))).join(', ');
  const names = envs.loaded.map((e) => e.name).join(', ');
  return [
    `// ---- environments (${commentText(names)}): loaded from snipexec as the run loaded them ----`,
    `var ${NODE_REQUIRE} = require, ${ENVIRONMENTS_VARIABLE} = require(${jsString(NODE_ENVIRONMENTS_LOADER)}).loadNodeEnvironments({ module, environments: [${list}], values: {${values.length > 0 ? ` ${values.join(', ')} ` : ''}}${envs.outcomes ? `, outcomes: ${JSON.stringify(envs.outcomes)}` : ''} });`,
    // The module's own names shadow the globals an environment defines: the run saw the environment's.
    `__dirname = ${ENVIRONMENTS_VARIABLE}.moduleValue('__dirname', __dirname); __filename = ${ENVIRONMENTS_VARIABLE}.moduleValue('__filename', __filename);`,
    // The drivers run once the snippet's timers ran out, before the functions nothing called.
    withClock ? `__snipexec_afterTimers(() => ${ENVIRONMENTS_VARIABLE}.afterSnippet());` : `${ENVIRONMENTS_VARIABLE}.afterEventLoop();`,
    '',
  ].join('\n');
}

/**
 * The statement that tells the environments where the snippet's top-level functions are: it goes
 * in the snippet's own scope, since a function wrapper (top-level await, a receiver) hides them.
 */
export function functionsRegistration(targets: readonly Pick<DriveTarget, 'name' | 'topLevel'>[], called: readonly number[] = []): string {
  const list = targets.flatMap((e, k) => (e.topLevel ? [`[${jsString(e.name)}, () => ${e.name}, ${called.includes(k)}]`] : []));
  return `${ENVIRONMENTS_VARIABLE}.functions(() => [${list.join(', ')}]);`;
}

const NOT_FOUND = `throw Object.assign(new Error("Cannot find module '" + id + "'"), { code: 'MODULE_NOT_FOUND' });`;

/**
 * The prelude for a program with environments: its module table (modules the run injected) hands
 * the specifiers it does not hold to Node's `require`, which gives the environments' modules, as
 * the sandbox looked an environment's module up first.
 */
export function preludeWithEnvironments(source: string): string {
  return source.replace(NOT_FOUND, () => `return ${NODE_REQUIRE}(id);`);
}
