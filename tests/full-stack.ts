// The whole service in one test file's process: both APIs served on ports of their own, the
// generation worker (render-content and generate) and the credit-service settlement consumer,
// all on a queue prefix of the file's own so other files' jobs never reach these workers.
// `startBackground` alone is the worker and the settlement consumer, for files that serve the
// APIs their own way.
import type { Worker } from 'bullmq';
import type { Config } from '@catalogue/config';
import { closeWorkers, type QueueName } from '@catalogue/queue';
import { WHITE_LABEL_TOKEN_HEADER } from '@catalogue/http';
import { expectMatchesContract, serveServiceForTests, testConfig } from '@catalogue/testing';
import { createApp as createCatalogueApp } from '../services/catalogue-api/src/app';
import {
  buildDeps as buildCatalogueDeps,
  closeDeps as closeCatalogueDeps,
} from '../services/catalogue-api/src/deps';
import {
  buildDeps as buildCreditDeps,
  closeDeps as closeCreditDeps,
  type Deps as CreditDeps,
} from '../services/credit-service/src/deps';
import { startWorkers as startSettlement } from '../services/credit-service/src/workers';
import {
  buildDeps as buildWorkerDeps,
  closeDeps as closeWorkerDeps,
  type Deps as WorkerDeps,
} from '../services/generation-worker/src/deps';
import { startWorkers as startGeneration } from '../services/generation-worker/src/handlers';
import { createApp } from '../services/white-label-api/src/app';
import { buildDeps, closeDeps } from '../services/white-label-api/src/deps';

/** The generation worker and the credit-service settlement consumer, running in this process. */
export interface Background {
  worker: WorkerDeps;
  credit: CreditDeps;
  /** Closes the workers, then both services' dependencies. */
  close(): Promise<void>;
}

/**
 * Starts the generation worker on `queues` (default: every queue it consumes) and the
 * credit-service settlement consumer, both configured by `config`.
 */
export function startBackground(config: Config, queues?: readonly QueueName[]): Background {
  const worker = buildWorkerDeps(config);
  const credit = buildCreditDeps(config);
  const workers: Worker[] = [...startGeneration(worker, queues), ...startSettlement(credit)];
  return {
    worker,
    credit,
    async close() {
      await closeWorkers(workers);
      await closeWorkerDeps(worker);
      await closeCreditDeps(credit);
    },
  };
}

/**
 * Registers the file's beforeAll/afterAll; generation uses the builtin provider. `overrides`
 * (read in beforeAll) configure every part, e.g. a private Redis topology.
 */
export function useFullStack(queuePrefix: string, overrides: () => Record<string, string> = () => ({})) {
  const wl = serveServiceForTests({ buildDeps, createApp, closeDeps }, () => ({
    ...overrides(),
    QUEUE_PREFIX: queuePrefix,
  }));
  const catalogue = serveServiceForTests(
    { buildDeps: buildCatalogueDeps, createApp: createCatalogueApp, closeDeps: closeCatalogueDeps },
    () => ({ ...overrides(), QUEUE_PREFIX: queuePrefix }),
  );
  let background: Background;

  beforeAll(() => {
    const config = testConfig({ ...overrides(), QUEUE_PREFIX: queuePrefix, GENERATION_PROVIDER: 'builtin' });
    background = startBackground(config, ['render-content', 'generate']);
  });
  afterAll(() => background.close());
  return {
    wl,
    catalogue,
    get worker() {
      return background.worker;
    },
  };
}

/** An answer of {@link shopCallers}: the status and the parsed JSON body. */
export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers by path
  body: any;
}

/**
 * One eshop's two clients of the whole stack: `host` calls the white-label API as the eshop's
 * admin page does (token and Origin, paths under /api/v3/white-label), `backOffice` the catalogue
 * API with its bearer token.
 */
export function shopCallers(
  urls: { wl: string; catalogue: string },
  made: { whiteLabelToken: string; apiToken: string },
  origin: string,
) {
  const send = async (
    url: string,
    headers: Record<string, string>,
    method: string,
    path: string,
    body?: unknown,
  ) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { ...headers, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = { status: res.status, body: (await res.json()) as Answer['body'] };
    // Every success answer of a shop's calls matches docs/openapi.yaml.
    if (res.ok) expectMatchesContract(method, path, res.status, answer.body, res.headers.get('content-type'));
    return answer;
  };
  return {
    host: (method: string, path: string, body?: unknown): Promise<Answer> =>
      send(
        urls.wl,
        { [WHITE_LABEL_TOKEN_HEADER]: made.whiteLabelToken, Origin: origin },
        method,
        `/api/v3/white-label${path}`,
        body,
      ),
    backOffice: (method: string, path: string, body?: unknown): Promise<Answer> =>
      send(urls.catalogue, { Authorization: `Bearer ${made.apiToken}` }, method, path, body),
  };
}
