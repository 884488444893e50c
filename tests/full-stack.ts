// The whole service in one test file's process, or the parts of it a file needs: the HTTP
// services (each service's module from its src/service.ts) on ports of their own, and the
// background (the generation worker and the credit-service settlement consumer), all on a queue
// prefix of the file's own so other files' jobs never reach these workers. `useFullStack`
// registers the file's hooks; `startBackground` alone starts the background, for a test that
// starts and stops it itself.
import type { Worker } from 'bullmq';
import type { Config } from '@catalogue/config';
import { closeWorkers, type QueueName } from '@catalogue/queue';
import { WHITE_LABEL_TOKEN_HEADER } from '@catalogue/http';
import {
  contractCaller,
  serveServiceForTests,
  testConfig,
  type ServedService,
  type ServiceModule,
} from '@catalogue/testing';
import { catalogueApi } from '../services/catalogue-api/src/service';
import {
  buildDeps as buildCreditDeps,
  closeDeps as closeCreditDeps,
  type Deps as CreditDeps,
} from '../services/credit-service/src/deps';
import { creditService } from '../services/credit-service/src/service';
import { startWorkers as startSettlement } from '../services/credit-service/src/workers';
import {
  buildDeps as buildWorkerDeps,
  closeDeps as closeWorkerDeps,
  type Deps as WorkerDeps,
} from '../services/generation-worker/src/deps';
import {
  keepRelayScheduled,
  startWorkers as startGeneration,
} from '../services/generation-worker/src/handlers';
import { whiteLabelApi } from '../services/white-label-api/src/service';

/** The HTTP services a stack serves, by the name a test reads each under. */
const SERVICES = { catalogue: catalogueApi, wl: whiteLabelApi, credit: creditService };
export type StackService = keyof typeof SERVICES;
type DepsOf<S extends StackService> = (typeof SERVICES)[S] extends ServiceModule<infer D> ? D : never;

export interface BackgroundOptions {
  /** The generation worker's queues (default: every queue it consumes). */
  queues?: readonly QueueName[];
  /** The credit-service settlement consumer beside it (default: true). */
  settlement?: boolean;
  /**
   * The webhook relay kept on its schedule (keepRelayScheduled) until close, which removes its
   * job scheduler (default: false).
   */
  relay?: boolean;
}

/** The generation worker and the credit-service settlement consumer, running in this process. */
export interface Background {
  worker: WorkerDeps;
  /** The settlement consumer's deps; undefined when it was not started. */
  credit: CreditDeps | undefined;
  /** Ends the relay's schedule, closes the workers, then both services' dependencies. */
  close(): Promise<void>;
}

/** Starts the background, configured by `config`. */
export function startBackground(config: Config, options: BackgroundOptions = {}): Background {
  const worker = buildWorkerDeps(config);
  const credit = options.settlement === false ? undefined : buildCreditDeps(config);
  const workers: Worker[] = [
    ...startGeneration(worker, options.queues),
    ...(credit ? startSettlement(credit) : []),
  ];
  const stopRelay = options.relay ? keepRelayScheduled(worker) : undefined;
  return {
    worker,
    credit,
    async close() {
      if (stopRelay) {
        stopRelay();
        await worker.queues['webhook-relay'].removeJobScheduler('webhook-relay').catch(() => undefined);
      }
      await closeWorkers(workers);
      await closeWorkerDeps(worker);
      if (credit) await closeCreditDeps(credit);
    },
  };
}

type Overrides = Record<string, string> | (() => Record<string, string>);
const read = (overrides: Overrides | undefined) =>
  typeof overrides === 'function' ? overrides() : overrides;

export interface StackOptions<S extends StackService> {
  /** The HTTP services served, in this order (default: `wl` and `catalogue`, the two APIs). */
  serve?: readonly S[];
  /**
   * The configuration of every part over the test's (QUEUE_PREFIX is the stack's), read in
   * beforeAll: a function for what an earlier beforeAll of the file learns (a private Redis'
   * address).
   */
  overrides?: Overrides;
  /**
   * The background, started after the services, on their configuration with the builtin
   * generation provider and its own `overrides` over both (a function as above); false for none
   * (default: the generation worker on render-content and generate, and the settlement consumer).
   */
  background?: false | (BackgroundOptions & { overrides?: Overrides });
}

/** The served services by name, and the background. */
export type Stack<S extends StackService> = { readonly [K in S]: ServedService<DepsOf<K>> } & {
  /** The running background (inside tests and hooks, when the stack has one). */
  readonly background: Background;
  /** The generation worker's deps (`background.worker`). */
  readonly worker: WorkerDeps;
};

/**
 * Registers the file's beforeAll/afterAll for the services of `options.serve` and the
 * background, on `queuePrefix`; everything closes after the file's tests.
 */
export function useFullStack<S extends StackService = 'wl' | 'catalogue'>(
  queuePrefix: string,
  options: StackOptions<S> = {},
): Stack<S> {
  const overrides = (): Record<string, string> => ({ ...read(options.overrides), QUEUE_PREFIX: queuePrefix });
  const names: readonly StackService[] = options.serve ?? ['wl', 'catalogue'];
  const served: Partial<Record<StackService, ServedService<unknown>>> = {};
  for (const name of names)
    served[name] = serveServiceForTests<DepsOf<typeof name>>(SERVICES[name], overrides);

  let background: Background | undefined;
  const backgroundOptions =
    options.background === undefined
      ? { queues: ['render-content', 'generate'] as const }
      : options.background;
  if (backgroundOptions) {
    const { overrides: own, ...parts } = backgroundOptions;
    beforeAll(() => {
      background = startBackground(
        testConfig({ ...overrides(), GENERATION_PROVIDER: 'builtin', ...read(own) }),
        parts,
      );
    });
    afterAll(() => background?.close());
  }
  const running = (): Background => {
    if (!background) throw new Error('the background runs inside tests and hooks of a stack that has one');
    return background;
  };
  return Object.defineProperties(served, {
    background: { get: running },
    worker: { get: () => running().worker },
  }) as Stack<S>;
}

/**
 * One eshop's two callers of the whole stack (`call` of @catalogue/testing: every answer checked
 * against docs/openapi.yaml, its body typed from it): `host` calls the white-label API as the
 * eshop's admin page does (token and Origin, paths under /api/v3/white-label), `backOffice` the
 * catalogue API with its bearer token.
 */
export function shopCallers(
  urls: { wl: string; catalogue: string },
  made: { whiteLabelToken: string; apiToken: string },
  origin: string,
) {
  return {
    host: contractCaller({
      baseUrl: urls.wl,
      prefix: '/api/v3/white-label',
      headers: () => ({ [WHITE_LABEL_TOKEN_HEADER]: made.whiteLabelToken, Origin: origin }),
    }),
    backOffice: contractCaller({
      baseUrl: urls.catalogue,
      headers: () => ({ Authorization: `Bearer ${made.apiToken}` }),
    }),
  };
}
