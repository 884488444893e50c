import {
  type CatalogueEntityType,
  CONTENT_LANGUAGES,
  type EntityStatus,
  type EventType,
  isLanguage,
  isRecord,
  type Language,
} from '@catalogue/config';
import {
  catalogueRepository,
  contentRevisionsRepository,
  type CreditAccount,
  creditsRepository,
  type Eshop,
  type EshopInput,
  eshopsRepository,
  hashToken,
  issueToken,
  type Knex,
  type LedgerEntry,
  normaliseOrigin,
  originsRepository,
  TOKEN_PREFIX_LENGTH,
  type TokenInfo,
  type TokenKind,
  tokensRepository,
} from '@catalogue/db';
import {
  cancelBatch,
  getBatch,
  listBatches,
  pauseBatch,
  resumeBatch,
  type BatchDeps,
  type BatchView,
} from '@catalogue/generation';
import {
  enableWebhook,
  listWebhooks,
  presentWebhook,
  redeliver,
  registerWebhook,
  removeWebhook,
  rotateWebhookSecret,
  WebhookError,
  type EgressPolicy,
} from '@catalogue/webhooks';

/** A mistake in what the operator asked for; the CLI prints it and exits non-zero. */
export class AdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminError';
  }
}

export interface EshopDetails {
  eshop: Eshop;
  origins: string[];
  tokens: TokenInfo[];
  credits: CreditAccount;
  /** Content revisions kept per entity for this eshop (null: CONTENT_REVISIONS_KEEP). */
  contentRevisionsKeep: number | null;
}

/** `default` is always active (lists return it when no `lang` is asked for). */
export function parseLanguages(list: string): Language[] {
  const codes = list
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const unknown = codes.filter((c) => !isLanguage(c));
  if (unknown.length) {
    throw new AdminError(
      `unknown language code(s): ${unknown.join(', ')} (known: ${CONTENT_LANGUAGES.join(', ')})`,
    );
  }
  const wanted = new Set<string>(['default', ...codes]);
  return CONTENT_LANGUAGES.filter((code) => wanted.has(code));
}

export function parseOrigin(value: string): string {
  const origin = normaliseOrigin(value);
  if (!origin) {
    throw new AdminError(
      `not an origin: "${value}" (expected scheme://host[:port], e.g. https://admin.example.com)`,
    );
  }
  return origin;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function parseDay(value: string): string {
  if (
    !DAY.test(value) ||
    Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ||
    new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value
  ) {
    throw new AdminError(`not a date: "${value}" (expected YYYY-MM-DD)`);
  }
  return value;
}

/** Ids are Postgres integers; credits are kept well inside exact JavaScript numbers. */
export const MAX_ID = 2_147_483_647;
export const MAX_CREDITS = 1_000_000_000_000;

export function parsePositiveInt(value: string, what: string, max = MAX_ID): number {
  if (!/^\d+$/.test(value) || Number(value) <= 0 || Number(value) > max) {
    throw new AdminError(`${what} must be a whole number from 1 to ${max} (got "${value}")`);
  }
  return Number(value);
}

export interface CreateEshopInput extends EshopInput {
  origins: string[];
  credits: number;
}

export interface CreatedEshop {
  eshop: Eshop;
  apiToken: string;
  whiteLabelToken: string;
}

export interface AdminOptions {
  /** Where webhook endpoints may point (the API's rule: WEBHOOK_ALLOW_PRIVATE); public only by default. */
  webhookEgress?: EgressPolicy;
  /**
   * Told after a committed change to what the APIs' auth caches keep (tokens, an eshop and its
   * rate limit, origins), naming the table; the CLI publishes it on Redis so every replica
   * forgets at once (libs/http auth-cache.ts). Without it the caches expire (AUTH_CACHE_TTL_MS).
   */
  authChanged?: (table: AuthTable) => Promise<void>;
  /**
   * What a bulk generation's resume needs to let the batch go on at once (a step in the
   * `generate` queue); the other batch commands use only the database. Without it a resumed
   * batch goes on at the sweeper's next look.
   */
  batches?: () => Omit<BatchDeps, 'db'>;
}

/**
 * The tables whose rows the APIs' auth caches keep (`all`: an operator's flush after changing
 * them by SQL, which tells nobody).
 */
export type AuthTable = 'eshops' | 'api_tokens' | 'white_label_tokens' | 'allowed_origins' | 'all';

/** The rules' refusals of libs/webhooks as the operator's mistakes. */
async function webhookCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof WebhookError) throw new AdminError(err.message);
    throw err;
  }
}

/** The rules' refusals (404 unknown batch, 409 ended) as the operator's mistakes. */
async function batchCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    // The APIs' refusals carry their status (libs/http HttpError); a 4xx is the operator's.
    if (isRecord(err) && typeof err.status === 'number' && err.status < 500) {
      throw new AdminError(String(err.message));
    }
    throw err;
  }
}

