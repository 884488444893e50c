export { createKnex, pingDatabase } from './knex';
export type { DatabaseOptions } from './knex';
export {
  migrateLatest,
  rollbackAll,
  ensureDatabase,
  dropDatabase,
  databaseName,
  withDatabase,
} from './migrate';
export { issueToken, hashToken, TOKEN_PREFIX_LENGTH } from './tokens';
export type { TokenKind, IssuedToken } from './tokens';
export { eshopsRepository } from './repositories/eshops.repository';
export type { Eshop, EshopInput } from './repositories/eshops.repository';
export { tokensRepository } from './repositories/tokens.repository';
export type { TokenInfo } from './repositories/tokens.repository';
export { originsRepository } from './repositories/origins.repository';
export { creditsRepository } from './repositories/credits.repository';
export type {
  CreditAccount,
  CreditPrice,
  JobCredits,
  LedgerEntry,
  LedgerKind,
  ReservationResult,
} from './repositories/credits.repository';
export type { Knex } from 'knex';
export { normaliseOrigin } from './origins';
