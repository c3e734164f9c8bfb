/**
 * Express's routing: a router's stack of layers (middleware, mounted routers, routes), walked in
 * registration order for a request, `next()` moving on, `next(err)` skipping to the error
 * middleware (four parameters), `next('route')` leaving a route. A request the driver makes runs
 * one route only (its target), so each route runs once.
 */
import { Flight } from '../flight.ts';
import { compilePath, matchPath, type CompiledPath, type PathMatch, type PathSpec } from '../pathPattern.ts';

/** A handler as the snippet wrote it. */
export type Handler = (...args: unknown[]) => unknown;

/** A router's own state: its stack and `param` callbacks. */
export interface RouterState {
  readonly stack: Layer[];
  readonly params: Map<string, Handler[]>;
  readonly mergeParams: boolean;
}

/** One entry of a stack: middleware (`end` false) or a route (`end` true). */
export interface Layer {
  readonly spec: PathSpec;
  readonly compiled: CompiledPath;
  readonly handle: Handler;
  readonly route?: Route;
  /** The router or app mounted here, for the driver to walk into. */
  readonly child?: Handler;
  invoked: boolean;
}

/** A route: its path and its handlers, each for one method or for all. */
export class Route {
  readonly path: PathSpec;
  readonly stack: { method: string; handle: Handler; layer: Layer }[] = [];

  constructor(path: PathSpec) {
    this.path = path;
  }

  /** The methods it has handlers for, in order (`_all` for `all`). */
  methodList(): string[] {
    return [...new Set(this.stack.map((s) => s.method))];
  }

  handlesMethod(method: string): boolean {
    const m = method.toLowerCase();
    return this.stack.some((s) => s.method === '_all' || s.method === m || (m === 'head' && s.method === 'get'));
  }
}

/** What the driver asks of a request: its flight, the one route it runs, the layers it must pass. */
export interface DispatchContext {
  readonly flight: Flight;
  /** The route to run; null: run none (a request for middleware only); undefined: every route, as Express. */
  readonly route?: Route | null;
  /** Layers on the way to the target, entered even when their path (a RegExp) does not match. */
  readonly forced: ReadonlySet<Layer>;
}

/** The driver's context of each request it made. */
export const dispatchOf = new WeakMap<object, DispatchContext>();

/** Every router and app by its function, to walk into what is mounted. */
export const routerStates = new WeakMap<Handler, RouterState>();

/** A new layer. */
export function makeLayer(spec: PathSpec, end: boolean, handle: Handler, extra: { route?: Route; child?: Handler } = {}): Layer {
  return { spec, compiled: compilePath(spec, end), handle, invoked: false, ...extra };
}

type Req = Record<string, unknown> & { url: string; method: string };
type Next = (err?: unknown) => void;

function pathnameOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

function isError(err: unknown): boolean {
  return err !== undefined && err !== null && err !== false && err !== '' && err !== 0;
}

/** Calls a handler as Express does: error middleware only with an error, the others only without. */
export function callLayer(flight: Flight, layer: Layer | undefined, fn: Handler, err: unknown, req: unknown, res: unknown, next: Next): void {
  const errorHandler = fn.length === 4;
  if (isError(err) !== errorHandler) {
    next(err);
    return;
  }
  if (layer) layer.invoked = true;
  flight.call(() => (errorHandler ? fn(err, req, res, next) : fn(req, res, next)), (e) => next(e ?? new Error('handler failed')));
}

/** Runs a request through a router's stack; `out` is called when it leaves the router. */
export function handleRequest(state: RouterState, request: unknown, res: unknown, out: Next): void {
  const req = request as Req;
  const ctx = dispatchOf.get(req) ?? { flight: new Flight(), forced: new Set<Layer>() };
  const parentUrl = String(req.baseUrl ?? '');
  const parentParams = (req.params ?? {}) as Record<string, string>;
  let idx = 0;
  let removed = '';
  let slashAdded = false;
  const restore = () => {
    if (slashAdded) req.url = req.url.slice(1);
    if (removed !== '') req.url = removed + req.url;
    if (slashAdded || removed !== '') req.baseUrl = parentUrl;
    slashAdded = false;
    removed = '';
  };
  const leave = (err?: unknown) => {
    restore();
    req.baseUrl = parentUrl;
    req.params = parentParams;
    out(err);
  };
  const next: Next = (err) => {
    if (err === 'router') return leave();
    const layerError = err === 'route' ? undefined : err;
    restore();
    const path = pathnameOf(req.url);
    while (idx < state.stack.length) {
      const layer = state.stack[idx++] as Layer;
      let match: PathMatch | undefined = matchPath(layer.compiled, path);
      if (!match && ctx.forced.has(layer)) match = { path: '', params: {} };
      if (!match) continue;
      const route = layer.route;
      if (route) {
        if (isError(layerError)) continue;
        if (ctx.route !== undefined && route !== ctx.route) continue;
        if (!route.handlesMethod(req.method)) continue;
        req.route = route;
      }
      req.params = state.mergeParams ? { ...parentParams, ...match.params } : match.params;
      const matched = match;
      runParams(ctx.flight, state, matched.params, req, res, (paramError) => {
        const e = isError(paramError) ? paramError : layerError;
        if (route) dispatchRoute(ctx.flight, route, e, req, res, next);
        else enter(layer, matched.path, e);
      });
      return;
    }
    leave(layerError);
  };
  const enter = (layer: Layer, layerPath: string, err: unknown) => {
    const trimmed = layerPath.replace(/\/$/, '');
    if (trimmed !== '') {
      removed = trimmed;
      req.url = req.url.slice(trimmed.length);
      if (!req.url.startsWith('/')) {
        req.url = `/${req.url}`;
        slashAdded = true;
      }
      req.baseUrl = parentUrl + trimmed;
    }
    callLayer(ctx.flight, layer, layer.handle, err, req, res, next);
  };
  next();
}

// app.param / router.param callbacks run before the layer, once per parameter, in order.
function runParams(flight: Flight, state: RouterState, params: Record<string, string>, req: Req, res: unknown, done: Next): void {
  const calls: [Handler, string][] = [];
  for (const name of Object.keys(params)) for (const fn of state.params.get(name) ?? []) calls.push([fn, name]);
  let i = 0;
  const step: Next = (err) => {
    if (isError(err) || i >= calls.length) return done(err);
    const [fn, name] = calls[i++] as [Handler, string];
    flight.call(() => fn(req, res, step, params[name], name), (e) => step(e ?? new Error('param callback failed')));
  };
  step();
}

/** Runs a route's handlers for the request's method; `done` leaves the route. */
export function dispatchRoute(flight: Flight, route: Route, err: unknown, req: Req, res: unknown, done: Next): void {
  let idx = 0;
  const method = req.method.toLowerCase();
  const next: Next = (e) => {
    if (e === 'route') return done();
    if (e === 'router') return done('router');
    const item = route.stack[idx++];
    if (!item) return done(e);
    if (item.method !== '_all' && item.method !== method && !(method === 'head' && item.method === 'get')) return next(e);
    callLayer(flight, item.layer, item.handle, e, req, res, next);
  };
  next(err);
}
