import { SnipexecError } from '../core/errors.ts';
import { buildProgram } from './program.ts';

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  const e = error as { code?: string; exitCode?: number };
  if (typeof e.code === 'string' && e.code.startsWith('commander.')) process.exitCode = e.exitCode === 0 ? 0 : 2;
  else {
    // Only a failed action gets here: a usage error loads nothing more.
    const { terminalText } = await import('../report/terminalText.ts');
    if (error instanceof SnipexecError) {
      process.stderr.write(`snipexec: ${terminalText(error.message)} [${error.code}]\n`);
      process.exitCode = 2;
    } else if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      process.stderr.write(`snipexec: ${terminalText((error as Error).message)}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`snipexec: Unhandled Error\n${terminalText((error as Error).stack ?? String(error))}\n`);
      process.exitCode = 3;
    }
  }
}
