// The connection the extension would use now: endpoint and workspace from settings or the environment,
// and the API key from SecretStorage or the environment. Keeps the `langsmith.signedIn` context key true.
import * as vscode from 'vscode';
import { ConfigKeys } from '../constants';
import { ContextKeys } from '../constants';
import { readConnectionSettings, type ConnectionSettings } from '../common/config';
import type { Credentials, KeySource } from './credentials';
import { affectsNetwork } from './network';

export interface Connection extends ConnectionSettings {
  apiKey: string | undefined;
  keySource: KeySource;
}

export class ConnectionState implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];

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
  }

  async current(): Promise<Connection> {
    const settings = readConnectionSettings();
    const key = await this.credentials.resolve(settings.endpoint);
    return { ...settings, apiKey: key.apiKey, keySource: key.source };
  }

  async updateContext(): Promise<void> {
    const connection = await this.current();
    await vscode.commands.executeCommand('setContext', ContextKeys.signedIn, connection.apiKey !== undefined);
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
