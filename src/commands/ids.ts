// Every command id of the extension, in one place. A unit test checks this list against package.json.
export const Commands = {
  signIn: 'langsmith.signIn',
  signOut: 'langsmith.signOut',
  showLog: 'langsmith.showLog',
  openHello: 'langsmith.openHello',
} as const;

export type CommandId = (typeof Commands)[keyof typeof Commands];

/** Context keys used in `when` clauses of package.json. */
export const ContextKeys = {
  signedIn: 'langsmith.signedIn',
} as const;
