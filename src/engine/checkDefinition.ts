import type { Logger } from 'pino';
import type { LoadedEnvironments } from '../environments/loadEnvironments.ts';
import { runInIsolate } from '../sandbox/runInIsolate.ts';
import type { RuntimeConfig } from '../sandbox/runtimeConfig.ts';
import type { Definition } from './definition.ts';
import { renderDefinitions } from './renderDefinitions.ts';
import { HELPERS_SOURCE } from '../values/dummyTable.ts';

export interface CheckerInit {
  readonly hook: string;
  readonly config: RuntimeConfig;
  readonly environments: LoadedEnvironments;
  readonly memoryLimitMb: number;
  readonly timeoutMs: number;
  /** Checks per snippet; past them a definition goes to the snippet unchecked. */
  readonly maxChecks: number;
  readonly log: Logger;
}

/** Checks a candidate definition; says why it failed, or undefined when it evaluated (or could not be checked). */
export type DefinitionCheck = (defs: ReadonlyMap<string, Definition>, id: string) => Promise<string | undefined>;

/**
 * Checks a generator's definition by execution before the snippet runs with it (SelfPiCo's check):
 * the environments and every definition's statement, the candidate's in place, in a fresh isolate,
 * with no snippet, within the check's own time budget. A definition that throws, loops or exhausts
 * memory there is a failed attempt, fed back at once; the snippet's runs (`maxRuns`) are not spent.
 */
export function definitionChecker(init: CheckerInit): DefinitionCheck {
  let used = 0;
  const check: DefinitionCheck = async (defs, id) => {
    if (used >= init.maxChecks) return undefined;
    used++;
    const rendered = renderDefinitions(defs);
    const result = await runInIsolate({
      prelude: rendered.guarded(init.hook), adopt: '', helpers: HELPERS_SOURCE, script: '', preludeOnly: true,
      environments: init.environments.bundles, snapshotEnvironments: init.environments.fromRegistry, log: init.log,
      config: init.config, timeoutMs: init.timeoutMs, memoryLimitMb: init.memoryLimitMb, maxTimerTicks: 0,
      onRequest: async () => '{}',
    });
    if (result.status === 'timeout') return `the definition did not finish within ${init.timeoutMs} ms while it was checked; it must not loop forever`;
    if (result.status === 'memory-limit') return `the definition exhausted the ${init.memoryLimitMb} MB memory limit while it was checked`;
    if (result.status === 'internal-error') {
      init.log.debug({ id, reason: result.reason }, 'a definition check could not run');
      return /did not compile/.test(result.reason ?? '') ? `SyntaxError: ${result.reason}` : undefined;
    }
    const failure = result.report?.preludeFailures?.find((f) => f.id === id);
    return failure ? `${failure.message} (thrown while its definition ran)` : undefined;
  };
  return check;
}
