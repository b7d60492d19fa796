// The user dismissed a question: the command stops without an error message (registerCommand stays silent).
export class UserCancelled extends Error {
  constructor() {
    super('Cancelled');
    this.name = 'UserCancelled';
  }
}
