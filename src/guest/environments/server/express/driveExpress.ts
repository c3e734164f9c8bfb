/**
 * After the snippet: each route of each app (and of each router mounted nowhere) gets one request
 * of its method, through the middleware before it; then the middleware no request reached gets a
 * request of its own; then the error middleware never reached is called with an error.
 */
import { registerDrivable } from '../drivers.ts';
import { Flight, type Dispatch } from '../flight.ts';
import { examplePath, joinPaths, matchPath, type PathSpec } from '../pathPattern.ts';
import { ExpressRequest } from './request.ts';
import { ExpressResponse } from './response.ts';
import { dispatchOf, routerStates, type Handler, type Layer, type Route, type RouterState } from './routing.ts';
import { learnGapsOf } from '../../shared/learnGaps.ts';
import { learnt } from '../serverHost.ts';

/** A stack entry found by walking an app, with the layers on the way to it. */
interface Found {
  readonly layer: Layer;
  readonly ancestors: readonly Layer[];
  /** The full path as written (`/api/users/:id`), for labels. */
  readonly pattern: string;
  /** A request path it matches (`/api/users/1`). */
  readonly path: string;
}

interface Plan {
  readonly routes: Found[];
  readonly middleware: Found[];
  readonly errorHandlers: Found[];
}

const tracked: Handler[] = [];

function specLabel(spec: PathSpec): string {
  const one = Array.isArray(spec) ? spec[0] : spec;
  return one instanceof RegExp ? String(one) : String(one ?? '/');
}

function walk(state: RouterState, pattern: string, path: string, ancestors: readonly Layer[], seen: Set<RouterState>, plan: Plan): void {
  for (const layer of state.stack) {
    const found: Found = { layer, ancestors, pattern: joinPaths(pattern, specLabel(layer.spec)), path: joinPaths(path, examplePath(layer.spec)) };
    const childState = layer.child ? routerStates.get(layer.child) : undefined;
    if (layer.route) plan.routes.push(found);
    else if (childState) {
      if (seen.has(childState)) continue;
      seen.add(childState);
      walk(childState, found.pattern, found.path, [...ancestors, layer], seen, plan);
    } else if (layer.handle.length === 4) plan.errorHandlers.push(found);
    else plan.middleware.push(found);
  }
}

function isMounted(fn: Handler): boolean {
  return tracked.some((other) => routerStates.get(other)?.stack.some((l) => l.child === fn) ?? false);
}

function isError(err: unknown): boolean {
  return err !== undefined && err !== null && err !== false;
}

/** The methods a route's request is made with: each it names, or GET for `all` alone. */
function methodsOf(route: Route): string[] {
  const named = route.methodList().filter((m) => m !== '_all');
  return (named.length > 0 ? named : ['get']).map((m) => m.toUpperCase());
}

function request(app: Handler | undefined, method: string, found: Found): { req: ExpressRequest; res: ExpressResponse; label: string } {
  const label = `${method} ${found.pattern}`;
  const req = new ExpressRequest(app, method, found.path, label);
  const res = new ExpressResponse(app, req, label);
  req.res = res;
  // Express's and Node's members the models lack (req.acceptsLanguages, res.links …) are learnt from usage
  learnGapsOf(req, `${label} req`, 'express request', learnt);
  learnGapsOf(res, `${label} res`, 'express response', learnt);
  return { req, res, label };
}

/** One request through the root: the route `route` only (null: none), passing `forced` layers. */
function dispatch(root: Handler, app: Handler | undefined, method: string, found: Found, route: Route | null): Promise<void> | undefined {
  const { req, res } = request(app, method, found);
  const flight = new Flight();
  dispatchOf.set(req, { flight, route, forced: new Set([...found.ancestors, found.layer]) });
  const out = (err?: unknown) => {
    if (isError(err)) return flight.finish(err);
    // Express's final handler: a request nothing answered is a 404.
    if (!res.headersSent) res.record.status = 404;
    flight.finish();
  };
  flight.call(() => root(req, res, out), (e) => flight.finish(e, true));
  return flight.outcome();
}

/** Calls error middleware nothing reached with an error, as `next(err)` would. */
function callErrorHandler(app: Handler | undefined, found: Found): Promise<void> | undefined {
  const { req, res } = request(app, 'GET', found);
  req.params = matchPath(found.layer.compiled, found.path)?.params ?? {};
  const error = new Error('Something went wrong');
  error.stack = 'Error: Something went wrong';
  const flight = new Flight();
  found.layer.invoked = true;
  flight.call(() => found.layer.handle(error, req, res, (e?: unknown) => flight.finish(e === error ? undefined : e)), (e) => flight.finish(e, true));
  return flight.outcome();
}

function* requests(root: Handler, app: Handler | undefined): Generator<Dispatch> {
  const state = routerStates.get(root);
  if (!state) return;
  const plan: Plan = { routes: [], middleware: [], errorHandlers: [] };
  walk(state, '', '', [], new Set([state]), plan);
  const done = new Set<string>();
  for (const found of plan.routes) {
    const route = found.layer.route as Route;
    for (const method of methodsOf(route)) {
      const key = `${method} ${found.pattern}`;
      if (done.has(key)) continue;
      done.add(key);
      yield () => dispatch(root, app, method, found, route);
    }
  }
  // Middleware no route's request reached (an app of middleware only, a path no route is under).
  for (const found of plan.middleware) if (!found.layer.invoked) yield () => dispatch(root, app, 'GET', found, null);
  for (const found of plan.errorHandlers) if (!found.layer.invoked) yield () => callErrorHandler(app, found);
}

/** Makes the requests of an app or router after the snippet, unless it is mounted in another. */
export function trackRouter(fn: Handler, app: Handler | undefined): void {
  tracked.push(fn);
  let plan: Iterator<Dispatch> | undefined;
  registerDrivable({
    next() {
      if (!plan) {
        if (isMounted(fn)) return undefined;
        plan = requests(fn, app);
      }
      const step = plan.next();
      return step.done ? undefined : step.value;
    },
  });
}
