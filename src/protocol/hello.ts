// The connection-check webview: the smallest round trip through the protocol, and the pattern later
// webviews (example editor, dataset diff, prompt commit) follow.
import * as z from 'zod/mini';
import { defineNotification, defineReady, defineRequest } from './messages';

export const ConnectionInfo = z.strictObject({
  endpoint: z.string(),
  signedIn: z.boolean(),
  source: z.enum(['secretStorage', 'environment', 'none']),
});
export type ConnectionInfo = z.infer<typeof ConnectionInfo>;

/** The app's state: the connection the extension would use. */
export const HelloReady = defineReady('hello', ConnectionInfo);

/** Webview asks the host to echo a greeting and report the connection it would use. */
export const Ping = defineRequest(
  'hello/ping',
  z.strictObject({ message: z.string().check(z.trim(), z.minLength(1, 'Type a message first.'), z.maxLength(200, 'Keep the message under 200 characters.')) }),
  z.strictObject({ reply: z.string(), connection: ConnectionInfo, receivedAt: z.string() }),
);

/** Host pushes the connection state whenever it changes (sign in/out, settings). */
export const ConnectionChanged = defineNotification('hello/connectionChanged', ConnectionInfo);
