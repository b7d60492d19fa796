// The connection-check panel: one instance, restored after a reload by its serializer.
import * as vscode from 'vscode';
import { ConnectionChanged, Ping, type ConnectionInfo } from '../protocol/hello';
import { ViewTypes } from './viewTypes';
import { WebviewHost } from './webviewHost';

export interface HelloServices {
  extensionUri: vscode.Uri;
  log: vscode.LogOutputChannel;
  connection(): Promise<ConnectionInfo>;
  onDidChangeConnection: vscode.Event<void>;
}

export class HelloPanel {
  private static current: HelloPanel | undefined;

  static show(services: HelloServices): void {
    if (HelloPanel.current) {
      HelloPanel.current.host.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(ViewTypes.hello, 'LangSmith: Connection Check', vscode.ViewColumn.Active);
    HelloPanel.current = new HelloPanel(panel, services);
  }

  /** A panel VS Code restores after a reload (through the serializer registered at activation). */
  static revive(panel: vscode.WebviewPanel, services: HelloServices): void {
    HelloPanel.current?.host.dispose();
    HelloPanel.current = new HelloPanel(panel, services);
  }

  private readonly host: WebviewHost;

  private constructor(panel: vscode.WebviewPanel, services: HelloServices) {
    this.host = new WebviewHost(panel, services.extensionUri, { app: 'hello', title: 'Connection Check', hasCss: true }, services.log);
    this.host.router.onRequest(Ping, async ({ message }) => ({
      reply: `The extension host received: ${message}`,
      connection: await services.connection(),
      receivedAt: new Date().toISOString(),
    }));
    const pushConnection = async () => this.host.notify(ConnectionChanged, await services.connection());
    const sub = services.onDidChangeConnection(() => void pushConnection());
    this.host.onDidDispose(() => {
      sub.dispose();
      if (HelloPanel.current === this) HelloPanel.current = undefined;
    });
    void pushConnection();
  }
}
