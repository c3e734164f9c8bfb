import { EventEmitter } from 'events';
import { Buffer } from '../../node/shims/globalBuffer.ts';

/**
 * A small `Readable`/`Writable` pair for memfs's read and write streams (the isolate has no
 * `stream` module): flowing mode, `pipe`, `setEncoding`, async iteration, sequential writes,
 * 'finish' and 'close'. It has no back-pressure (nothing is slow in memory) and no object mode.
 */

type Callback = (error?: Error | null) => void;
interface ReadableOptions { highWaterMark?: number; encoding?: BufferEncoding; read?: (this: Readable, size: number) => void; autoDestroy?: boolean }
interface WritableOptions { highWaterMark?: number; decodeStrings?: boolean; write?: (this: Writable, chunk: unknown, encoding: string, cb: Callback) => void; final?: (this: Writable, cb: Callback) => void }

const later = (fn: () => void) => queueMicrotask(fn);

export function Readable(this: Readable, options: ReadableOptions = {}): void {
  EventEmitter.call(this);
  this._readableState = { highWaterMark: options.highWaterMark ?? 16 * 1024, encoding: options.encoding ?? null, flowing: null, ended: false, endEmitted: false, reading: false, buffer: [], closed: false };
  this.destroyed = false;
  if (options.read) this._read = options.read;
  this.on('newListener', (event: string) => {
    if (event === 'data' && this._readableState.flowing !== false) this.resume();
  });
}
export interface Readable extends EventEmitter {
  _readableState: { highWaterMark: number; encoding: BufferEncoding | null; flowing: boolean | null; ended: boolean; endEmitted: boolean; reading: boolean; buffer: unknown[]; closed: boolean };
  destroyed: boolean;
  _read(size: number): void;
  _destroy?(error: Error | null, cb: Callback): void;
  push(chunk: unknown): boolean;
  read(size?: number): unknown;
  resume(): this;
  pause(): this;
  isPaused(): boolean;
  setEncoding(encoding: BufferEncoding): this;
  pipe<T extends { write(chunk: unknown): unknown; end(): unknown }>(dest: T, options?: { end?: boolean }): T;
  unpipe(): this;
  destroy(error?: Error): this;
  _flow(): void;
  [Symbol.asyncIterator](): AsyncIterator<unknown>;
}
Object.setPrototypeOf(Readable.prototype, EventEmitter.prototype);
Object.setPrototypeOf(Readable, EventEmitter);

Object.assign(Readable.prototype, {
  _read(this: Readable) {
    this.push(null);
  },
  push(this: Readable, chunk: unknown): boolean {
    const state = this._readableState;
    state.reading = false;
    if (chunk === null) state.ended = true;
    else state.buffer.push(state.encoding ? Buffer.from(chunk as Uint8Array).toString(state.encoding) : chunk);
    later(() => this._flow());
    return !state.ended;
  },
  read(this: Readable): unknown {
    const state = this._readableState;
    if (state.buffer.length > 0) return state.buffer.shift();
    if (!state.ended && !state.reading) {
      state.reading = true;
      this._read(state.highWaterMark);
    }
    return null;
  },
  _flow(this: Readable) {
    const state = this._readableState;
    if (!state.flowing || this.destroyed) return;
    while (state.buffer.length > 0 && state.flowing) this.emit('data', state.buffer.shift());
    if (state.ended && state.buffer.length === 0 && !state.endEmitted) {
      state.endEmitted = true;
      this.emit('end');
      if (!state.closed) this.destroy();
    } else if (!state.ended && !state.reading) this.read();
  },
  resume(this: Readable) {
    this._readableState.flowing = true;
    later(() => this._flow());
    return this;
  },
  pause(this: Readable) {
    this._readableState.flowing = false;
    return this;
  },
  isPaused(this: Readable) {
    return this._readableState.flowing === false;
  },
  setEncoding(this: Readable, encoding: BufferEncoding) {
    this._readableState.encoding = encoding;
    return this;
  },
  pipe(this: Readable, dest: { write(chunk: unknown): unknown; end(): unknown }, options: { end?: boolean } = {}) {
    this.on('data', (chunk: unknown) => dest.write(chunk));
    if (options.end !== false) this.on('end', () => dest.end());
    return dest;
  },
  unpipe(this: Readable) {
    this.removeAllListeners('data');
    return this;
  },
  destroy(this: Readable, error?: Error) {
    if (this.destroyed) return this;
    this.destroyed = true;
    const done = (err?: Error | null) => {
      const closed = this._readableState.closed; // memfs's close() marks it and emits 'close' itself
      this._readableState.closed = true;
      if (err) this.emit('error', err);
      if (!closed) this.emit('close');
    };
    if (this._destroy) this._destroy(error ?? null, (err) => later(() => done(err ?? error)));
    else later(() => done(error));
    return this;
  },
  [Symbol.asyncIterator](this: Readable): AsyncIterator<unknown> {
    const chunks: unknown[] = [];
    let done = false, failure: unknown, wake: (() => void) | undefined;
    const notify = () => { wake?.(); wake = undefined; };
    this.on('data', (c: unknown) => { chunks.push(c); notify(); });
    this.on('end', () => { done = true; notify(); });
    this.on('error', (e: unknown) => { failure = e; notify(); });
    return {
      next: async () => {
        while (chunks.length === 0 && !done && failure === undefined) await new Promise<void>((r) => { wake = r; });
        if (failure !== undefined) throw failure;
        return chunks.length > 0 ? { value: chunks.shift(), done: false } : { value: undefined, done: true };
      },
    };
  },
});

