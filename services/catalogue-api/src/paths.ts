/**
 * The path prefixes this service serves to clients, besides /docs: what the Helm chart's
 * Ingress routes to it (tests/deploy/ingress-paths.test.ts compares the two, and that every
 * route of the app falls under one of them).
 */
export const PUBLIC_PATH_PREFIXES = ['/api/v1', '/api/v2', '/content/v1'] as const;
