import type { ServiceModule } from '@catalogue/http';
import { createApp } from './app';
import { buildDeps, closeDeps, type Deps } from './deps';

/**
 * The credit-service's HTTP side: its deps from a configuration, its app on them, their closing
 * (the settlement consumer starts from src/workers.ts on the same deps).
 */
export const creditService: ServiceModule<Deps> = { buildDeps, createApp, closeDeps };