export function Writable(this: Writable, options: WritableOptions = {}): void {
  EventEmitter.call(this);
  this._writableState = { highWaterMark: options.highWaterMark ?? 16 * 1024, queue: [], writing: false, ending: false, finished: false, closed: false, defaultEncoding: 'utf8' };
  this.destroyed = false;
  this.writable = true;
  if (options.write) this._write = options.write;
  if (options.final) this._final = options.final;
}
export interface Writable extends EventEmitter {
  _writableState: { highWaterMark: number; queue: [unknown, string, Callback | undefined][]; writing: boolean; ending: boolean; finished: boolean; closed: boolean; defaultEncoding: string };
  destroyed: boolean;
  writable: boolean;
  _write(chunk: unknown, encoding: string, cb: Callback): void;
  _final?(cb: Callback): void;
  _destroy?(error: Error | null, cb: Callback): void;
  write(chunk: unknown, encoding?: unknown, cb?: Callback): boolean;
  end(chunk?: unknown, encoding?: unknown, cb?: Callback): this;
  setDefaultEncoding(encoding: string): this;
  cork(): void;
  uncork(): void;
  destroy(error?: Error): this;
  _next(): void;
}
Object.setPrototypeOf(Writable.prototype, EventEmitter.prototype);
Object.setPrototypeOf(Writable, EventEmitter);

Object.assign(Writable.prototype, {
  _write(_chunk: unknown, _encoding: string, cb: Callback) {
    cb();
  },
  write(this: Writable, chunk: unknown, encoding?: unknown, cb?: Callback): boolean {
    const callback = typeof encoding === 'function' ? (encoding as Callback) : cb;
    const enc = typeof encoding === 'string' ? encoding : this._writableState.defaultEncoding;
    if (this._writableState.ending) {
      const error = Object.assign(new Error('write after end'), { code: 'ERR_STREAM_WRITE_AFTER_END' });
      later(() => { callback?.(error); this.emit('error', error); });
      return false;
    }
    const data = typeof chunk === 'string' ? Buffer.from(chunk, enc as BufferEncoding) : chunk;
    this._writableState.queue.push([data, 'buffer', callback]);
    if (!this._writableState.writing) this._next();
    return true;
  },
  _next(this: Writable) {
    const state = this._writableState;
    const item = state.queue.shift();
    if (!item) {
      state.writing = false;
      if (state.ending && !state.finished) {
        const finish = () => {
          state.finished = true;
          this.emit('finish');
        };
        if (this._final) this._final((err) => (err ? this.emit('error', err) : finish()));
        else later(finish);
      }
      return;
    }
    state.writing = true;
    const [chunk, encoding, cb] = item;
    this._write(chunk, encoding, (err) => {
      cb?.(err ?? null);
      if (err) this.emit('error', err);
      else this._next();
    });
  },
  end(this: Writable, chunk?: unknown, encoding?: unknown, cb?: Callback) {
    const callback = [chunk, encoding, cb].find((a) => typeof a === 'function') as Callback | undefined;
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') this.write(chunk, typeof encoding === 'string' ? encoding : undefined);
    if (callback) this.once('finish', () => callback());
    this._writableState.ending = true;
    this.writable = false;
    if (!this._writableState.writing) this._next();
    return this;
  },
  setDefaultEncoding(this: Writable, encoding: string) {
    this._writableState.defaultEncoding = encoding;
    return this;
  },
  cork() {},
  uncork() {},
  destroy(this: Writable, error?: Error) {
    if (this.destroyed) return this;
    this.destroyed = true;
    const done = (err?: Error | null) => {
      const closed = this._writableState.closed; // memfs's close() marks it and emits 'close' itself
      this._writableState.closed = true;
      if (err) this.emit('error', err);
      if (!closed) this.emit('close');
    };
    if (this._destroy) this._destroy(error ?? null, (err) => later(() => done(err ?? error)));
    else later(() => done(error));
    return this;
  },
});
