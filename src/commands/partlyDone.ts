// A bulk action of several requests that stopped part-way: what was done stays done, and the rest can be
// retried. The command's error policy (registerCommand) shows the message with Retry, which runs `rest`.

export class PartlyDone extends Error {
  constructor(
    message: string,
    /** Does what was not done (and throws PartlyDone again if that stops part-way). */
    readonly rest: () => Promise<unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PartlyDone';
  }
}
