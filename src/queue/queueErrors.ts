import { SnipexecError } from '../core/errors.ts';

/** The Redis server of `--queue` could not be reached (or the URL is not one): nothing was enqueued. */
export class QueueUnreachable extends SnipexecError {
  constructor(message: string, options?: ErrorOptions) {
    super('QUEUE_UNREACHABLE', message, options);
  }
}
