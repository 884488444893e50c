import type { ServiceModule } from '@catalogue/http';
import { createApp } from './app';
import { buildDeps, closeDeps, type Deps } from './deps';

/** The catalogue-api process: its deps from a configuration, its app on them, their closing. */
export const catalogueApi: ServiceModule<Deps> = { buildDeps, createApp, closeDeps };
