// The user dismissed a question: the command stops without an error message (registerCommand stays silent).
import { isBranded } from './shared';

const BRAND = Symbol.for('langsmith-workbench.UserCancelled');

export class UserCancelled extends Error {
  readonly [BRAND] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBranded(value, BRAND);
  }
  constructor() {
    super('Cancelled');
    this.name = 'UserCancelled';
  }
}
