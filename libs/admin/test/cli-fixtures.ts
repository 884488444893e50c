// Shared arrangement of the admin CLI tests (split by command group): the CLI run in-process
// against the test database, and readers of what the commands stored.
import { createHash, randomBytes } from 'node:crypto';
import { cliHarness, type CliResult } from './cli-harness';

export const harness = cliHarness();
export const { cli } = harness;

/** The JSON a successful command printed (and checks it succeeded cleanly). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the JSON shapes are asserted by each test
export function json(result: CliResult): any {
  expect(result).toMatchObject({ code: 0, err: '' });
  expect(result.out.endsWith('\n')).toBe(true);
  return JSON.parse(result.out);
}

/** A failed command: the exit code, one error line on err, nothing on out. */
export function expectFailure(result: CliResult, code: number, message: string | RegExp): void {
  expect(result.code).toBe(code);
  expect(result.out).toBe('');
  expect(result.err.startsWith('error: ')).toBe(true);
  expect(result.err).toMatch(message);
}

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
export const uniqueName = (label: string) => `${label} ${process.pid}-${randomBytes(4).toString('hex')}`;
/** An id no eshop of the test run has (the largest int4). */
export const MISSING_ID = '2147483647';

export interface StoredEshop {
  id: number;
  name: string;
  languages: string[];
  enable_site_link: boolean;
  enable_rich_snippet: boolean;
  review_required: boolean;
  licence: string | null;
}

export function storedEshop(id: number): Promise<StoredEshop | undefined> {
  return harness
    .db('eshops')
    .select(
      'id',
      'name',
      'languages',
      'enable_site_link',
      'enable_rich_snippet',
      'review_required',
      harness.db.raw(`to_char(licence_valid_until, 'YYYY-MM-DD') as licence`),
    )
    .where({ id })
    .first<StoredEshop | undefined>();
}

export async function eshopsNamed(name: string): Promise<number[]> {
  const rows = await harness.db('eshops').select<{ id: number }[]>('id').where({ name });
  return rows.map((r) => r.id);
}

export async function storedOrigins(eshopId: number): Promise<string[]> {
  const rows = await harness
    .db('allowed_origins')
    .select<{ origin: string }[]>('origin')
    .where({ eshop_id: eshopId })
    .orderBy('origin');
  return rows.map((r) => r.origin);
}

export interface StoredToken {
  id: number;
  token_hash: string;
  token_prefix: string;
  revoked_at: Date | null;
}

export function storedTokens(
  table: 'api_tokens' | 'white_label_tokens',
  eshopId: number,
): Promise<StoredToken[]> {
  return harness
    .db(table)
    .select<StoredToken[]>('id', 'token_hash', 'token_prefix', 'revoked_at')
    .where({ eshop_id: eshopId })
    .orderBy('id');
}

export async function storedBalance(
  eshopId: number,
): Promise<{ balance: number; reserved: number } | undefined> {
  return harness.db('credit_accounts').select('balance', 'reserved').where({ eshop_id: eshopId }).first();
}

export function storedLedger(
  eshopId: number,
): Promise<{ kind: string; amount: number; reason: string | null }[]> {
  return harness
    .db('credit_ledger')
    .select('kind', 'amount', 'reason')
    .where({ eshop_id: eshopId })
    .orderBy('id');
}
