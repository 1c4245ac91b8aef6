import { SwitchboardError } from '../../../shared/errors';

/**
 * An error as one line for the page. A refused right (`forbidden`, e.g. a paired device calling a
 * command its credential does not cover) says so in front, so it is not read as a failure to retry.
 */
export function errorText(err: unknown): string {
  if (err instanceof SwitchboardError && err.code === 'forbidden') return `Not allowed from here: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}
