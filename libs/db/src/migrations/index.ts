import type { Knex } from 'knex';
import * as tenantCore from './20261121000100_tenant_core';
import * as creditAccounts from './20261121000200_credit_accounts';
import * as creditPrices from './20261121000300_credit_prices';

export interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

/** Every migration in the order it applies. Append only; never edit a landed one. */
export const migrations: Migration[] = [
  { name: '20261121000100_tenant_core', ...tenantCore },
  { name: '20261121000200_credit_accounts', ...creditAccounts },
  { name: '20261121000300_credit_prices', ...creditPrices },
];
