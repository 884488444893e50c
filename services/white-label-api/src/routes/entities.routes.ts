import { eshopOf, guard, idempotent } from '@catalogue/http';
import { entityParams } from '../schemas/common.schema';
import {
  entitiesResponse,
  entityHtmlResponse,
  entityRegisteredResponse,
  listEntitiesQuery,
  registerEntityBody,
  registerEntityMessages,
} from '../schemas/entities.schema';
import { entityHtml, listEntities, registerEntity } from '../services/entities.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

/** 201 tells a host that this call created the entity; a re-registration is a plain 200. */
function answerOf({ entity, created }: Awaited<ReturnType<typeof registerEntity>>) {
  return {
    status: created ? 201 : 200,
    body: { data: entity, message: created ? 'Entity created' : 'Entity updated' },
  };
}

export const registerEntityRoute = guard({
  operationId: 'registerEntity',
  statuses: { 409: 'IdempotencyConflict', 422: 'IdempotentUnprocessable' },
  body: registerEntityBody,
  messages: registerEntityMessages,
  response: { 200: entityRegisteredResponse, 201: entityRegisteredResponse },
});
export const listEntitiesRoute = guard({
  operationId: 'listEntities',
  query: listEntitiesQuery,
  response: { 200: entitiesResponse },
});
export const getEntityHtmlRoute = guard({
  operationId: 'getEntityHtml',
  statuses: { 404: 'WlEntityNotFound' },
  params: entityParams,
  response: { 200: entityHtmlResponse },
});

export function entitiesRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);

  router.post('/register-entity', idempotent(deps), registerEntityRoute, async (ctx) => {
    const { body } = ctx.state.input;
    const recorder = ctx.state.idempotency;
    const result = await registerEntity(
      deps.db,
      eshopOf(ctx).id,
      body,
      // Behind idempotent() with a key: the answer commits with the registration.
      recorder &&
        ((trx, registered) => {
          const answer = answerOf(registered);
          return recorder.record(trx, answer.status, answer.body);
        }),
    );
    const answer = answerOf(result);
    ctx.status = answer.status;
    ctx.body = answer.body;
  });

  router.get('/entity', listEntitiesRoute, async (ctx) => {
    const { query } = ctx.state.input;
    ctx.body = await listEntities(deps.db, eshopOf(ctx).id, query);
  });

  router.get('/entity/:entity_id/type/:entity_type/html', getEntityHtmlRoute, async (ctx) => {
    const { params } = ctx.state.input;
    ctx.body = await entityHtml(deps.db, eshopOf(ctx), params.entity_type, params.entity_id);
  });

  return router;
}
