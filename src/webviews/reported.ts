// How a panel's request handlers report errors to their page: the ones a page branches on get their code.
import { NotSignedInError } from '../auth/clientService';
import { LangSmithNotFoundError } from '../client/errors';
import { RequestError } from '../protocol/router';
import type { LoadProblem } from '../protocol/trace';

const MAX_MESSAGE = 2000;

/** Runs a handler's work; signed out becomes the `notSignedIn` code, the rest is reported as it is. */
export async function reported<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof NotSignedInError) throw new RequestError('notSignedIn', err.message);
    throw err;
  }
}

/**
 * What a page shows instead of what it could not load: signed out, not found (`notFound` says what was not, given
 * the error's own message), or failed with the error's message.
 */
export function problemOf(err: unknown, notFound?: (detail: string) => string): LoadProblem {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof NotSignedInError) return { code: 'notSignedIn', message: message.slice(0, MAX_MESSAGE) };
  if (err instanceof LangSmithNotFoundError) return { code: 'notFound', message: (notFound ? notFound(message) : message).slice(0, MAX_MESSAGE) };
  return { code: 'failed', message: message.slice(0, MAX_MESSAGE) };
}
