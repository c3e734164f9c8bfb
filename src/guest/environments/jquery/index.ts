/**
 * The `jquery` environment: the real jQuery (the installed package, v3.7.1: the last line Stack
 * Overflow answers were written for, with $.trim, $.isArray, $.parseJSON, .bind that jQuery 4
 * removed) bound to the browser environment's window and document, as `$`, `jQuery` and the module
 * `jquery`. Its handlers are registered with addEventListener, so the browser environment's driver
 * fires them with real events (jQuery wraps each in a jQuery.Event); its ajax completes through
 * the modelled fetch.
 */
// The registry builds this bundle with `window` undefined, so jQuery's module reads no global and
// exports its factory (as under Node without a DOM), whatever window the snapshot or run has.
import jQueryFactory from 'jquery';
import type { EnvironmentHost } from '../../../protocol/environment.ts';
import type { BrowserInternals } from '../browser/index.ts';
import { installAjaxTransport } from './ajaxTransport.ts';
import { delegatedSelectors } from './delegation.ts';
import { defineDomImplementation } from './domImplementation.ts';
import { iterateProbes } from './probeIteration.ts';
import { defineVisibility } from './visibility.ts';

export function setup(host: EnvironmentHost): void {
  const window = (host.global as unknown as { window?: Window & typeof globalThis }).window;
  if (!window || typeof window !== 'object' || !window.document) throw new Error('the jquery environment needs the browser environment (no window with a document)');
  defineDomImplementation(window);
  // jQuery 3's load-time feature tests query the document (getElementsByName, :has): they must create no element
  const browser = (window.document as unknown as Record<symbol, BrowserInternals | undefined>)[Symbol.for('snipexec.browser')];
  const $ = browser ? browser.withoutCreating(() => jQueryFactory(window)) : jQueryFactory(window);
  defineVisibility($, window);
  iterateProbes($ as unknown as Record<string, unknown>, (v) => host.isProbe(v));
  installAjaxTransport($, window as unknown as Record<string, unknown>);
  browser?.addDelegation(delegatedSelectors($ as Parameters<typeof delegatedSelectors>[0]));
  host.defineGlobal('jQuery', $);
  host.defineGlobal('$', $);
  host.defineModule('jquery', $);
}
