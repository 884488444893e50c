// @ts-check
/**
 * Which of our packages each library may import: the one table behind the package rules of
 * docs/architecture.md ("Packages and who may import whom", which shows the same lists and is
 * compared with this table by tests/package-rules.test.ts) and behind the ESLint rules
 * (eslint.config.mjs) that refuse every other import, by package name or by relative path,
 * `import type` included. Services may import any library and never another service.
 */
export const LIBRARY_IMPORTS = {
  config: [],
  logger: [],
  egress: [],
  tracing: ['config'],
  db: ['config'],
  content: ['config'],
  queue: ['config', 'logger', 'tracing'],
  credits: ['db'],
  'content-store': ['config', 'content', 'db'],
  webhooks: ['config', 'db', 'egress'],
  http: ['config', 'content', 'db', 'logger', 'queue', 'tracing'],
  generation: ['config', 'content', 'content-store', 'credits', 'db', 'http', 'logger', 'queue'],
  admin: ['config', 'content-store', 'db', 'generation', 'logger', 'queue', 'webhooks'],
  editor: ['content', 'credits'],
  testing: ['admin', 'client', 'config', 'content-store', 'db', 'http', 'logger'],
  client: [],
};

export const SERVICES = ['catalogue-api', 'credit-service', 'generation-worker', 'white-label-api'];

export const LIBS = Object.keys(LIBRARY_IMPORTS);
