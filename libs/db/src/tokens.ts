import { createHash, randomBytes } from 'node:crypto';

export type TokenKind = 'api' | 'white-label';

const PREFIX: Record<TokenKind, string> = { api: 'cat_', 'white-label': 'wl_' };
/** How many leading characters of a token are kept in clear to tell tokens apart. */
export const TOKEN_PREFIX_LENGTH = 12;

export interface IssuedToken {
  token: string;
  hash: string;
  prefix: string;
}

/** A new random token (256 bits), its SHA-256 hash for storage and its display prefix. */
export function issueToken(kind: TokenKind): IssuedToken {
  const token = PREFIX[kind] + randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token), prefix: token.slice(0, TOKEN_PREFIX_LENGTH) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
