/**
 * A jQuery ajax transport that completes every request through the browser environment's modelled
 * `fetch`, so `$.ajax`, `$.get`, `$.getJSON`, `$.post` and `$.getScript` get the data the snippet's
 * usage implies. The parsed value is handed to jQuery as the `json` response itself (no text round
 * trip), so a recording probe of trace mode reaches the snippet's callbacks intact.
 */

type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: unknown }) => Promise<ResponseLike>;

interface ResponseLike {
  readonly status: number;
  readonly statusText: string;
  json(): Promise<unknown>;
  text(): Promise<unknown>;
}

/** What jQuery's ajax settings carry once its prefilters ran (only what the transport reads). */
interface Settings extends JQueryAjaxOptionsLike {
  readonly jsonp?: string | false;
  readonly jsonpCallback?: unknown;
  readonly cache?: boolean;
}

/**
 * The URL the request stands for: without the JSONP callback name and the cache-busting `_=`
 * jQuery appends (a timestamp and a generated name), so the learnt data is the same in every run.
 */
export function modelUrl(settings: Settings): string {
  let url = String(settings.url);
  const drop = (name: string, value: string) => {
    url = url.replace(new RegExp(`([?&])${name}=${value}(&|$)`), (_, lead: string, tail: string) => (tail ? lead : '')).replace(/[?&]$/, '');
  };
  if (typeof settings.jsonp === 'string' && typeof settings.jsonpCallback === 'string') drop(escapeRegExp(settings.jsonp), escapeRegExp(settings.jsonpCallback));
  if (settings.cache === false) drop('_', '\\d+');
  return url;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The response jQuery gets for each requested data type, read from the modelled response. */
async function responsesFor(settings: Settings, response: ResponseLike, window: Record<string, unknown>): Promise<Record<string, unknown>> {
  const [first, second] = settings.dataTypes;
  if (first === 'script' && second === 'json' && typeof settings.jsonpCallback === 'string') {
    // JSONP: the "script" calls the callback jQuery's jsonp prefilter installed, with the data
    const data = await response.json();
    const callback = window[settings.jsonpCallback];
    if (typeof callback === 'function') callback(data);
    return { script: '' };
  }
  if (first === 'script') return { script: '' }; // a script is modelled as loaded, and running nothing
  if (first === 'text' || first === 'html' || first === 'xml') {
    const text = await response.text();
    return { text: typeof text === 'string' ? text : String(text) };
  }
  const data = await response.json(); // "json", or no type asked for: the value as usage shapes it
  return { json: data, ...(typeof data === 'string' ? { text: data } : {}) };
}

/**
 * Registers the transport on `$` for every data type, ahead of jQuery's own (XMLHttpRequest and
 * script tags, which the DOM does not load). Nothing is registered when the window has no fetch.
 */
export function installAjaxTransport($: JQueryStaticLike, window: Record<string, unknown>): void {
  if (typeof window.fetch !== 'function') return;
  const fetch = window.fetch as FetchLike;
  const factory = (options: JQueryAjaxOptionsLike): JQueryTransportLike => {
    const settings = options as Settings;
    let aborted = false;
    return {
      send(headers, complete) {
        const method = String(settings.type || 'GET').toUpperCase();
        const body = method === 'GET' || method === 'HEAD' ? undefined : settings.data;
        fetch(modelUrl(settings), { method, headers, ...(body === undefined ? {} : { body }) })
          .then(async (response) => {
            const responses = await responsesFor(settings, response, window);
            const type = 'json' in responses ? 'application/json' : settings.dataTypes[0] === 'html' ? 'text/html' : 'text/plain';
            if (!aborted) complete(Number(response.status) || 200, String(response.statusText || 'OK'), responses, `Content-Type: ${type}\r\n`);
          })
          .catch((error: unknown) => {
            if (!aborted) complete(0, error instanceof Error ? error.message : 'error');
          });
      },
      abort() {
        aborted = true;
      },
    };
  };
  $.ajaxTransport('+script', factory);
  $.ajaxTransport('+*', factory);
}
