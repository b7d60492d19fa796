// Creates that repeat safely: the rule for a create that carries its own id (used by every resource that
// creates something with a client-made id).
import { LangSmithConflictError } from './errors';
import type { HttpClient, RequestOptions } from './http';

/**
 * Sends a create that carries its own id, so repeating it (on a lost answer or a retryable status) never
 * makes a duplicate. A 409 may then be our own earlier attempt, which landed although its answer was lost:
 * when reading the id back finds it, that is the answer; otherwise the conflict stands. An id generated
 * here cannot have existed before, so any 409 is checked; a caller's id may name something that already
 * existed, so a 409 is only taken for our own create when the request was repeated.
 */
export async function createWithId<T>(
  http: HttpClient,
  request: RequestOptions<T>,
  id: { generated: boolean },
  readBack: () => Promise<T | null>,
): Promise<T> {
  let repeated = false;
  try {
    return await http.request({
      ...request,
      idempotent: true,
      onRetry: () => {
        repeated = true;
      },
    });
  } catch (e) {
    if (e instanceof LangSmithConflictError && (id.generated || repeated)) {
      const existing = await readBack().catch(() => {
        // Cancelled meanwhile: that is the outcome, not the conflict. Any other failure leaves the conflict.
        if (request.signal?.aborted) throw request.signal.reason;
        return null;
      });
      if (existing) return existing;
    }
    throw e;
  }
}
