import type { Deps } from '../deps';
import { createDeleteService } from './delete.service';
import { createImportService } from './import.service';
import { createListService } from './list.service';
import { createListingService } from './listing.service';

/** The use cases of the catalogue API, built once from the service's dependencies. */
export function createCatalogueServices(deps: Pick<Deps, 'db' | 'queues' | 'logger'>) {
  return {
    imports: createImportService(deps),
    list: createListService(deps),
    deletes: createDeleteService(deps),
    listing: createListingService(deps),
  };
}

export type CatalogueServices = ReturnType<typeof createCatalogueServices>;
