/**
 * Writes a trace as the program runs (the version-2 layout of callTrace.ts): the header at once,
 * each call's line as it ends, the end line at exit. Lines wait in one buffer of BUFFER_BYTES,
 * allocated once and written synchronously when full, so the recorder's memory does not grow with
 * the number of calls (and a line is garbage as soon as it is copied there, never promoted). Runs inside the recorded program (recordHooks.ts): it never throws into it.
 */
import * as fs from 'node:fs';
import { TRACE_FORMAT, TRACE_VERSION, type CallRecord, type ReachedFunction, type TraceEnd, type TraceHeader, type TraceLimits, type TraceReach, type Truncation } from './callTrace.ts';

// Taken when loaded, before the program runs: a program that patches JSON, fs or Buffer does not change the file.
const stringify = JSON.stringify;
const byteLength = Buffer.byteLength;
const { openSync, writeSync, closeSync } = fs;

/** The most a trace holds in memory before it is written out. */
export const BUFFER_BYTES = 1024 * 1024;
/** Room kept under maxTraceBytes for the end line. */
const END_LINE_ROOM = 512;

/** Where the recorder sends its calls (CallRecorder's side of the writer). */
export interface CallSink {
  /** Whether a call starting now (`callId`) will be recorded: false past a limit, and the call is counted as dropped. */
  accepts(callId: number): boolean;
  /** A recorded call has ended: its line is written. */
  write(record: CallRecord): void;
}

export class TraceWriter implements CallSink {
  private fd: number | undefined;
  private readonly buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;
  private bytes = 0;
  private calls = 0;
  private dropped = 0;
  private truncatedBy: Truncation['limit'] | undefined;
  private readonly limits: TraceLimits;

  /** Opens (truncates) `path` and writes the header line; a file that cannot be written records nothing. */
  constructor(path: string, header: Omit<TraceHeader, 'format' | 'version'>, limits: TraceLimits) {
    this.limits = limits;
    try {
      this.fd = openSync(path, 'w');
    } catch {
      return; // recordProgram writes a trace saying how the program ended
    }
    const head: TraceHeader = { format: TRACE_FORMAT, version: TRACE_VERSION, program: header.program, argv: header.argv };
    this.append(`${stringify(head)}\n`);
    this.flush();
  }

  accepts(callId: number): boolean {
    if (callId > this.limits.maxCalls) this.truncatedBy ??= 'maxCalls';
    else if (this.truncatedBy !== 'maxTraceBytes') return true;
    this.dropped++;
    return false;
  }

  write(record: CallRecord): void {
    if (this.fd === undefined) return;
    const line = `${stringify(record)}\n`;
    const size = byteLength(line);
    if (this.bytes + this.used + size > this.limits.maxTraceBytes - END_LINE_ROOM) {
      this.truncatedBy ??= 'maxTraceBytes';
      this.dropped++;
      return;
    }
    this.calls++;
    this.append(line, size);
  }

  /** Writes what the buffer holds. */
  flush(): void {
    if (this.used === 0) return;
    const used = this.used;
    this.used = 0;
    this.output(this.buffer, used);
  }

  /** The reach line's entries, asked for once as the trace ends (it must not throw). */
  reachAtEnd: (() => readonly ReachedFunction[]) | undefined;

  /** Writes the buffer, the reach line and the end line, and closes the file; later calls do nothing. */
  end(exitCode: number, signal?: string): void {
    if (this.fd === undefined) return;
    const reached = this.reachAtEnd?.() ?? [];
    if (reached.length > 0) {
      const line = `${stringify({ reach: reached } satisfies TraceReach)}\n`;
      const size = byteLength(line);
      if (this.bytes + this.used + size <= this.limits.maxTraceBytes - END_LINE_ROOM) this.append(line, size);
    }
    const truncated: Truncation | undefined = this.truncatedBy === undefined ? undefined : { limit: this.truncatedBy, max: this.limits[this.truncatedBy], droppedCalls: this.dropped };
    const end: TraceEnd = { end: true, exitCode, calls: this.calls, ...(truncated ? { truncated } : {}), ...(signal ? { signal } : {}) };
    this.append(`${stringify(end)}\n`);
    this.flush();
    this.close();
  }

  private append(text: string, size = byteLength(text)): void {
    if (this.used + size > BUFFER_BYTES) this.flush();
    if (size > BUFFER_BYTES) return this.output(Buffer.from(text), size);
    this.used += this.buffer.write(text, this.used);
  }

  private output(data: Buffer, size: number): void {
    if (this.fd === undefined) return;
    this.bytes += size;
    try {
      for (let at = 0; at < size; ) at += writeSync(this.fd, data, at, size - at);
    } catch {
      this.close(); // a full disk: the trace stops here, the program goes on
    }
  }

  private close(): void {
    const fd = this.fd;
    this.fd = undefined;
    try {
      if (fd !== undefined) closeSync(fd);
    } catch {
      // closed already
    }
  }
}
