import type Koa from 'koa';
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import type { AppContext, AppRouter, AppState } from './types';

/**
 * Puts the routers on the app, in their order, with what answers 405, 501 and OPTIONS for
 * them. With the same methods on every router (what their allowedMethods() answer 501 for),
 * one allowedMethods() around all of them answers as one per router did: they all read the same
 * ctx.matched (every router's matches, one array) and status after the routers ran, the
 * innermost first and the others only while the status was still 404, so the outermost one's
 * answer was the answer. (It now also runs after an answer of the first router, whose routes
 * all have the request's method and are not OPTIONS, so it changes nothing there.) And a router
 * none of whose routes can match the path is skipped (routesByPrefix). On a request to an API
 * route this is one middleware and one router's matching instead of eight of each
 * (docs/decisions/0066-the-auth-path-s-per-request.md, "The auth path's per-request cost"); test/routing.test.ts compares the
 * answers with the one-pair-per-router wiring.
 */
export function mountRouters(app: Koa<AppState, AppContext>, routers: AppRouter[]): void {
  if (routers.length > 0 && sameMethods(routers)) {
    app.use(routers[0]!.allowedMethods());
    for (const router of routers) app.use(routesByPrefix(router));
    return;
  }
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
}

/** Whether every router implements the same methods. */
function sameMethods(routers: AppRouter[]): boolean {
  const first = routers[0]!.methods.join(',');
  return routers.every((router) => router.methods.join(',') === first);
}

/** Where a route path stops being literal text (path-to-regexp's parameters, wildcards, groups). */
const NOT_LITERAL = /[:*?+(){}[\]!\\]/;

/**
 * The literal beginnings of a router's routes (lower case: routes match case-insensitively), or
 * undefined when one cannot be known (a RegExp route, a case-sensitive, host-bound or
 * `routerPath` router), in which case the router is always asked.
 */
export function routePrefixes(router: AppRouter): string[] | undefined {
  const opts = router.opts;
  if (opts.sensitive || opts.host !== undefined || opts.routerPath !== undefined) return undefined;
  const prefixes: string[] = [];
  for (const layer of router.stack) {
    if (layer.methods.length === 0) continue; // middleware: runs only with a route of the router
    if (typeof layer.path !== 'string') return undefined;
    const cut = layer.path.search(NOT_LITERAL);
    prefixes.push((cut === -1 ? layer.path : layer.path.slice(0, cut)).toLowerCase());
  }
  return prefixes;
}

/**
 * The router's routes(), skipped for a request whose path begins with none of its routes'
 * literal beginnings: such a request matches none of its routes, so the router would only have
 * added its middleware layers to ctx.matched (they carry no method: allowedMethods() reads
 * nothing from them, only that ctx.matched is set) and called the next one. The health, docs and
 * asset routers stand before every API router: without this each request to an API route ran
 * their matching (ctx.host, a regular expression per route) first.
 */
export function routesByPrefix(router: AppRouter): Middleware<AppState, AppContext> {
  rememberMatches(router);
  composeOnce(router);
  const routes = router.routes() as unknown as Middleware<AppState, AppContext>;
  // Worked out again when the router gains a route after being mounted.
  let layers = -1;
  let prefixes: string[] | undefined;
  const dispatch: Middleware<AppState, AppContext> = (ctx, next) => {
    if (router.stack.length !== layers) {
      layers = router.stack.length;
      prefixes = routePrefixes(router);
    }
    if (!prefixes) return routes(ctx, next);
    // The path the router matches (its _getRequestPath): none for CONNECT's `host:port`.
    const path = ctx.newRouterPath || ctx.path || ctx.routerPath || '';
    for (const prefix of prefixes) if (mayStartWith(path, prefix)) return routes(ctx, next);
    ctx.matched ??= [];
    return next();
  };
  // Marked as @koa/router marks its own dispatch, so what reads an app's routes from its
  // middleware (tests/deploy/ingress-paths.test.ts) still finds them.
  return Object.assign(dispatch, { router });
}

/**
 * False only when `text` surely does not begin with `prefix` (lower case ASCII) as a route's
 * case-insensitive expression compares them; a non-ASCII character is left to the router.
 */
export function mayStartWith(text: string, prefix: string): boolean {
  if (text.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    let c = text.charCodeAt(i);
    if (c > 0x7e) return true;
    if (c >= 0x41 && c <= 0x5a) c += 0x20; // A-Z
    if (c !== prefix.charCodeAt(i)) return false;
  }
  return true;
}

/** Method and path pairs whose match a router keeps at most (paths with ids are unbounded). */
const MAX_REMEMBERED_MATCHES = 2_000;

/**
 * The router's `match(path, method)` (a regular expression per layer, in order) answered once
 * per method and path: the answer depends on nothing else while the router's layers stay (it is
 * worked out again when the router gains a layer). Each call gets its own `path` array, which
 * the router hands to the request as `ctx.matched` and later routers append to.
 */
export function rememberMatches(router: AppRouter): void {
  const match = router.match.bind(router);
  const answers = new Map<string, ReturnType<AppRouter['match']>>();
  let layers = router.stack.length;
  router.match = (path, method) => {
    if (router.stack.length !== layers) {
      layers = router.stack.length;
      answers.clear();
    }
    const key = `${method} ${path}`;
    let answer = answers.get(key);
    if (!answer) {
      if (answers.size >= MAX_REMEMBERED_MATCHES) answers.clear();
      answers.set(key, (answer = match(path, method)));
    }
    return { path: [...answer.path], pathAndMethod: answer.pathAndMethod, route: answer.route };
  };
}

/** @koa/router's private `_buildMiddlewareChain` (untyped in its declarations). */
type ChainBuilder = (
  layers: ReturnType<AppRouter['match']>['pathAndMethod'],
  requestPath: string,
) => Middleware<AppState, AppContext>[];

/** Whether `value` is a function, as @koa/router's chain builder is (its declarations leave it untyped). */
function isChainBuilder(value: unknown): value is ChainBuilder {
  return typeof value === 'function';
}

/**
 * The chain a matched route runs, built and composed once per remembered match (see
 * rememberMatches) instead of on every request. @koa/router builds it from the match's layers
 * and the request path — a closure per layer that sets ctx.params and the like from that path,
 * then the layers' middleware — and hands it to koa-compose, which flattens the array each time.
 * A remembered answer is of one method and path and hands out the same layers array every time,
 * and a composed chain keeps no state between calls, so the chain kept for that array serves
 * every request; @koa/router's own compose of it is then of one function. A match that is not
 * remembered (a new array each time) is built each time; a `router.param()` (which adds
 * middleware to existing layers) forgets every chain.
 */
export function composeOnce(router: AppRouter): void {
  const own: unknown = router['_buildMiddlewareChain'];
  // A private of the pinned version: a release without it fails every service's start and test.
  if (!isChainBuilder(own))
    throw new Error('@koa/router has no _buildMiddlewareChain: composeOnce needs updating');
  const build = own.bind(router);
  let chains = new WeakMap<object, ReturnType<ChainBuilder>>();
  router['_buildMiddlewareChain'] = ((layers, requestPath) => {
    let chain = chains.get(layers);
    if (!chain) chains.set(layers, (chain = [compose(build(layers, requestPath))]));
    return chain;
  }) satisfies ChainBuilder;
  const param = router.param.bind(router);
  router.param = (name, handler) => {
    chains = new WeakMap();
    return param(name, handler);
  };
}
