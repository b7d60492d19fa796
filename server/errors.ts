// LangSmith-shaped errors: each becomes `{"detail": …}` with its status.
/** An error that becomes `{"detail": …}` with the given status. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly detail: unknown,
    public readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
  }
}

export const notFound = (what: string) => new HttpError(404, `${what} not found`);
export const badRequest = (detail: string) => new HttpError(400, detail);
export const conflict = (detail: string) => new HttpError(409, detail);
