import { fileURLToPath } from 'node:url';
import { bundleGuest, type GuestBundle } from '../sandbox/bundleGuest.ts';
import { ENVIRONMENTS, environmentsFor, type EnvironmentSpec, type SnippetNames } from './registry.ts';

/** An environment that could not be built or loaded, for the snippet's result. */
export interface EnvironmentFailure {
  readonly name: string;
  readonly message: string;
}

export interface LoadedEnvironments {
  /** Guest bundles in load order, for the sandbox to evaluate before the snippet. */
  readonly bundles: readonly GuestBundle[];
  /** The environments the snippet needs, by name, in load order. */
  readonly names: readonly string[];
  readonly failures: readonly EnvironmentFailure[];
}

const GUEST_ENVIRONMENTS = new URL('../guest/environments/', import.meta.url);

/**
 * The one place the engine asks which environments a run gets: the registry's environments the
 * snippet's names select. A bundle that fails to build is a failure of this snippet only: the
 * snippet runs without it, and its result says so.
 */
export async function loadEnvironments(names: SnippetNames, registry: readonly EnvironmentSpec[] = ENVIRONMENTS): Promise<LoadedEnvironments> {
  const wanted = environmentsFor(names, registry);
  const bundles: GuestBundle[] = [];
  const failures: EnvironmentFailure[] = [];
  for (const spec of wanted) {
    try {
      bundles.push(await bundleGuest({ name: spec.name, entry: fileURLToPath(new URL(spec.entry, GUEST_ENVIRONMENTS)), define: spec.define }));
    } catch (error) {
      failures.push({ name: spec.name, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return { bundles, names: wanted.map((e) => e.name), failures };
}
