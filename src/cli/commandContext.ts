import type { SnipexecConfig } from './loadConfig.ts';

/** What every action is handed: the program's preAction hook fills it in before the action runs. */
export interface CommandContext {
  /** The config file's options (loaded once, before a command runs); flags given on the command line win. */
  config: SnipexecConfig;
  /** The file the config came from; undefined when none was found. */
  configFile?: string | undefined;
  /** Whether a flag's value is only its --help default (then the config's value stands). */
  isDefault: (attribute: string) => boolean;
  /** snipexec's version, from package.json. */
  readonly version: string;
}
