/**
 * The servers the snippet made (apps, routers, http servers), in the order it made them, and the
 * one driver that runs their requests after the snippet, one request after another.
 */
import { runInSequence, type Dispatch } from './flight.ts';

/** Something with requests to run: `next` gives the next one, undefined when it has no more. */
export interface Drivable {
  next(): Dispatch | undefined;
}

const drivables: Drivable[] = [];

/** Adds a server whose requests run after the snippet. */
export function registerDrivable(d: Drivable): void {
  drivables.push(d);
}

/** Runs every server's requests, servers in the order made. */
export function driveAll(): void {
  let i = 0;
  runInSequence(() => {
    for (; i < drivables.length; i++) {
      const d = drivables[i]?.next();
      if (d) return d;
    }
    return undefined;
  });
}
