// One controller per webview panel: builds the page, waits for the app's ready handshake before posting,
// validates every inbound message through the protocol router, and disposes everything with the panel.
import '../common/zodSetup';
import * as vscode from 'vscode';
import { type NotificationType, type OutboundMessage, WebviewReady, type Schema } from '../protocol/messages';
import { MessageRouter } from '../protocol/router';
import type * as z from 'zod/mini';
import { renderWebviewHtml, webviewRoot } from './html';

export interface WebviewAppOptions {
  /** The app's bundle name: dist/webviews/<app>.js */
  app: string;
  title: string;
  hasCss?: boolean;
}

export function webviewPanelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [webviewRoot(extensionUri)] };
}

export class WebviewHost implements vscode.Disposable {
  readonly router: MessageRouter;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly ready: Promise<void>;
  private markReady!: () => void;
  private disposed = false;
  private readonly onDisposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.onDisposeEmitter.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    options: WebviewAppOptions,
    log: vscode.LogOutputChannel,
  ) {
    this.router = new MessageRouter({ warn: (m) => log.warn(m), error: (m) => log.error(m) });
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    this.router.onNotification(WebviewReady, () => this.markReady());
    panel.webview.options = webviewPanelOptions(extensionUri);
    this.disposables.push(
      panel.webview.onDidReceiveMessage(async (raw: unknown) => {
        const response = await this.router.dispatch(raw);
        if (response && !this.disposed) await panel.webview.postMessage(response);
      }),
      panel.onDidDispose(() => this.dispose()),
    );
    panel.webview.html = renderWebviewHtml(panel.webview, extensionUri, options.app, options.title, options.hasCss ?? false);
  }

  /** Posts a notification once the app has said it is listening; dropped if the panel is gone by then. */
  async notify<P extends Schema>(type: NotificationType<P>, params: z.infer<P>): Promise<void> {
    await this.ready;
    if (this.disposed) return;
    const message: OutboundMessage = { kind: 'notification', method: type.method, params: type.params.parse(params) };
    await this.panel.webview.postMessage(message);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.markReady();
    this.onDisposeEmitter.fire();
    this.onDisposeEmitter.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}
