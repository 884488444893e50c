import type { ServiceModule } from '@catalogue/http';
import { createApp } from './app';
import { buildDeps, closeDeps, type Deps } from './deps';

/** The white-label-api process: its deps from a configuration, its app on them, their closing. */
export const whiteLabelApi: ServiceModule<Deps> = { buildDeps, createApp, closeDeps };
