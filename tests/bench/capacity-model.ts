// The capacity model of docs/scaling.md: from the constants bench:capacity measured
// (docs/capacity-constants.json) and a deployment's size, the pods, Postgres and Redis it needs.
// Pure: `npm run capacity` (capacity.ts) prints it, tests/scaling/capacity.test.ts checks it.

/** Load of one unit of work (an imported item, a rendered item, a list request). */
export interface UnitLoad {
  /** CPU of the service's Node process(es). */
  nodeCpuMs: number;
  /** CPU of their Postgres backends. */
  pgCpuMs: number;
  /** CPU of the Redis server. */
  redisCpuMs: number;
  pgStatements: number;
  pgRoundTrips: number;
  /** Bytes both ways between the service and Postgres. */
  pgBytes: number;
  redisCommands: number;
  /** Bytes both ways between everything and Redis. */
  redisBytes: number;
}

export interface Scenario {
  unit: string;
  /** Per replica count (processes of the service): units per second, Node CPU ms per unit. */
  replicas: Record<string, { perSecond: number; cpuMsPerUnit: number }>;
  /** Mean over the replica counts. */
  perUnit: UnitLoad;
}

export interface CapacityConstants {
  measured: {
    at: string;
    command: string;
    settings: string;
    machine: string;
    loadAverage: { before: number[]; after: number[] };
    /** Languages of every measured product (costs scale from this). */
    languages: number;
  };
  import: Scenario;
  render: Scenario;
  list: Scenario;
  redis: {
    /** used_memory of the empty Redis with the services connected. */
    baseBytes: number;
    /** Memory of one waiting render-content job (one import request). */
    bytesPerQueuedJob: number;
    itemsPerJob: number;
    /** Memory of one finished job the queue keeps (removeOnComplete). */
    bytesPerRetainedJob: number;
  };
  storage: {
    /** Database bytes per product with its content, at `measured.languages` languages. */
    bytesPerProduct: number;
  };
}

export interface CapacityInput {
  eshops: number;
  /** Products per eshop. */
  products: number;
  languages: number;
  /** Imported product changes per hour, over all eshops (each is rendered once). */
  importsPerHour: number;
  /** List requests (100 items) per hour over all eshops; default: each eshop reads its catalogue once an hour. */
  listsPerHour?: number;
  /** Share of a core a pod may use on average (headroom for peaks). Default 0.6. */
  utilization?: number;
  /** Minimum pods of each service (availability). Default 2. */
  minPods?: number;
  /** DATABASE_POOL_MAX of each pod. Default 10 (the configuration's default). */
  poolMax?: number;
  /** Minutes of imports Redis must be able to hold while the workers are behind or down. Default 60. */
  backlogMinutes?: number;
  /** Network round trip to Postgres in ms (through a pooler, across hosts). Default 0.5. */
  roundTripMs?: number;
  /** Finished jobs a queue keeps (removeOnComplete count, libs/queue/src/jobs.ts). Default 1000. */
  retainedJobs?: number;
}

export interface CapacityPlan {
  input: Required<CapacityInput>;
  rates: { importItemsPerSecond: number; renderItemsPerSecond: number; listRequestsPerSecond: number };
  catalogueApi: { cores: number; pods: number };
  generationWorker: { cores: number; pods: number };
  postgres: {
    cores: number;
    statementsPerSecond: number;
    roundTripsPerSecond: number;
    megabytesPerSecond: number;
    /** Server connections a transaction pooler needs (PgBouncer default_pool_size). */
    serverConnections: number;
    /** Client connections of all pods at their pool maximum (PgBouncer max_client_conn). */
    clientConnections: number;
    storageGigabytes: number;
  };
  redis: { cores: number; commandsPerSecond: number; megabytesPerSecond: number; memoryMegabytes: number };
  /** Throughput of two processes over twice that of one (1: linear), per scenario. */
  replicaScaling: Record<'import' | 'render' | 'list', number | null>;
}

const MB = 1024 * 1024;

