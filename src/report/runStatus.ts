import type { RunStatus } from '../core/runResult.ts';

/** Every status a run can end with (RunStatus), for flags that name them (`batch --fail-on`). */
export const RUN_STATUSES = ['completed', 'stopped', 'pending', 'syntax-error', 'timeout', 'host-timeout', 'memory-limit', 'internal-error'] as const satisfies readonly RunStatus[];

// The list names every status: a status added to RunStatus and not here fails to compile.
const listsEvery: Exclude<RunStatus, (typeof RUN_STATUSES)[number]> extends never ? true : never = true;
void listsEvery;
