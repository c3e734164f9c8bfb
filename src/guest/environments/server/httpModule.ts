/**
 * The `http` and `https` modules' server side: `createServer(handler)`. After the snippet, each
 * server with a request listener gets one request, `GET /`, unless its handler is an app that is
 * driven itself (an Express app, a Koa callback), whose routes get theirs.
 */
import { clientOf, ClientRequest } from './clientRequest.ts';
import { registerDrivable } from './drivers.ts';
import { Flight, isThenable } from './flight.ts';
import { IncomingMessage, METHODS, STATUS_CODES, Server, ServerResponse } from './nodeHttp.ts';
import { defineLazy, requestHeaders } from './requestParts.ts';
import { routerStates } from './express/routing.ts';

/** Handlers that make their own requests after the snippet (Koa's `app.callback()`). */
export const selfDriven = new WeakSet<object>();

const LABEL = 'http request';

function drivenElsewhere(listener: unknown): boolean {
  return typeof listener === 'function' && (selfDriven.has(listener) || routerStates.has(listener as (...a: unknown[]) => unknown));
}

function dispatch(server: Server, listeners: ((...a: unknown[]) => unknown)[]): Promise<void> | undefined {
  const req = new IncomingMessage({ method: 'GET', url: '/' });
  defineLazy(req, 'headers', () => requestHeaders(`${LABEL} req.headers`, 'GET'));
  const res = new ServerResponse(req, `GET /`);
  const flight = new Flight();
  flight.call(() => {
    const pending = listeners.map((l) => l.call(server, req, res)).filter(isThenable);
    return pending.length > 0 ? Promise.all(pending) : undefined;
  }, (e) => flight.finish(e, true));
  return flight.outcome();
}

/** `http.createServer([options], [handler])`. */
export function createServer(a?: unknown, b?: unknown): Server {
  const server = new Server(typeof a === 'function' ? a : b);
  let done = false;
  registerDrivable({
    next() {
      if (done) return undefined;
      done = true;
      const listeners = server.listeners('request') as ((...a: unknown[]) => unknown)[];
      if (listeners.length === 0 || listeners.every(drivenElsewhere)) return undefined;
      return () => dispatch(server, listeners.filter((l) => !drivenElsewhere(l)));
    },
  });
  return server;
}

/** The value `require('http')` (and `require('https')`, with `scheme` 'https') gives. */
export function httpModule(scheme = 'http'): Record<string, unknown> {
  return {
    ...clientOf(scheme),
    ClientRequest,
    createServer,
    Server,
    IncomingMessage,
    ServerResponse,
    STATUS_CODES,
    METHODS,
    globalAgent: {},
    Agent: class Agent {},
  };
}
