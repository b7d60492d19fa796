// OAuth for `langsmith login` profiles: the authorization server's metadata (RFC 8414, where the official clients
// find the token endpoint), the token endpoint with the refresh_token grant (RFC 6749 §6), and — this server's own
// switch, as there is no browser login here — a route that issues a token pair to the caller of an API key.
// Errors of the token endpoints are OAuth's `{"error", "error_description"}`, not LangSmith's `{"detail"}`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { jsonBody, route } from '../route';

const WELL_KNOWN = '/.well-known/oauth-authorization-server';

/** The issuer is this server as the caller reached it: the metadata must name the URL it was asked at. */
function issuerOf(req: FastifyRequest): string {
  return `${req.protocol}://${req.headers.host ?? req.host}`;
}

function oauthError(reply: FastifyReply, status: number, error: string, description: string) {
  reply.code(status).header('cache-control', 'no-store');
  return { error, error_description: description };
}

/** The parameters of a token request: form-encoded as RFC 6749 says, or JSON. */
function tokenParams(raw: unknown): Record<string, string> {
  if (Buffer.isBuffer(raw)) raw = raw.toString('utf8');
  if (typeof raw === 'string' && !raw.trim().startsWith('{')) return Object.fromEntries(new URLSearchParams(raw));
  let value: unknown;
  try {
    value = jsonBody(raw);
  } catch {
    return {};
  }
  const out: Record<string, string> = {};
  if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

export function registerOAuth(app: FastifyInstance, ctx: Ctx) {
  const open = { public: true };
  route(app, 'GET', WELL_KNOWN, { config: open }, ({ req }) => {
    const issuer = issuerOf(req);
    return {
      issuer,
      token_endpoint: `${issuer}/oauth/token`,
      device_authorization_endpoint: `${issuer}/oauth/device/code`,
      grant_types_supported: ['refresh_token'],
      token_endpoint_auth_methods_supported: ['none'],
      response_types_supported: [],
    };
  });

  route(app, 'POST', '/oauth/token', { config: open }, ({ req, reply }) => {
    const p = tokenParams(req.body);
    reply.header('cache-control', 'no-store');
    if (!p['grant_type']) return oauthError(reply, 400, 'invalid_request', 'grant_type is missing');
    if (p['grant_type'] !== 'refresh_token') return oauthError(reply, 400, 'unsupported_grant_type', `this server grants refresh_token only, not ${p['grant_type'].slice(0, 60)}`);
    if (!p['refresh_token']) return oauthError(reply, 400, 'invalid_request', 'refresh_token is missing');
    const issued = ctx.oauth.exchange(p['refresh_token']);
    if (!issued) return oauthError(reply, 400, 'invalid_grant', 'the refresh token is unknown, was used already, or this server was restarted since it was issued');
    return issued;
  });

  // The device login of `langsmith login` needs a browser sign-in this server does not have.
  route(app, 'POST', '/oauth/device/code', { config: open }, ({ reply }) =>
    oauthError(reply, 400, 'unsupported_grant_type', 'this local server has no browser login: POST /__local/oauth/tokens with an API key issues a token pair'),
  );

  route(
    app,
    'POST',
    '/__local/oauth/tokens',
    { config: { noFaults: true }, body: z.strictObject({ expires_in: z.number().int().min(-86_400).max(31_536_000).optional() }) },
    ({ body, user }) => ctx.oauth.issue(user, body.expires_in),
  );
}
