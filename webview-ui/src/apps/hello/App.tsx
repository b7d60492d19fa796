import { useState } from 'react';
import { ConnectionChanged, Ping, type ConnectionInfo } from '../../../../src/protocol/hello';
import { useAppState, useDraft, useNotification, useRequest } from '../../common/app';
import { Badge, Banner, Button, Divider, ProgressRing, TextField } from '../../common/components';

export function App() {
  const [connection, setConnection] = useAppState<ConnectionInfo>();
  // The draft message survives a reload; server data is always asked for again.
  const [message, setMessage] = useDraft('message', 'Hello from the webview');
  const [reply, setReply] = useState<string>();
  const [error, setError] = useState<string>();
  const ping = useRequest(Ping);

  useNotification(ConnectionChanged, (c) => setConnection(() => c));

  async function send() {
    setError(undefined);
    const result = await ping.run({ message });
    if (result.ok) {
      setReply(result.value.reply);
      setConnection(() => result.value.connection);
    } else if (result.error.code !== 'cancelled') {
      setReply(undefined);
      setError(result.error.message);
    }
  }

  return (
    <main className="lsw-page">
      <h2>LangSmith Workbench</h2>
      <p>This panel checks the round trip between the webview and the extension host.</p>
      <section aria-label="Connection">
        <p>
          Endpoint <code data-testid="endpoint">{connection.endpoint}</code>{' '}
          <Badge data-testid="signed-in" tone={connection.signedIn ? 'ok' : 'warning'}>
            {connection.signedIn ? `signed in (${connection.source === 'environment' ? 'environment' : 'stored key'})` : 'not signed in'}
          </Badge>
        </p>
      </section>
      <Divider />
      <div className="lsw-row">
        <TextField className="lsw-grow" data-testid="message" value={message} onInput={(e) => setMessage((e.target as HTMLInputElement).value)}>
          Message
        </TextField>
        <Button data-testid="send" onClick={() => void send()} disabled={ping.pending}>
          Send to extension
        </Button>
        {ping.pending && <ProgressRing />}
      </div>
      {reply !== undefined && (
        <p data-testid="reply" role="status">
          {reply}
        </p>
      )}
      {error !== undefined && (
        <Banner tone="error" data-testid="error">
          {error}
        </Banner>
      )}
    </main>
  );
}
