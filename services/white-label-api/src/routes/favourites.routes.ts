import { eshopOf, idempotent, validate } from '@catalogue/http';
import { createFavouriteBody, favouriteParams } from '../schemas/favourites.schema';
import {
  createFavourite,
  deleteFavourite,
  getFavourite,
  listFavourites,
} from '../services/favourites.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

export function favouritesRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);

  router.get('/widget-favourite', async (ctx) => {
    ctx.body = await listFavourites(deps.db, eshopOf(ctx).id);
  });

  router.post('/widget-favourite', idempotent(deps), validate({ body: createFavouriteBody }), async (ctx) => {
    const { body } = ctx.state.input;
    const recorder = ctx.state.idempotency;
    ctx.body = await createFavourite(
      deps.db,
      eshopOf(ctx).id,
      body,
      recorder && ((trx, answer) => recorder.record(trx, 201, answer)),
    );
    ctx.status = 201;
  });

  router.get('/widget-favourite/:widget_favourite_id', validate({ params: favouriteParams }), async (ctx) => {
    const { params } = ctx.state.input;
    ctx.body = await getFavourite(deps.db, eshopOf(ctx).id, params.widget_favourite_id);
  });

  router.delete(
    '/widget-favourite/:widget_favourite_id',
    validate({ params: favouriteParams }),
    async (ctx) => {
      const { params } = ctx.state.input;
      ctx.body = await deleteFavourite(deps.db, eshopOf(ctx).id, params.widget_favourite_id);
    },
  );

  return router;
}
