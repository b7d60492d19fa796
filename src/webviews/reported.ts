// How a panel's request handlers report errors to their page: the ones a page branches on get their code.
import { NotSignedInError } from '../auth/clientService';
import { RequestError } from '../protocol/router';

/** Runs a handler's work; signed out becomes the `notSignedIn` code, the rest is reported as it is. */
export async function reported<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof NotSignedInError) throw new RequestError('notSignedIn', err.message);
    throw err;
  }
}