/**
 * Without Redis (`AdminOptions.batches`): a resume commits and its step is left to the sweeper;
 * the queue is never reached because the enqueue fails at once.
 */
const offlineBatchDeps: Omit<BatchDeps, 'db'> = {
  queues: new Proxy({} as BatchDeps['queues'], {
    get: () => {
      throw new Error('no queue connection');
    },
  }),
  logger: { warn: () => undefined } as unknown as BatchDeps['logger'],
  maxResearchUrls: 0,
};

export function adminService(db: Knex, options: AdminOptions = {}) {
  const webhookEgress = options.webhookEgress ?? {};
  const authChanged = options.authChanged ?? (() => Promise.resolve());
  const tokenTable = (kind: TokenKind): AuthTable => (kind === 'api' ? 'api_tokens' : 'white_label_tokens');
  async function requireEshop(trx: Knex | Knex.Transaction, id: number): Promise<Eshop> {
    const eshop = await eshopsRepository.findById(trx, id);
    if (!eshop) throw new AdminError(`eshop ${id} not found`);
    return eshop;
  }

  return {
    /** Registers a webhook endpoint of the eshop, checked as the API checks it; shows its secret. */
    async addWebhook(eshopId: number, url: string, eventTypes: EventType[]) {
      await requireEshop(db, eshopId);
      const { endpoint, secret } = await webhookCall(() =>
        registerWebhook({ db, egress: webhookEgress }, eshopId, { url, eventTypes }),
      );
      return { ...presentWebhook(endpoint), secret };
    },

    async listWebhooks(eshopId: number) {
      await requireEshop(db, eshopId);
      return (await listWebhooks(db, eshopId)).map(presentWebhook);
    },

    async removeWebhook(eshopId: number, id: number) {
      await webhookCall(() => removeWebhook(db, eshopId, id));
      return { eshop_id: eshopId, id, removed: true };
    },

    async enableWebhook(eshopId: number, id: number) {
      return presentWebhook(await webhookCall(() => enableWebhook(db, eshopId, id)));
    },

    /** A new secret (printed once); the old one stays valid for the overlap window. */
    async rotateWebhookSecret(eshopId: number, id: number) {
      const rotated = await webhookCall(() => rotateWebhookSecret(db, eshopId, id));
      return {
        ...presentWebhook(rotated.endpoint),
        secret: rotated.secret,
        previous_secret_expires_at: rotated.previousSecretExpiresAt,
      };
    },

    async redeliverWebhook(eshopId: number, id: number, fromSeq: number, toSeq: number) {
      const queued = await webhookCall(() => redeliver(db, eshopId, id, fromSeq, toSeq));
      return { redelivery_id: queued.redeliveryId, from_seq: queued.fromSeq, to_seq: queued.toSeq };
    },

    /** Creates the eshop with one token of each kind, its origins and credits, all or nothing. */
    async createEshop(input: CreateEshopInput): Promise<CreatedEshop> {
      return db.transaction(async (trx) => {
        const eshop = await eshopsRepository.create(trx, input);
        const api = issueToken('api');
        const whiteLabel = issueToken('white-label');
        await tokensRepository.insert(trx, eshop.id, 'api', api);
        await tokensRepository.insert(trx, eshop.id, 'white-label', whiteLabel);
        for (const origin of input.origins) await originsRepository.add(trx, eshop.id, origin);
        if (input.credits > 0) await creditsRepository.topUp(trx, eshop.id, input.credits, 'initial credits');
        return { eshop, apiToken: api.token, whiteLabelToken: whiteLabel.token };
      });
    },

    /** Every API replica forgets what it keeps of tokens, eshops and origins. */
    async flushAuthCaches(): Promise<void> {
      await authChanged('all');
    },

    async showEshop(id: number): Promise<EshopDetails> {
      const eshop = await requireEshop(db, id);
      return {
        eshop,
        origins: await originsRepository.list(db, id),
        tokens: await tokensRepository.listForEshop(db, id),
        credits: await creditsRepository.getAccount(db, id),
        contentRevisionsKeep: await contentRevisionsRepository.keepOf(db, id),
      };
    },

    /** Sets (null: back to CONTENT_REVISIONS_KEEP) how many content revisions per entity the eshop keeps. */
    async setRevisionsKeep(id: number, keep: number | null): Promise<EshopDetails> {
      await requireEshop(db, id);
      await contentRevisionsRepository.setKeep(db, id, keep);
      await authChanged('eshops');
      return this.showEshop(id);
    },

    listEshops: () => eshopsRepository.list(db),

    async updateEshop(id: number, patch: Partial<EshopInput>): Promise<EshopDetails> {
      await requireEshop(db, id);
      await eshopsRepository.update(db, id, patch);
      // The rate limit, languages and content fallbacks travel with the cached eshop.
      await authChanged('eshops');
      return this.showEshop(id);
    },

    async createToken(eshopId: number, kind: TokenKind): Promise<{ token: string; info: TokenInfo }> {
      await requireEshop(db, eshopId);
      const issued = issueToken(kind);
      const info = await tokensRepository.insert(db, eshopId, kind, issued);
      return { token: issued.token, info };
    },

    /**
     * Revokes the one active token that starts with `prefix` (its shown prefix, or the whole
     * token when it leaked); refuses ambiguity.
     */
    async revokeToken(eshopId: number, prefix: string): Promise<TokenInfo> {
      if (prefix.length < 6) throw new AdminError('give at least the first 6 characters of the token');
      const revoked = await db.transaction(async (trx) => {
        await requireEshop(trx, eshopId);
        const matches =
          prefix.length > TOKEN_PREFIX_LENGTH
            ? await tokensRepository.findActiveByHash(trx, eshopId, hashToken(prefix))
            : await tokensRepository.findActiveByPrefix(trx, eshopId, prefix);
        if (matches.length === 0)
          throw new AdminError(`no active token of eshop ${eshopId} starts with "${prefix}"`);
        if (matches.length > 1) {
          throw new AdminError(
            `"${prefix}" matches ${matches.length} active tokens (${matches.map((m) => m.prefix).join(', ')}); give more characters`,
          );
        }
        const token = matches[0]!;
        await tokensRepository.revoke(trx, eshopId, token.kind, token.id);
        return { ...token, revokedAt: new Date() };
      });
      await authChanged(tokenTable(revoked.kind));
      return revoked;
    },

    async addOrigin(eshopId: number, origin: string): Promise<string[]> {
      await requireEshop(db, eshopId);
      await originsRepository.add(db, eshopId, origin);
      // The caches also keep refusals of an origin.
      await authChanged('allowed_origins');
      return originsRepository.list(db, eshopId);
    },

    async removeOrigin(eshopId: number, origin: string): Promise<string[]> {
      await requireEshop(db, eshopId);
      if (!(await originsRepository.remove(db, eshopId, origin))) {
        throw new AdminError(`origin ${origin} is not allowed for eshop ${eshopId}`);
      }
      await authChanged('allowed_origins');
      return originsRepository.list(db, eshopId);
    },

    async topUp(eshopId: number, amount: number, reason: string | null): Promise<CreditAccount> {
      return db.transaction(async (trx) => {
        await requireEshop(trx, eshopId);
        return creditsRepository.topUp(trx, eshopId, amount, reason);
      });
    },

    /** Sets (null: clears) the balance below which the eshop's settlements write `credits.low`. */
    async setCreditAlert(eshopId: number, threshold: number | null): Promise<number | null> {
      await requireEshop(db, eshopId);
      await creditsRepository.setLowBalanceThreshold(db, eshopId, threshold);
      return creditsRepository.lowBalanceThreshold(db, eshopId);
    },

    /** Sets an item's content status (staff: review -> ready; support: any status). */
    async setItemStatus(
      eshopId: number,
      type: CatalogueEntityType,
      externalId: string,
      status: EntityStatus,
    ) {
      await requireEshop(db, eshopId);
      if (!(await catalogueRepository.setStatus(db, type, eshopId, externalId, status))) {
        throw new AdminError(`${type} ${externalId} of eshop ${eshopId} not found`);
      }
      return { eshop_id: eshopId, type, external_id: externalId, status };
    },

    /** Bulk generations, as both APIs answer them (libs/generation): one, or the newest 50. */
    async batches(eshopId: number, batchId?: number): Promise<BatchView | { batches: BatchView[] }> {
      await requireEshop(db, eshopId);
      if (batchId === undefined) return listBatches(db, eshopId);
      return batchCall(() => getBatch(db, eshopId, batchId));
    },

    /** Pauses, resumes or cancels a bulk generation with the APIs' rules. */
    async actOnBatch(
      eshopId: number,
      batchId: number,
      action: 'pause' | 'resume' | 'cancel',
    ): Promise<BatchView> {
      await requireEshop(db, eshopId);
      const deps: BatchDeps = { db, ...(options.batches?.() ?? offlineBatchDeps) };
      const act = { pause: pauseBatch, resume: resumeBatch, cancel: cancelBatch }[action];
      return batchCall(() => act(deps, eshopId, batchId));
    },

    async credits(
      eshopId: number,
      ledgerLimit: number,
    ): Promise<{ account: CreditAccount; ledger: LedgerEntry[] }> {
      await requireEshop(db, eshopId);
      return {
        account: await creditsRepository.getAccount(db, eshopId),
        ledger: await creditsRepository.ledger(db, eshopId, ledgerLimit),
      };
    },
  };
}

export type AdminService = ReturnType<typeof adminService>;
