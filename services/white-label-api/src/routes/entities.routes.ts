import { eshopOf, idempotent, validate } from '@catalogue/http';
import { entityParams } from '../schemas/common.schema';
import { listEntitiesQuery, registerEntityBody, registerEntityMessages } from '../schemas/entities.schema';
import { entityHtml, listEntities, registerEntity } from '../services/entities.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

/** 201 tells a host that this call created the entity; a re-registration is a plain 200. */
function answerOf({ entity, created }: Awaited<ReturnType<typeof registerEntity>>) {
  return {
    status: created ? 201 : 200,
    body: { data: entity, message: created ? 'Entity created' : 'Entity updated' },
  };
}

export function entitiesRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);

  router.post(
    '/register-entity',
    idempotent(deps),
    validate({ body: registerEntityBody }, { messages: registerEntityMessages }),
    async (ctx) => {
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
    },
  );

  router.get('/entity', validate({ query: listEntitiesQuery }), async (ctx) => {
    const { query } = ctx.state.input;
    ctx.body = await listEntities(deps.db, eshopOf(ctx).id, query);
  });

  router.get('/entity/:entity_id/type/:entity_type/html', validate({ params: entityParams }), async (ctx) => {
    const { params } = ctx.state.input;
    ctx.body = await entityHtml(deps.db, eshopOf(ctx), params.entity_type, params.entity_id);
  });

  return router;
}
