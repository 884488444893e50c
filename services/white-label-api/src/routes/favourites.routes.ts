import { eshopOf, guard, idempotent } from '@catalogue/http';
import {
  createFavouriteBody,
  favouriteDeletedResponse,
  favouriteParams,
  favouriteResponse,
  favouritesResponse,
} from '../schemas/favourites.schema';
import {
  createFavourite,
  deleteFavourite,
  getFavourite,
  listFavourites,
} from '../services/favourites.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

export const listWidgetFavourites = guard({
  operationId: 'listWidgetFavourites',
  response: { 200: favouritesResponse },
});
export const createWidgetFavourite = guard({
  operationId: 'createWidgetFavourite',
  statuses: { 409: 'IdempotencyConflict', 422: true },
  body: createFavouriteBody,
  response: { 201: favouriteResponse },
});
export const getWidgetFavourite = guard({
  operationId: 'getWidgetFavourite',
  statuses: { 404: 'WlFavouriteNotFound' },
  params: favouriteParams,
  response: { 200: favouriteResponse },
});
export const deleteWidgetFavourite = guard({
  operationId: 'deleteWidgetFavourite',
  statuses: { 404: 'WlFavouriteNotFound' },
  params: favouriteParams,
  response: { 200: favouriteDeletedResponse },
});

export function favouritesRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);

  router.get('/widget-favourite', listWidgetFavourites, async (ctx) => {
    ctx.body = await listFavourites(deps.db, eshopOf(ctx).id);
  });

  router.post('/widget-favourite', idempotent(deps), createWidgetFavourite, async (ctx) => {
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

  router.get('/widget-favourite/:widget_favourite_id', getWidgetFavourite, async (ctx) => {
    const { params } = ctx.state.input;
    ctx.body = await getFavourite(deps.db, eshopOf(ctx).id, params.widget_favourite_id);
  });

  router.delete('/widget-favourite/:widget_favourite_id', deleteWidgetFavourite, async (ctx) => {
    const { params } = ctx.state.input;
    ctx.body = await deleteFavourite(deps.db, eshopOf(ctx).id, params.widget_favourite_id);
  });

  return router;
}
