// The connection the extension would use now: endpoint and workspace from settings or the environment,
// and the API key from SecretStorage or the environment. Keeps the context keys of the palette and the menus:
// `langsmith.signedIn` (true when signed in) and `langsmith.signedOut` (true when known to be signed out). Both are
// unset until the extension has activated, so the palette offers neither Sign In nor Sign Out before it knows.
import * as vscode from 'vscode';
import { ConfigKeys } from '../constants';
import { ContextKeys } from '../constants';

/** True once the stored connection is known to have no key (Sign In's `when`); unset before activation. */
export const SIGNED_OUT_CONTEXT = 'langsmith.signedOut';
import { readConnectionSettings, type ConnectionSettings } from '../common/config';
import type { Credentials, KeySource, ProfileRef } from './credentials';
import { affectsNetwork } from './network';

export interface Connection extends ConnectionSettings {
  apiKey: string | undefined;
  keySource: KeySource;
  /** Signed in with the OAuth login of this LangSmith CLI profile (instead of a key). */
  profile?: ProfileRef;
}

/** Whether the connection has credentials: an API key, or a profile's login. */
export function isSignedIn(c: Pick<Connection, 'apiKey' | 'profile'>): boolean {
  return c.apiKey !== undefined || c.profile !== undefined;
}

export class ConnectionState implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];

  /** The context keys' updates, one after another, so that an older reading never lands after a newer one. */
  private contextUpdates: Promise<void> = Promise.resolve();
  /** Settles once the context keys hold the state of the stored connection read at construction. */
  readonly settled: Promise<void>;

  constructor(private readonly credentials: Credentials) {
    this.disposables.push(
      this.changed,
      credentials.onDidChange(() => this.changed.fire()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        // Proxy and CA settings too: the client is rebuilt and the trees reload through the new route.
        if (e.affectsConfiguration(ConfigKeys.section) || affectsNetwork(e)) this.changed.fire();
      }),
      this.onDidChange(() => void this.updateContext()),
    );
    // From the stored connection (secret storage, settings, environment), never the network: the keys are
    // right from activation on, whether or not a view is ever opened.
    this.settled = this.updateContext();
  }

  async current(): Promise<Connection> {
    const settings = readConnectionSettings();
    const key = await this.credentials.resolve(settings.endpoint);
    return { ...settings, apiKey: key.apiKey, keySource: key.source, ...(key.profile ? { profile: key.profile } : {}) };
  }

  /** Sets the context keys from the connection as it is now; the palette and the status bar follow the same reading. */
  updateContext(): Promise<void> {
    const update = async () => {
      const signedIn = isSignedIn(await this.current());
      // What goes away first, then what appears: the palette never offers Sign In and Sign Out together.
      const keys: [string, boolean][] = [[ContextKeys.signedIn, signedIn], [SIGNED_OUT_CONTEXT, !signedIn]];
      if (signedIn) keys.reverse();
      for (const [key, value] of keys) await vscode.commands.executeCommand('setContext', key, value);
    };
    this.contextUpdates = this.contextUpdates.then(update, update);
    return this.contextUpdates;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
