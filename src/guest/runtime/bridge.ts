import type { BridgeReference, BridgeReply, BridgeRequest } from '../../protocol/runtime.ts';
import { detached } from './ownData.ts';
import { parse } from './primordials.ts';
import { HALT, run } from './run.ts';
import { toJson } from './toJson.ts';

/** The only way out of the isolate: isolated-vm's Reference to the host's handler (JSON in, JSON out). */
let bridge: BridgeReference;

export function setBridge(b: BridgeReference): void {
  bridge = b;
}

/**
 * Asks the host, and waits for its answer (detached from Object.prototype, so nothing the snippet
 * put there answers in its place); a halt ends the run (HALT is thrown, and again on every later ask).
 */
export function ask(message: BridgeRequest): BridgeReply {
  if (run.halted) throw HALT;
  const reply = detached(parse(bridge.applySyncPromise(undefined, [toJson(message)]))) as BridgeReply;
  if ((reply as { halt?: unknown }).halt === true) {
    run.halted = run.stopped = true;
    throw HALT;
  }
  return reply;
}
