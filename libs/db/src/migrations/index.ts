import type { Knex } from 'knex';
import * as tenantCore from './20261121000100_tenant_core';
import * as creditAccounts from './20261121000200_credit_accounts';
import * as creditPrices from './20261121000300_credit_prices';
import * as catalogueEntities from './20261121000400_catalogue_entities';
import * as content from './20261121000500_content';
import * as listingBatches from './20261121000600_listing_batches';
import * as designs from './20261121000700_designs';
import * as generationJobs from './20261121000800_generation_jobs';
import * as whiteLabelEntities from './20261122000100_white_label_entities';
import * as tenantReferences from './20261123000100_tenant_references';
import * as eshopRateLimit from './20261123000200_eshop_rate_limit';
import * as idempotencyKeys from './20261123000300_idempotency_keys';
import * as sweepIndexes from './20261123000400_sweep_indexes';
import * as authChangeNotify from './20261125000100_auth_change_notify';
import * as events from './20261125000200_events';
import * as generationReport from './20261125000300_generation_report';
import * as coveringListIndexes from './20261125000400_covering_list_indexes';
import * as webhooks from './20261125000500_webhooks';
import * as creditAlert from './20261125000600_credit_alert';
import * as eventRetention from './20261125000700_event_retention';
import * as productParameterValues from './20261126000100_product_parameter_values';
import * as languageFallback from './20261126000200_language_fallback';
import * as entityDefaultDesign from './20261126000300_entity_default_design';
import * as contentRevisions from './20261126000400_content_revisions';
import * as deliverySettlementState from './20261126000600_delivery_settlement_state';
import * as webhookSecretRotation from './20261126000800_webhook_secret_rotation';
import * as eventTraceContext from './20261127000600_event_trace_context';
import * as tenantScopedKeys from './20261127000900_tenant_scoped_keys';
import * as listJson from './20261128000200_list_json';
import * as contentDrafts from './20261128004700_content_drafts';
import * as researchRefused from './20261129001500_research_refused';
import * as eventNumbersAtCommit from './20261129001600_event_numbers_at_commit';
import * as eventNumbersPerAppend from './20261129030000_event_numbers_per_append';
import * as generationBatches from './20261129020000_generation_batches';
import * as batchItemJobSetNull from './20261129030100_batch_item_job_set_null';
import * as contentSeoPieces from './20261130000100_content_seo_pieces';
import * as listPiecesInTheRow from './20261202000100_list_pieces_in_the_row';

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
  { name: '20261121000400_catalogue_entities', ...catalogueEntities },
  { name: '20261121000500_content', ...content },
  { name: '20261121000600_listing_batches', ...listingBatches },
  { name: '20261121000700_designs', ...designs },
  { name: '20261121000800_generation_jobs', ...generationJobs },
  { name: '20261122000100_white_label_entities', ...whiteLabelEntities },
  { name: '20261123000100_tenant_references', ...tenantReferences },
  { name: '20261123000200_eshop_rate_limit', ...eshopRateLimit },
  { name: '20261123000300_idempotency_keys', ...idempotencyKeys },
  { name: '20261123000400_sweep_indexes', ...sweepIndexes },
  { name: '20261125000100_auth_change_notify', ...authChangeNotify },
  { name: '20261125000200_events', ...events },
  { name: '20261125000300_generation_report', ...generationReport },
  { name: '20261125000400_covering_list_indexes', ...coveringListIndexes },
  { name: '20261125000500_webhooks', ...webhooks },
  { name: '20261125000600_credit_alert', ...creditAlert },
  { name: '20261125000700_event_retention', ...eventRetention },
  { name: '20261126000100_product_parameter_values', ...productParameterValues },
  { name: '20261126000200_language_fallback', ...languageFallback },
  { name: '20261126000300_entity_default_design', ...entityDefaultDesign },
  { name: '20261126000400_content_revisions', ...contentRevisions },
  { name: '20261126000600_delivery_settlement_state', ...deliverySettlementState },
  { name: '20261126000800_webhook_secret_rotation', ...webhookSecretRotation },
  { name: '20261127000600_event_trace_context', ...eventTraceContext },
  { name: '20261127000900_tenant_scoped_keys', ...tenantScopedKeys },
  { name: '20261128000200_list_json', ...listJson },
  { name: '20261128004700_content_drafts', ...contentDrafts },
  { name: '20261129001500_research_refused', ...researchRefused },
  { name: '20261129001600_event_numbers_at_commit', ...eventNumbersAtCommit },
  { name: '20261129020000_generation_batches', ...generationBatches },
  { name: '20261129030000_event_numbers_per_append', ...eventNumbersPerAppend },
  { name: '20261129030100_batch_item_job_set_null', ...batchItemJobSetNull },
  { name: '20261130000100_content_seo_pieces', ...contentSeoPieces },
  { name: '20261202000100_list_pieces_in_the_row', ...listPiecesInTheRow },
];
