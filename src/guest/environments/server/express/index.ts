/**
 * The `express` module: `express()`, `express.Router()`, the built-in middleware, and the classes.
 */
import { createApplication } from './application.ts';
import { passThrough } from './middleware.ts';
import { ExpressRequest } from './request.ts';
import { ExpressResponse } from './response.ts';
import { createRouter } from './router.ts';
import { Route } from './routing.ts';

/** The value `require('express')` gives. */
export function expressModule(): unknown {
  const express = function express() {
    return createApplication();
  } as (() => unknown) & Record<string, unknown>;
  express.Router = createRouter;
  express.Route = Route;
  express.json = passThrough('jsonParser');
  express.urlencoded = passThrough('urlencodedParser');
  express.text = passThrough('textParser');
  express.raw = passThrough('rawParser');
  express.static = passThrough('serveStatic');
  express.query = passThrough('query');
  express.application = {};
  express.request = ExpressRequest.prototype;
  express.response = ExpressResponse.prototype;
  return express;
}
