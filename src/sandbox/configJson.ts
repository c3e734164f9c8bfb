import type { RuntimeConfig } from './runtimeConfig.ts';

/** Each config's JSON, made at its first run: a snippet's runs (and a scenario's) share one config object, which nothing changes. */
const made = new WeakMap<RuntimeConfig, string>();

/** The config as the runtime's `start` takes it (JSON), serialised once per config object. */
export function configJson(config: RuntimeConfig): string {
  let json = made.get(config);
  if (json === undefined) {
    json = JSON.stringify(config);
    made.set(config, json);
  }
  return json;
}
