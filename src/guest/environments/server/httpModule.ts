/**
 * The `http` and `https` modules' server side: `createServer(handler)`. After the snippet, each
 * server with a request listener gets one request, its url and method learnt (`GET /` when nothing
 * is known), unless its handler is an app that is
 * driven itself (an Express app, a Koa callback), whose routes get theirs.
 */
import { clientOf, ClientRequest } from './clientRequest.ts';
import { registerDrivable } from './drivers.ts';
import { Flight, isThenable } from './flight.ts';
import { IncomingMessage, METHODS, STATUS_CODES, Server, ServerResponse } from './nodeHttp.ts';
import { defineLazy, rawBodyText, requestHeaders } from './requestParts.ts';
import { isProbe, learnt } from './serverHost.ts';
import { learnGapsOf } from '../shared/learnGaps.ts';
import { routerStates } from './express/routing.ts';

/** Handlers that make their own requests after the snippet (Koa's `app.callback()`). */
export const selfDriven = new WeakSet<object>();

const LABEL = 'http request';

function drivenElsewhere(listener: unknown): boolean {
  return typeof listener === 'function' && (selfDriven.has(listener) || routerStates.has(listener as (...a: unknown[]) => unknown));
}

/**
 * The request line of the one request a plain handler gets, learnt from how the handler uses it
 * (`if (req.url === '/upload' && req.method === 'POST')`): the url a request target a client can
 * send (no spaces; an absolute URL by its path), '/' otherwise; the method one of Node's, upper
 * case, GET otherwise. In a learning run each is the recording proxy, so comparisons are recorded.
 */
function requestLine(): { method: unknown; url: unknown } {
  const method = learnt(`${LABEL} req.method`, 'the request method is not known');
  const url = learnt(`${LABEL} req.url`, 'the request url is not known');
  return {
    method: isProbe(method) || (typeof method === 'string' && METHODS.includes(method)) ? method : 'GET',
    url: isProbe(url) ? url : requestTarget(url),
  };
}

/** A learnt url as a server sees it: an absolute URL by its path (origin form, as a client sends it), '/' for no usable string. */
function requestTarget(url: unknown): string {
  if (typeof url !== 'string' || !/^[^\s]+$/.test(url)) return '/';
  const absolute = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*(.*)$/i.exec(url);
  if (absolute === null) return url;
  const rest = absolute[1] ?? '';
  return rest.startsWith('/') ? rest : `/${rest}`;
}

function dispatch(server: Server, listeners: ((...a: unknown[]) => unknown)[]): Promise<void> | undefined {
  const line = requestLine();
  // what the environment reads of the request line is a plain string; the handler gets the learnt values
  const method = typeof line.method === 'string' ? line.method : 'GET';
  const url = typeof line.url === 'string' ? line.url : '/';
  const bodyId = `${LABEL} req.body`;
  const req = new IncomingMessage({ method, url, rawBody: rawBodyText(method, () => learnt(bodyId, 'the request body is not known'), bodyId) });
  Object.assign(req, line);
  defineLazy(req, 'headers', () => requestHeaders(`${LABEL} req.headers`, method));
  const res = new ServerResponse(req, `${method} ${url}`);
  // Node's members the models lack (req.headersDistinct, res.writeEarlyHints …) are learnt from usage
  learnGapsOf(req, `${LABEL} req`, 'IncomingMessage', learnt);
  learnGapsOf(res, `${LABEL} res`, 'ServerResponse', learnt);
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
