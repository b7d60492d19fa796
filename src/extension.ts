// Composition root: builds the services, registers everything into context.subscriptions and returns.
// Nothing here touches the network, so activation stays fast.
import './common/zodSetup';
import * as vscode from 'vscode';
import { ConnectionState } from './auth/connection';
import { Credentials } from './auth/credentials';
import { signIn, signOut } from './auth/signIn';
import { Commands } from './commands/ids';
import { registerCommand } from './commands/registerCommand';
import { createLog } from './common/log';
import { HelloPanel, type HelloServices } from './webviews/helloPanel';

export function activate(context: vscode.ExtensionContext): void {
  const log = createLog();
  const credentials = new Credentials(context.secrets);
  const connection = new ConnectionState(credentials);
  context.subscriptions.push(log, credentials, connection);

  const helloServices: HelloServices = {
    extensionUri: context.extensionUri,
    log,
    onDidChangeConnection: connection.onDidChange,
    async connection() {
      const c = await connection.current();
      return { endpoint: c.endpoint, signedIn: c.apiKey !== undefined, source: c.keySource };
    },
  };

  registerCommand(context, log, Commands.signIn, () => signIn(credentials, log));
  registerCommand(context, log, Commands.signOut, () => signOut(credentials, log));
  registerCommand(context, log, Commands.showLog, () => log.show());
  registerCommand(context, log, Commands.openHello, () => HelloPanel.show(helloServices));
  context.subscriptions.push(HelloPanel.registerSerializer(helloServices));

  void connection.updateContext();
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
