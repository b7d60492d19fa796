// Composition root, first part: the connection, the palette's context keys and the status bar, which is what
// the window shows first. Everything else is set up a turn later by dist/workbench.js (src/workbench.ts), so
// loading extension.js compiles only this. Nothing here touches the network, and what only some sessions use
// (the API client and its schemas, the webview panels) is loaded when first needed.
// First: it notes when this bundle began running.
import { activationLine, codeStarted, hostCodeLoadMs } from './activationTime';
import * as vscode from 'vscode';
import { ClientService } from './auth/clientService';
import { ConnectionState } from './auth/connection';
import { Credentials } from './auth/credentials';
import { ConnectionStatusBar } from './auth/statusBar';
import { bundleLoader, setMissingBundleReporter } from './common/lazy';
import { createLog } from './common/log';
import type { WorkbenchApi } from './workbench';

export type { WorkbenchApi } from './workbench';

/** Activation's second part: views, providers, watchers, commands. */
const loadWorkbench = bundleLoader('workbench.js', () => import('./workbench'));

/** When extension.js had loaded (its imports evaluated, vscode's among them). */
const codeLoaded = performance.now();

export async function activate(context: vscode.ExtensionContext): Promise<WorkbenchApi | undefined> {
  const called = performance.now();
  const log = createLog();
  // A bundle that cannot be loaded was replaced under this window by an update: the window has to reload.
  setMissingBundleReporter((error) => {
    log.error(error.message);
    const reload = vscode.l10n.t('Reload Window');
    void vscode.window.showErrorMessage(vscode.l10n.t('LangSmith Workbench was updated; reload the window.'), reload).then((choice) => {
      if (choice === reload) void vscode.commands.executeCommand('workbench.action.reloadWindow');
    });
  });
  const credentials = new Credentials(context.secrets);
  const connection = new ConnectionState(credentials);
  const clients = new ClientService(connection, log);
  // What the window shows first: the palette's context keys (set from the stored connection) and the status bar.
  context.subscriptions.push(log, credentials, connection, clients, new ConnectionStatusBar(clients));
  // The rest (views, providers, watchers, ~260 commands) is set up in the next turn of the host's event loop, not
  // in activate's synchronous part. VS Code waits for this promise before it runs a command that activated us.
  const firstPartDone = performance.now();
  await new Promise<void>((resolve) => setImmediate(resolve));
  // A bundle of its own (dist/workbench.js), so loading extension.js compiles only this first part.
  const { setUpWorkbench } = await loadWorkbench();
  const api = await setUpWorkbench(context, { log, credentials, connection, clients });
  const codeMs = hostCodeLoadMs(context.extension.id) ?? codeLoaded - codeStarted;
  log.info(activationLine(codeMs, firstPartDone - called, performance.now() - firstPartDone));
  return api;
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
