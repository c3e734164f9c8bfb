import { subscribe } from 'node:diagnostics_channel';

/** The lines `record` prints on stderr, once each, when the program starts a child it does not record. */
export const CHILD_NOTICES = {
  fork: 'snipexec record: a child process running Node (fork) is not recorded: its calls are not in the trace',
  worker: 'snipexec record: a worker thread is not recorded: its calls are not in the trace',
} as const;

/**
 * Watches, through Node's diagnostics channels (no function of the program's is wrapped), for a
 * child process running this Node (`fork()`, `cluster`, `spawn(process.execPath)`) and for worker
 * threads: neither is recorded (the preload removes itself from what they inherit), and `write`
 * is handed one line per kind, the first time.
 */
export function noteUnrecordedChildren(write: (line: string) => void): void {
  const told = new Set<keyof typeof CHILD_NOTICES>();
  const tell = (kind: keyof typeof CHILD_NOTICES): void => {
    if (told.has(kind)) return;
    told.add(kind);
    write(`${CHILD_NOTICES[kind]}\n`);
  };
  subscribe('child_process', (message) => {
    const child = (message as { process?: NodeJS.EventEmitter & { spawnfile?: string } }).process;
    // Published as the ChildProcess is made, before it is spawned: what it runs is known at 'spawn'.
    child?.once('spawn', () => {
      if (child.spawnfile === process.execPath) tell('fork');
    });
  });
  subscribe('worker_threads', () => tell('worker'));
}
