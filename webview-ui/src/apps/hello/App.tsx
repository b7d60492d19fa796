import { useEffect, useState } from 'react';
import { ConnectionChanged, Ping, type ConnectionInfo } from '../../../../src/protocol/hello';
import { Badge, Button, Divider, ProgressRing, TextField } from '../../common/components';
import { onNotification, request } from '../../common/rpc';
import { vscodeApi } from '../../common/vscode';

/** UI state only: the draft message survives a reload; server data is always asked for again. */
interface DraftState {
  message: string;
}

export function App() {
  const api = vscodeApi<DraftState>();
  const [message, setMessage] = useState(() => api.getState()?.message ?? 'Hello from the webview');
  const [reply, setReply] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [connection, setConnection] = useState<ConnectionInfo>();

  useEffect(() => onNotification(ConnectionChanged, setConnection), []);
  useEffect(() => {
    api.setState({ message });
  }, [api, message]);

  async function send() {
    setBusy(true);
    setError(undefined);
    const result = await request(Ping, { message });
    setBusy(false);
    if (result.ok) {
      setReply(result.value.reply);
      setConnection(result.value.connection);
    } else {
      setReply(undefined);
      setError(result.error.message);
    }
  }

  return (
    <main style={{ padding: '12px 20px', maxWidth: 640 }}>
      <h2>LangSmith Workbench</h2>
      <p>This panel checks the round trip between the webview and the extension host.</p>
      <section aria-label="Connection" style={{ margin: '12px 0' }}>
        {connection ? (
          <p>
            Endpoint <code data-testid="endpoint">{connection.endpoint}</code>{' '}
            <Badge data-testid="signed-in" tone={connection.signedIn ? 'ok' : 'warning'}>{connection.signedIn ? `signed in (${connection.source === 'environment' ? 'environment' : 'stored key'})` : 'not signed in'}</Badge>
          </p>
        ) : (
          <p>Waiting for the extension…</p>
        )}
      </section>
      <Divider />
      <div style={{ display: 'flex', gap: 8, alignItems: 'flex-end', marginTop: 12 }}>
        <TextField
          data-testid="message"
          value={message}
          onInput={(e) => setMessage((e.target as HTMLInputElement).value)}
          style={{ flex: 1 }}
        >
          Message
        </TextField>
        <Button data-testid="send" onClick={() => void send()} disabled={busy}>
          Send to extension
        </Button>
        {busy && <ProgressRing />}
      </div>
      {reply !== undefined && (
        <p data-testid="reply" role="status">
          {reply}
        </p>
      )}
      {error !== undefined && (
        <p data-testid="error" role="alert" style={{ color: 'var(--vscode-errorForeground)' }}>
          {error}
        </p>
      )}
    </main>
  );
}