function positiveNumber(name: string, value: number, allowZero = false): number {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new Error(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} number (got ${value})`);
  }
  return value;
}

/** Rate × load per unit, summed over the scenarios, for one field of UnitLoad (per second). */
function total(field: keyof UnitLoad, parts: [number, UnitLoad, number][]): number {
  return parts.reduce((sum, [rate, load, scale]) => sum + rate * load[field] * scale, 0);
}

function scaling(scenario: Scenario): number | null {
  const one = scenario.replicas['1'];
  const two = scenario.replicas['2'];
  return one && two ? Number((two.perSecond / (2 * one.perSecond)).toFixed(2)) : null;
}

const up = (value: number) => Math.ceil(value - 1e-9);

export function capacityPlan(constants: CapacityConstants, raw: CapacityInput): CapacityPlan {
  const input: Required<CapacityInput> = {
    eshops: positiveNumber('eshops', raw.eshops),
    products: positiveNumber('products', raw.products),
    languages: positiveNumber('languages', raw.languages),
    importsPerHour: positiveNumber('imports-per-hour', raw.importsPerHour, true),
    listsPerHour: positiveNumber(
      'lists-per-hour',
      raw.listsPerHour ?? raw.eshops * Math.ceil(raw.products / 100),
      true,
    ),
    utilization: positiveNumber('utilization', raw.utilization ?? 0.6),
    minPods: positiveNumber('min-pods', raw.minPods ?? 2),
    poolMax: positiveNumber('pool-max', raw.poolMax ?? 10),
    backlogMinutes: positiveNumber('backlog-minutes', raw.backlogMinutes ?? 60, true),
    roundTripMs: positiveNumber('round-trip-ms', raw.roundTripMs ?? 0.5, true),
    retainedJobs: positiveNumber('retained-jobs', raw.retainedJobs ?? 1000, true),
  };
  if (input.utilization > 1) throw new Error('utilization must be at most 1');
  // Per-item work (texts, rendered pages, listed bytes) grows with the languages: scaled linearly
  // from the measured count (an assumption of the model, not a measurement).
  const lang = input.languages / constants.measured.languages;
  const importRate = input.importsPerHour / 3600;
  const renderRate = importRate;
  const listRate = input.listsPerHour / 3600;
  const parts: [number, UnitLoad, number][] = [
    [importRate, constants.import.perUnit, lang],
    [renderRate, constants.render.perUnit, lang],
    [listRate, constants.list.perUnit, lang],
  ];
  const cores = (ms: number) => ms / 1000 / input.utilization;
  const pods = (c: number) => Math.max(input.minPods, up(c)); // a Node process uses one core

  const apiCores = cores(
    importRate * constants.import.perUnit.nodeCpuMs * lang +
      listRate * constants.list.perUnit.nodeCpuMs * lang,
  );
  const workerCores = cores(renderRate * constants.render.perUnit.nodeCpuMs * lang);
  const apiPods = pods(apiCores);
  const workerPods = pods(workerCores);
  const pgCpu = total('pgCpuMs', parts);
  const roundTrips = total('pgRoundTrips', parts);
  // Little's law: a server connection is held for its statements' Postgres time and round trips.
  const busyConnections = (pgCpu + roundTrips * input.roundTripMs) / 1000;
  const queuedJobs = (importRate * input.backlogMinutes * 60) / constants.redis.itemsPerJob;
  const round2 = (v: number) => Number(v.toFixed(2));
  return {
    input,
    rates: {
      importItemsPerSecond: round2(importRate),
      renderItemsPerSecond: round2(renderRate),
      listRequestsPerSecond: round2(listRate),
    },
    catalogueApi: { cores: round2(apiCores), pods: apiPods },
    generationWorker: { cores: round2(workerCores), pods: workerPods },
    postgres: {
      cores: round2(cores(pgCpu)),
      statementsPerSecond: round2(total('pgStatements', parts)),
      roundTripsPerSecond: round2(roundTrips),
      megabytesPerSecond: round2(total('pgBytes', parts) / MB),
      serverConnections: Math.max(5, up(busyConnections / input.utilization)),
      clientConnections: (apiPods + workerPods) * input.poolMax,
      storageGigabytes: round2(
        (input.eshops * input.products * constants.storage.bytesPerProduct * lang) / (1024 * MB),
      ),
    },
    redis: {
      cores: round2(cores(total('redisCpuMs', parts))),
      commandsPerSecond: round2(total('redisCommands', parts)),
      megabytesPerSecond: round2(total('redisBytes', parts) / MB),
      memoryMegabytes: round2(
        (constants.redis.baseBytes +
          queuedJobs * constants.redis.bytesPerQueuedJob +
          input.retainedJobs * constants.redis.bytesPerRetainedJob) /
          MB,
      ),
    },
    replicaScaling: {
      import: scaling(constants.import),
      render: scaling(constants.render),
      list: scaling(constants.list),
    },
  };
}

/** The plan as the lines `npm run capacity` prints. */
export function formatPlan(plan: CapacityPlan, constants: CapacityConstants): string {
  const { input: i } = plan;
  const lines = [
    `capacity for ${i.eshops} eshops × ${i.products} products × ${i.languages} languages, ` +
      `${i.importsPerHour} imports/h, ${i.listsPerHour} list requests/h (100 items each)`,
    `constants: ${constants.measured.command} at ${constants.measured.at} (${constants.measured.machine}; ` +
      `load average ${constants.measured.loadAverage.before.join(' ')} before the run)`,
    `assumptions: pods at ${i.utilization * 100}% of a core on average, at least ${i.minPods} pods a service, ` +
      `pool max ${i.poolMax}, ${i.backlogMinutes} min of import backlog in Redis, ${i.roundTripMs} ms Postgres round trip, ` +
      `per-item costs linear in languages (measured at ${constants.measured.languages})`,
    '',
    `rates: ${plan.rates.importItemsPerSecond} imported items/s, ${plan.rates.renderItemsPerSecond} rendered items/s, ` +
      `${plan.rates.listRequestsPerSecond} list requests/s`,
    `catalogue-api:     ${plan.catalogueApi.pods} pods (${plan.catalogueApi.cores} cores of work)`,
    `generation-worker: ${plan.generationWorker.pods} pods (${plan.generationWorker.cores} cores of work)`,
    `postgres: ${plan.postgres.cores} cores, ${plan.postgres.statementsPerSecond} statements/s, ` +
      `${plan.postgres.roundTripsPerSecond} round trips/s, ${plan.postgres.megabytesPerSecond} MB/s, ` +
      `${plan.postgres.storageGigabytes} GB of data`,
    `connections: ${plan.postgres.clientConnections} client connections (pods × pool max: PgBouncer max_client_conn), ` +
      `${plan.postgres.serverConnections} server connections (PgBouncer default_pool_size)`,
    `redis: ${plan.redis.memoryMegabytes} MB, ${plan.redis.commandsPerSecond} commands/s, ` +
      `${plan.redis.megabytesPerSecond} MB/s, ${plan.redis.cores} cores`,
    `two processes vs one (1.00 = linear; measured on ${constants.measured.machine.split(',')[0]}): ` +
      `import ${plan.replicaScaling.import ?? '–'}, render ${plan.replicaScaling.render ?? '–'}, list ${plan.replicaScaling.list ?? '–'}`,
  ];
  return `${lines.join('\n')}\n`;
}
