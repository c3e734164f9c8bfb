/**
 * The registry of environments: what each provides, so an environment is loaded only when the
 * snippet names something it provides. Each environment's guest code lives in
 * src/guest/environments/<name>/index.ts and exports `setup(host)` (src/protocol/environment.ts).
 */

export interface EnvironmentSpec {
  readonly name: string;
  /** The guest entry module, relative to src/guest/environments/. */
  readonly entry: string;
  /** Free global names of the snippet that select this environment. */
  readonly globals: readonly string[];
  /** `require`/`import` specifiers it provides (`node:` prefixes are stripped before matching). */
  readonly modules: readonly string[];
  /** Environments loaded before it, which it builds on. */
  readonly needs: readonly string[];
  /** What it models and what it does not, for the README and `--help`. */
  readonly summary: string;
  /** Build-time replacements for its bundle (esbuild `define`). */
  readonly define?: Readonly<Record<string, string>>;
  /** Build-time module substitutions for its bundle (esbuild `alias`): `node:stream` → a shim, `buffer` → the global Buffer. */
  readonly alias?: Readonly<Record<string, string>>;
}

/** Every environment, in load order (one an environment needs comes before it). */
export const ENVIRONMENTS: readonly EnvironmentSpec[] = [];

/** What a snippet names: its free (undeclared) global names and the module specifiers it loads. */
export interface SnippetNames {
  readonly globals: readonly string[];
  readonly modules: readonly string[];
}

/** The environments a snippet needs, with the ones they need, in load order. */
export function environmentsFor(names: SnippetNames, registry: readonly EnvironmentSpec[] = ENVIRONMENTS): EnvironmentSpec[] {
  const globals = new Set(names.globals);
  const modules = new Set(names.modules.map((m) => m.replace(/^node:/, '')));
  const wanted = new Set<string>();
  const byName = new Map(registry.map((e) => [e.name, e]));
  const want = (e: EnvironmentSpec) => {
    if (wanted.has(e.name)) return;
    wanted.add(e.name);
    for (const n of e.needs) {
      const dep = byName.get(n);
      if (dep) want(dep);
    }
  };
  for (const e of registry) if (e.globals.some((g) => globals.has(g)) || e.modules.some((m) => modules.has(m))) want(e);
  return registry.filter((e) => wanted.has(e.name));
}
