// Shared arrangement of the v2 import tests (split by what they import): the service, the
// render work and stored rows of an eshop, and a minimal product.
import { catalogueService } from './helpers';

/** The service of one test file, with readers of its render work and stored rows. */
export function v2ImportService() {
  const svc = catalogueService();

  /** The render-content work of one eshop, one entry per item, sorted by external id. */
  async function renderJobs(eshopId: number) {
    return (await svc.renderJobs(eshopId)).sort((a, b) => a.external_id.localeCompare(b.external_id));
  }

  /** The stored rows of one eshop, with updated_at at full (microsecond) precision. */
  function rows(table: string, eshopId: number) {
    return svc.deps
      .db(table)
      .select('*', svc.deps.db.raw('updated_at::text as updated_at_text'))
      .where({ eshop_id: eshopId })
      .orderBy('external_id');
  }

  const product = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    name: { default: `Product ${id}` },
    ...extra,
  });

  return { svc, renderJobs, rows, product };
}
