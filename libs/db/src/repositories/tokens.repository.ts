import type { Knex } from 'knex';
import type { TableName } from '../tables';
import type { TokenKind } from '../tokens';
import { readEshop, selectEshop, type Eshop } from './eshops.repository';

const TABLE = {
  api: 'api_tokens',
  'white-label': 'white_label_tokens',
} as const satisfies Record<TokenKind, TableName>;
const KINDS: readonly TokenKind[] = ['api', 'white-label'];

export interface TokenInfo {
  id: number;
  kind: TokenKind;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

interface TokenRow {
  id: number;
  token_prefix: string;
  created_at: Date;
  revoked_at: Date | null;
}

const toInfo =
  (kind: TokenKind) =>
  (row: TokenRow): TokenInfo => ({
    id: row.id,
    kind,
    prefix: row.token_prefix,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  });

export const tokensRepository = {
  async insert(
    db: Knex | Knex.Transaction,
    eshopId: number,
    kind: TokenKind,
    token: { hash: string; prefix: string },
  ): Promise<TokenInfo> {
    const [row] = await db(TABLE[kind])
      .insert({ eshop_id: eshopId, token_hash: token.hash, token_prefix: token.prefix })
      .returning(['id', 'token_prefix', 'created_at', 'revoked_at']);
    return toInfo(kind)(row!);
  },

  /** The eshop of an active (not revoked) token, found by the token's hash. */
  async findEshopByTokenHash(
    db: Knex | Knex.Transaction,
    kind: TokenKind,
    hash: string,
  ): Promise<Eshop | undefined> {
    const table = TABLE[kind];
    const row = await selectEshop(db)
      .join(table, `${table}.eshop_id`, 'eshops.id')
      .where(`${table}.token_hash`, hash)
      .whereNull(`${table}.revoked_at`)
      .first();
    return readEshop(row);
  },

  async listForEshop(db: Knex | Knex.Transaction, eshopId: number): Promise<TokenInfo[]> {
    const result: TokenInfo[] = [];
    for (const kind of KINDS) {
      const rows = await db(TABLE[kind])
        .select('id', 'token_prefix', 'created_at', 'revoked_at')
        .where({ eshop_id: eshopId })
        .orderBy('id');
      result.push(...rows.map(toInfo(kind)));
    }
    return result;
  },

  /** Active tokens of the eshop whose display prefix starts with `prefix`. */
  async findActiveByPrefix(
    db: Knex | Knex.Transaction,
    eshopId: number,
    prefix: string,
  ): Promise<TokenInfo[]> {
    const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const result: TokenInfo[] = [];
    for (const kind of KINDS) {
      const rows = await db(TABLE[kind])
        .select('id', 'token_prefix', 'created_at', 'revoked_at')
        .where({ eshop_id: eshopId })
        .whereNull('revoked_at')
        .where('token_prefix', 'like', pattern);
      result.push(...rows.map(toInfo(kind)));
    }
    return result;
  },

  /** The active token of the eshop with this hash (a list, to share findActiveByPrefix's shape). */
  async findActiveByHash(db: Knex | Knex.Transaction, eshopId: number, hash: string): Promise<TokenInfo[]> {
    const result: TokenInfo[] = [];
    for (const kind of KINDS) {
      const rows = await db(TABLE[kind])
        .select('id', 'token_prefix', 'created_at', 'revoked_at')
        .where({ eshop_id: eshopId, token_hash: hash })
        .whereNull('revoked_at');
      result.push(...rows.map(toInfo(kind)));
    }
    return result;
  },

  async revoke(db: Knex | Knex.Transaction, eshopId: number, kind: TokenKind, id: number): Promise<boolean> {
    const changed = await db(TABLE[kind])
      .where({ eshop_id: eshopId, id })
      .whereNull('revoked_at')
      .update({ revoked_at: db.fn.now(6) });
    return changed > 0;
  },
};
