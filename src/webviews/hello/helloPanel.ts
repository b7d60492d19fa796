// The connection-check panel: the smallest app on the panel frame (one instance, restored after a reload).
import * as vscode from 'vscode';
import { ConnectionChanged, HelloReady, Ping, type ConnectionInfo } from '../../protocol/hello';
import type { PanelApp } from '../panels';
import { isSignedIn } from '../../auth/connection';

type HelloKey = 'hello';

export const helloApp: PanelApp<HelloKey, typeof HelloReady.result.shape.state> = {
  ready: HelloReady,
  // One panel with nothing to tell apart: any saved state restores it.
  parseKey: () => 'hello',
  keyId: () => 'hello',
  title: () => vscode.l10n.t('LangSmith: Connection Check'),
  open({ host, services }) {
    const connection = async (): Promise<ConnectionInfo> => {
      const c = await services.clients.connection.current();
      return { endpoint: c.endpoint, signedIn: isSignedIn(c), source: c.keySource };
    };
    host.router.onRequest(Ping, async ({ message }) => ({
      reply: vscode.l10n.t('The extension host received: {0}', message),
      connection: await connection(),
      receivedAt: new Date().toISOString(),
    }));
    const sub = services.onDidChangeConnection(async () => void host.notify(ConnectionChanged, await connection()));
    return { state: connection, dispose: () => sub.dispose() };
  },
};
