import ivm from 'isolated-vm';

/**
 * The coverage counters of one execution, in memory shared with the isolate: the runtime counts
 * into views on it, and the host reads it directly, so the counts survive an isolate that was
 * disposed (memory limit, the last-resort watchdog) and never depend on what the snippet did
 * to the isolate's objects. Layout: one float64 per statement, then each branch's outcomes.
 */
export class SharedCounters {
  private readonly view: Float64Array;
  private readonly buffer: SharedArrayBuffer;
  private readonly statements: number;
  private readonly branches: readonly number[];

  constructor(statements: number, branches: readonly number[]) {
    this.statements = statements;
    this.branches = branches;
    this.buffer = new SharedArrayBuffer(8 * (statements + branches.reduce((n, b) => n + b, 0)));
    this.view = new Float64Array(this.buffer);
  }

  /** What to pass into the isolate: it arrives there as a SharedArrayBuffer on the same memory. */
  transferable(): ivm.Copy<SharedArrayBuffer> {
    return new ivm.ExternalCopy(this.buffer).copyInto();
  }

  statementCounts(): number[] {
    return Array.from(this.view.subarray(0, this.statements));
  }

  branchCounts(): number[][] {
    const out: number[][] = [];
    let at = this.statements;
    for (const outcomes of this.branches) {
      out.push(Array.from(this.view.subarray(at, at + outcomes)));
      at += outcomes;
    }
    return out;
  }
}
