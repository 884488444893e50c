import { eshopOf, idempotent, inputOf, validate } from '@catalogue/http';
import { createFavouriteBody, favouriteParams } from '../schemas/favourites.schema';
import {
  createFavourite,
  deleteFavourite,
  getFavourite,
  listFavourites,
  type CreateFavouriteInput,
} from '../services/favourites.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

type FavouritePath = { widget_favourite_id: number };

export function favouritesRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);

  router.get('/widget-favourite', async (ctx) => {
    ctx.body = await listFavourites(deps.db, eshopOf(ctx).id);
  });

  router.post('/widget-favourite', idempotent(deps), validate({ body: createFavouriteBody }), async (ctx) => {
    const { body } = inputOf<unknown, unknown, CreateFavouriteInput>(ctx);
    ctx.status = 201;
    ctx.body = await createFavourite(deps.db, eshopOf(ctx).id, body);
  });

  router.get('/widget-favourite/:widget_favourite_id', validate({ params: favouriteParams }), async (ctx) => {
    const { params } = inputOf<FavouritePath>(ctx);
    ctx.body = await getFavourite(deps.db, eshopOf(ctx).id, params.widget_favourite_id);
  });

  router.delete(
    '/widget-favourite/:widget_favourite_id',
    validate({ params: favouriteParams }),
    async (ctx) => {
      const { params } = inputOf<FavouritePath>(ctx);
      ctx.body = await deleteFavourite(deps.db, eshopOf(ctx).id, params.widget_favourite_id);
    },
  );

  return router;
}
