/**
 * The `node` environment: Node's globals (`process`, `Buffer`, `__dirname`, `module`, …) and its
 * light built-in modules, from the pure-JavaScript packages browser bundlers use (path-browserify,
 * events, util, url, buffer, string_decoder; `querystring` ported from Node's), with `os`, `child_process` and
 * `net` modelled. Nothing here reaches the host. `fs`, `crypto` and `assert` are environments of
 * their own (node-fs, node-crypto, node-assert), loaded only when a snippet names them.
 */
import { Buffer, constants as bufferConstants, kMaxLength, SlowBuffer } from 'buffer';
import EventEmitter from 'events';
import path from 'path-browserify';
import { StringDecoder } from 'string_decoder';
import * as legacyUrl from 'url';
import type { EnvironmentHost } from '../../../protocol/environment.ts';
import { withLearntGaps } from '../shared/learnGaps.ts';
import { asNodeBuffer } from './bufferEncodings.ts';
import { createChildProcess } from './childProcessModule.ts';
import { defineModuleGlobals } from './moduleGlobals.ts';
import { createNet, driveServers } from './netModule.ts';
import { createOs } from './osModule.ts';
import { CWD, createProcess, endOfProcess } from './processModel.ts';
import { driveProcessEvents } from './processEvents.ts';
import { querystringModule } from './querystringModule.ts';
import { TextDecoderModel, TextEncoderModel } from './textCoding.ts';
import { createTimers } from './timersModule.ts';
import { typeNodeParams } from './typedParams.ts';
import { createUtil } from './utilModule.ts';
import { fileURLToPath, formatUrl, pathToFileURL, URLModel, URLSearchParamsModel } from './whatwgUrl.ts';

/** Defines a global only when nothing (another environment, the runtime) has defined it. */
function defineMissing(host: EnvironmentHost, name: string, value: unknown): void {
  if (!(name in host.global)) host.defineGlobal(name, value);
}

export function setup(host: EnvironmentHost): void {
  const G = host.global;
  // the runtime has queueMicrotask; a bare context (the test harness) may not, and memfs needs it
  defineMissing(host, 'queueMicrotask', (fn: () => void) => void Promise.resolve().then(fn));
  const enqueue = (fn: () => void) => G.queueMicrotask(fn);
  // Node's members the process model lacks (process.binding, process.getActiveResourcesInfo …) are learnt from usage
  const proc = withLearntGaps(createProcess(host), 'process', 'process', (id, reason) => host.valueOf(id, reason));
  host.defineGlobal('process', proc);
  asNodeBuffer(Buffer);
  host.defineGlobal('Buffer', Buffer);
  defineMissing(host, 'URL', URLModel);
  defineMissing(host, 'URLSearchParams', URLSearchParamsModel);
  defineMissing(host, 'TextEncoder', TextEncoderModel);
  defineMissing(host, 'TextDecoder', TextDecoderModel);
  defineMissing(host, 'atob', (s: string) => Buffer.from(String(s), 'base64').toString('latin1'));
  defineMissing(host, 'btoa', (s: string) => Buffer.from(String(s), 'latin1').toString('base64'));

  const net = createNet(enqueue);
  const timers = createTimers(G);
  // Node's members the models of os, child_process and net lack are learnt from usage
  const gaps = <T extends object>(model: T, name: string): T => withLearntGaps(model, `require("${name}")`, name, (id, reason) => host.valueOf(id, reason));
  const modules: Record<string, unknown> = {
    process: proc,
    path,
    'path/posix': path,
    events: EventEmitter, // require('events') is the EventEmitter class, with .EventEmitter and .once on it
    util: createUtil(timers.promiseForms),
    url: {
      ...legacyUrl,
      format: (u: unknown, options?: object) => (u instanceof URLModel ? formatUrl(u, options) : legacyUrl.format(u as string)),
      URL: URLModel,
      URLSearchParams: URLSearchParamsModel,
      fileURLToPath,
      pathToFileURL: (p: string) => pathToFileURL(p, CWD),
    },
    querystring: querystringModule,
    buffer: { Buffer, SlowBuffer, kMaxLength, constants: bufferConstants, atob: G.atob, btoa: G.btoa },
    string_decoder: { StringDecoder },
    os: gaps(createOs(), 'os'),
    child_process: gaps(createChildProcess(enqueue), 'child_process'),
    net: gaps(net.module, 'net'),
    timers: timers.timers,
    'timers/promises': timers.promises,
  };
  // a recording proxy passed to these is used, and learnt, as what their parameters take
  const isProbe = (v: unknown) => host.isProbe(v);
  typeNodeParams(isProbe, { path: path as unknown as Record<string, unknown>, Buffer, util: modules.util as Record<string, unknown>, EventEmitter, querystring: querystringModule, url: modules.url as Record<string, unknown>, process: proc });
  for (const [name, value] of Object.entries(modules)) host.defineModule(name, value);
  defineModuleGlobals(host, new Map(Object.entries(modules)));

  host.afterSnippet('net servers', driveServers(net, () => host.valueOf('socket.data', 'the data a client sends is undefined')));
  host.afterSnippet('process events', driveProcessEvents(proc, host));
  host.afterSnippet('process exit', endOfProcess(proc));
}
