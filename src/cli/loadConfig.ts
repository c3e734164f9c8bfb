import { defaultLoaders, lilconfig, type Loader, type LilconfigResult } from 'lilconfig';
import { InvalidOptions } from '../core/errors.ts';
import { readConfig, type SnipexecConfig } from './configKeys.ts';
import { parseJsonText } from './jsonText.ts';

export type { SnipexecConfig };

/** Where a config is looked for, from the working directory up: the `"snipexec"` key of package.json, then these files. */
export const CONFIG_FILES = ['package.json', 'snipexec.config.json', 'snipexec.config.js', 'snipexec.config.mjs'] as const;

export interface LoadedConfig {
  /** The file it came from; undefined when none was found. */
  readonly file: string | undefined;
  /** Its options, by API name (`timeoutMs`), those it sets only. */
  readonly config: SnipexecConfig;
}

/** A JSON file that does not parse is named with the line and column of the fault. */
const jsonLoader: Loader = (file, content) => parseJsonText(content.replace(/^\uFEFF/, ''), file);

/** A .js or .mjs config that fails to import is named, with the error it threw. */
function named(loader: Loader | undefined): Loader {
  return async (file, content) => {
    try {
      return await loader?.(file, content);
    } catch (error) {
      throw new InvalidOptions(`${file}: cannot be loaded (${error instanceof Error ? error.message : String(error)})`);
    }
  };
}

/**
 * Finds and checks the config (lilconfig: package.json's `"snipexec"` key, snipexec.config.json,
 * .js or .mjs, from `cwd` up to the home directory). `explicit` is a file named with --config.
 * Every error names the file: one that does not parse (with the line and column), an unknown key,
 * a value the schema refuses (with the key), the package.json form in a file of its own.
 */
export async function loadConfig(cwd: string, explicit?: string): Promise<LoadedConfig> {
  // The asynchronous explorer: .js and .mjs configs are ES modules, imported.
  const explorer = lilconfig('snipexec', {
    searchPlaces: [...CONFIG_FILES],
    loaders: { '.json': jsonLoader, '.js': named(defaultLoaders['.js']), '.mjs': named(defaultLoaders['.mjs']), '.cjs': named(defaultLoaders['.cjs']) },
  });
  let found: LilconfigResult;
  try {
    found = explicit === undefined ? await explorer.search(cwd) : await explorer.load(explicit);
  } catch (error) {
    if (error instanceof InvalidOptions) throw error;
    throw new InvalidOptions(`${explicit ?? 'config'}: cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  if (found === null) return { file: undefined, config: {} };
  return { file: found.filepath, config: readConfig(found.filepath, found.config) };
}
