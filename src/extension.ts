// Composition root: builds the services, registers everything into context.subscriptions and returns.
// Nothing here touches the network, and what only some sessions use (the API client and its schemas, the
// webview panels) is loaded when first needed, so activation stays fast.
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { ClientService } from './auth/clientService';
import { ConnectionState } from './auth/connection';
import { Credentials } from './auth/credentials';
import { ConnectionStatusBar } from './auth/statusBar';
import { createLog } from './common/log';
import { setUpWorkbench, type WorkbenchApi } from './workbench';

export type { WorkbenchApi } from './workbench';

export async function activate(context: vscode.ExtensionContext): Promise<WorkbenchApi | undefined> {
  // Code without a vscode import (the input rules) translates through @vscode/l10n: the same bundle.
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  const log = createLog();
  const credentials = new Credentials(context.secrets);
  const connection = new ConnectionState(credentials);
  const clients = new ClientService(connection, log);
  // What the window shows first: the palette's context keys (set from the stored connection) and the status bar.
  context.subscriptions.push(log, credentials, connection, clients, new ConnectionStatusBar(clients));
  // The rest (views, providers, watchers, ~260 commands) is set up in the next turn of the host's event loop, not
  // in activate's synchronous part. VS Code waits for this promise before it runs a command that activated us.
  await new Promise<void>((resolve) => setImmediate(resolve));
  return setUpWorkbench(context, { log, credentials, connection, clients });
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
