/**
 * The path prefixes this service serves to browsers and hosts, besides /docs: what the Helm
 * chart's Ingress routes to it (tests/deploy/ingress-paths.test.ts compares the two, and that
 * every route of the app falls under one of them). The embedded editor needs all of them:
 * the API, the content stylesheet, its own bundle, design previews and the price list.
 */
export const PUBLIC_PATH_PREFIXES = [
  '/api/v3',
  '/content/v1',
  '/editor/v1',
  '/design-preview/v1',
  '/public/credit',
] as const;
