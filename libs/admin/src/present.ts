import type { CreditAccount, Eshop, LedgerEntry, TokenInfo } from '@catalogue/db';
import type { EshopDetails } from './admin.service';

/** JSON shapes the CLI prints: snake_case like the APIs, tokens only by prefix. */
export function presentEshop(eshop: Eshop) {
  return {
    id: eshop.id,
    name: eshop.name,
    languages: eshop.languages,
    enable_site_link: eshop.enableSiteLink,
    enable_rich_snippet: eshop.enableRichSnippet,
    review_required: eshop.reviewRequired,
    licence_valid_until: eshop.licenceValidUntil,
    // null: the configured RATE_LIMIT_* defaults apply.
    rate_limit_per_minute: eshop.rateLimitPerMinute,
    // What its pages do with a text their language lacks, and the language `default` is in.
    content_fallback: eshop.contentFallback,
    default_language: eshop.defaultLanguage,
    // `draft`: the editor's writes wait until published (docs/decisions/0080-drafts-and-publishing.md, "Drafts and publishing").
    publish_mode: eshop.publishMode,
    created_at: eshop.createdAt.toISOString(),
    updated_at: eshop.updatedAt.toISOString(),
  };
}

export function presentToken(token: TokenInfo) {
  return {
    kind: token.kind,
    prefix: token.prefix,
    created_at: token.createdAt.toISOString(),
    revoked_at: token.revokedAt?.toISOString() ?? null,
  };
}

export function presentCredits(account: CreditAccount) {
  return { balance: account.balance, reserved: account.reserved, remaining: account.remaining };
}

export function presentLedger(entry: LedgerEntry) {
  return {
    id: entry.id,
    kind: entry.kind,
    amount: entry.amount,
    reserved_delta: entry.reservedDelta,
    job_id: entry.jobId,
    reason: entry.reason,
    created_at: entry.createdAt.toISOString(),
  };
}

export function presentDetails(details: EshopDetails) {
  return {
    ...presentEshop(details.eshop),
    origins: details.origins,
    tokens: details.tokens.map(presentToken),
    credits: presentCredits(details.credits),
    // null: the configured CONTENT_REVISIONS_KEEP applies.
    content_revisions_keep: details.contentRevisionsKeep,
  };
}
