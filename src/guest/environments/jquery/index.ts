/**
 * The `jquery` environment: the real jQuery (the installed package, v4) bound to the browser
 * environment's window and document, as `$`, `jQuery` and the module `jquery`. Its handlers are
 * registered with addEventListener, so the browser environment's driver fires them with real
 * events (jQuery wraps each in a jQuery.Event); its ajax completes through the modelled fetch.
 */
import { jQueryFactory } from 'jquery/factory';
import type { EnvironmentHost } from '../../../protocol/environment.ts';
import type { BrowserInternals } from '../browser/index.ts';
import { installAjaxTransport } from './ajaxTransport.ts';
import { delegatedSelectors } from './delegation.ts';
import { iterateProbes } from './probeIteration.ts';
import { defineVisibility } from './visibility.ts';

export function setup(host: EnvironmentHost): void {
  const window = (host.global as unknown as { window?: Window & typeof globalThis }).window;
  if (!window || typeof window !== 'object' || !window.document) throw new Error('the jquery environment needs the browser environment (no window with a document)');
  const $ = jQueryFactory(window); // its load-time feature tests query nothing: no element is created in the page
  defineVisibility($, window);
  iterateProbes($ as unknown as Record<string, unknown>, (v) => host.isProbe(v));
  installAjaxTransport($, window as unknown as Record<string, unknown>);
  const browser = (window.document as unknown as Record<symbol, BrowserInternals | undefined>)[Symbol.for('snipexec.browser')];
  browser?.addDelegation(delegatedSelectors($ as Parameters<typeof delegatedSelectors>[0]));
  host.defineGlobal('jQuery', $);
  host.defineGlobal('$', $);
  host.defineModule('jquery', $);
}
