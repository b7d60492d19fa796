// OAuth access and refresh tokens, as `langsmith login` leaves them in a profile of `~/.langsmith/config.json`:
// an access token is sent as `Authorization: Bearer …` in place of an API key and acts as the key's user; the
// refresh token buys a new pair at the token endpoint (routes/oauth.ts) and is used up by it. Tokens live in
// memory only: a restart forgets them, and a client then has to log in again (its refresh is refused).
import crypto from 'node:crypto';

/** How long an access token lasts unless asked otherwise (seconds). */
export const ACCESS_TOKEN_SECONDS = 3600;

export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

/**
 * Tokens by the HMAC of their text under a secret made at start-up, so that a lookup is a Map lookup on a digest
 * the caller cannot steer (no timing leak of a token), and the tokens themselves are not kept. `User` is whoever a
 * token acts as (the server's context gives its own type), kept as it was given.
 */
export class OAuthTokens<User> {
  private readonly secret = crypto.randomBytes(32);
  private readonly access = new Map<string, { user: User; expiresAt: number }>();
  private readonly refresh = new Map<string, User>();

  private digest(token: string): string {
    return crypto.createHmac('sha256', this.secret).update(token, 'utf8').digest('base64');
  }

  /** A new access and refresh token for `user`; the access token expires after `expiresIn` seconds (≤ 0: already). */
  issue(user: User, expiresIn = ACCESS_TOKEN_SECONDS): IssuedTokens {
    const access = `lsw_at_${crypto.randomBytes(24).toString('base64url')}`;
    const refresh = `lsw_rt_${crypto.randomBytes(24).toString('base64url')}`;
    this.access.set(this.digest(access), { user, expiresAt: Date.now() + expiresIn * 1000 });
    this.refresh.set(this.digest(refresh), user);
    return { access_token: access, refresh_token: refresh, token_type: 'Bearer', expires_in: expiresIn };
  }

  /** The user of a live access token; 'expired' for one that was issued and has run out; undefined otherwise. */
  userOf(token: string): User | 'expired' | undefined {
    const key = this.digest(token);
    const entry = this.access.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.access.delete(key);
      return 'expired';
    }
    return entry.user;
  }

  /** Uses up a refresh token for a new pair; undefined when it is unknown or was used already. */
  exchange(refreshToken: string, expiresIn = ACCESS_TOKEN_SECONDS): IssuedTokens | undefined {
    const key = this.digest(refreshToken);
    const user = this.refresh.get(key);
    if (!user) return undefined;
    this.refresh.delete(key);
    return this.issue(user, expiresIn);
  }
}
