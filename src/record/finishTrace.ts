import { closeSync, ftruncateSync, openSync, readSync, fstatSync, writeSync } from 'node:fs';
import { TRACE_FORMAT, TRACE_VERSION, isTraceEnd, type TraceEnd, type TraceHeader } from './callTrace.ts';

/** How much of a trace's tail is read for its end line (an end line is far shorter). */
const TAIL_BYTES = 64 * 1024;
const CHUNK_BYTES = 1024 * 1024;

/**
 * The end line of the trace at `path`, after the recorded program exited with `exitCode`. When the
 * recorder could not write it (killed by SIGKILL, or by a signal a program's listener raised
 * again), it is written now, with `interrupted: true`, after dropping a half-written last line;
 * when there is no trace at all, one with the header and that end line. Reads only the file's
 * tail, and counts lines in chunks when it must: the trace may be larger than any string.
 */
export function finishTrace(path: string, header: Omit<TraceHeader, 'format' | 'version'>, exitCode: number): TraceEnd {
  let fd: number;
  try {
    fd = openSync(path, 'r+');
  } catch {
    fd = openSync(path, 'w+');
  }
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - TAIL_BYTES);
    const tail = Buffer.alloc(size - start);
    readSync(fd, tail, 0, tail.length, start);
    const complete = tail.lastIndexOf(0x0a) + 1; // the bytes up to the end of the last whole line
    const lines = tail.subarray(0, complete).toString('utf8').split('\n');
    const last = lines.at(-2);
    const parsed = last === undefined ? undefined : parseLine(last);
    if (parsed !== undefined && isTraceEnd(parsed) && complete === tail.length) return parsed;
    // No end line: drop a half-written line, then end the trace with what the file holds.
    let length = start + complete;
    if (start === 0 && complete === 0) {
      const head: TraceHeader = { format: TRACE_FORMAT, version: TRACE_VERSION, program: header.program, argv: header.argv };
      const text = `${JSON.stringify(head)}\n`;
      ftruncateSync(fd, 0);
      writeSync(fd, text, 0);
      length = Buffer.byteLength(text);
    } else ftruncateSync(fd, length);
    const end: TraceEnd = { end: true, exitCode, calls: countLines(fd, length) - 1, interrupted: true };
    writeSync(fd, `${JSON.stringify(end)}\n`, length);
    return end;
  } finally {
    closeSync(fd);
  }
}

function parseLine(line: string): object | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

function countLines(fd: number, length: number): number {
  const chunk = Buffer.alloc(CHUNK_BYTES);
  let count = 0;
  for (let at = 0; at < length; ) {
    const read = readSync(fd, chunk, 0, Math.min(CHUNK_BYTES, length - at), at);
    if (read === 0) break;
    for (let i = chunk.indexOf(0x0a, 0); i !== -1 && i < read; i = chunk.indexOf(0x0a, i + 1)) count++;
    at += read;
  }
  return count;
}
