// The host side of one webview panel: builds the page, routes and validates every inbound message, knows whether
// the app is listening, and disposes everything with the panel.
import '../common/zodSetup';
import * as vscode from 'vscode';
import type * as z from 'zod/mini';
import type { NotificationType, OutboundMessage, Schema } from '../protocol/messages';
import { MessageRouter } from '../protocol/router';
import { renderWebviewHtml, webviewRoot } from './html';

export interface WebviewAppOptions {
  /** The app's bundle name: dist/webviews/<app>.js */
  app: string;
  title: string;
  hasCss?: boolean;
}

export function webviewPanelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  // No retainContextWhenHidden: a hidden panel's page is rebuilt when shown, and its app asks for its state again.
  return { enableScripts: true, enableFindWidget: true, localResourceRoots: [webviewRoot(extensionUri)] };
}

export class WebviewHost implements vscode.Disposable {
  readonly router: MessageRouter;
  private readonly disposables: vscode.Disposable[] = [];
  /**
   * Whether the page is loaded and listening: from its ready request until it is hidden (VS Code then drops the
   * page) or closed. Notifications are posted only while it listens; a page that loads again asks for the
   * whole state, so nothing it missed meanwhile is lost.
   */
  private listening = false;
  private disposed = false;
  private readonly aborter = new AbortController();
  private readonly onDisposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.onDisposeEmitter.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    options: WebviewAppOptions,
    log: vscode.LogOutputChannel,
  ) {
    this.router = new MessageRouter({ warn: (m) => log.warn(m), error: (m) => log.error(m) });
    panel.webview.options = webviewPanelOptions(extensionUri);
    this.disposables.push(
      panel.webview.onDidReceiveMessage(async (raw: unknown) => {
        const response = await this.router.dispatch(raw);
        if (response && !this.disposed) await panel.webview.postMessage(response);
      }),
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.listening = false;
      }),
      panel.onDidDispose(() => this.dispose()),
    );
    panel.webview.html = renderWebviewHtml(panel.webview, extensionUri, options.app, options.title, options.hasCss ?? false);
  }

  /** Fires when the panel closes: for work the host does on the panel's behalf outside a request. */
  get signal(): AbortSignal {
    return this.aborter.signal;
  }

  /** The app asked for its state: it is listening from now on. */
  markListening(): void {
    this.listening = true;
  }

  /** Posts a notification if the page is listening; otherwise its next ready request carries the news. */
  async notify<P extends Schema>(type: NotificationType<P>, params: z.infer<P>): Promise<boolean> {
    if (this.disposed || !this.listening) return false;
    const message: OutboundMessage = { kind: 'notification', method: type.method, params: type.params.parse(params) };
    return this.panel.webview.postMessage(message);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.listening = false;
    this.router.dispose();
    this.aborter.abort();
    this.onDisposeEmitter.fire();
    this.onDisposeEmitter.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}
