import { NotFoundError, ValidationError, type FieldErrors } from '@catalogue/http';
import { CONTENT_LANGUAGES, isRecord } from '@catalogue/config';
import { safeHref, safeSrc, sanitizeHtml, wireExtension, type v3 } from '@catalogue/content';
import {
  favouritesRepository,
  widgetCatalogueRepository,
  type Knex,
  type WidgetFavourite,
} from '@catalogue/db';
import { invalidTextErrors } from '../schemas/valid-text.schema';

export interface CreateFavouriteInput {
  name: string;
  widget_id: number;
  children: Array<Omit<v3.FavouriteElement, 'value'> & { value: Record<string, string> | [] }>;
}

function favouriteView(favourite: WidgetFavourite): v3.FavouriteView {
  return {
    id: favourite.id,
    name: favourite.name,
    widget_id: favourite.widgetId,
    // `[]` for no attributes, never `{}` (favourites stored before this rule may hold `{}`).
    children: (favourite.children as v3.FavouriteElement[]).map((element) => ({
      ...element,
      extension: wireExtension(element.extension),
    })),
    created_at: favourite.createdAt,
    updated_at: favourite.updatedAt,
  };
}

const LANGUAGE_SET: ReadonlySet<string> = new Set(CONTENT_LANGUAGES);
const URL_CHECKS: Readonly<Record<string, (value: unknown) => string | null>> = {
  src: safeSrc,
  href: safeHref,
};

/**
 * URL attributes must be absolute http(s) (`href` also mailto) URLs, the rule the renderer applies;
 * refusing them here tells the host at once instead of storing a link that would never render.
 */
function checkAttributes(errors: FieldErrors, path: string, attributes: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(attributes)) {
    const check = URL_CHECKS[name];
    if (!check) continue;
    // A string, or a language map of strings (the schema's two shapes of an attribute).
    const values: [string, unknown][] =
      typeof value === 'string'
        ? [[name, value]]
        : isRecord(value)
          ? Object.entries(value).map(([lang, v]) => [`${name}.${lang}`, v])
          : [];
    for (const [key, url] of values) {
      if (check(url) === null)
        (errors[`${path}.${key}`] ??= []).push(`The ${path}.${key} field must be a valid URL.`);
    }
  }
}

function checkExtension(
  errors: FieldErrors,
  path: string,
  extension: v3.FavouriteElement['extension'],
): void {
  if (Array.isArray(extension)) return;
  const attributes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(extension)) {
    if (!LANGUAGE_SET.has(key)) attributes[key] = value;
    else if (isRecord(value)) checkAttributes(errors, `${path}.${key}`, value);
  }
  checkAttributes(errors, path, attributes);
}

/** Every element must hang under the widget's top level (parent 0) through elements of the list. */
function checkTree(errors: FieldErrors, children: CreateFavouriteInput['children']): void {
  const parents = new Map<number, number>();
  children.forEach((element, index) => {
    if (parents.has(element.id))
      (errors[`children.${index}.id`] ??= []).push(`The children.${index}.id field has a duplicate value.`);
    else parents.set(element.id, element.parent_id);
  });
  children.forEach((element, index) => {
    let current = element.parent_id;
    for (let steps = 0; current !== 0; steps += 1) {
      const next = parents.get(current);
      if (next === undefined || current === element.id || steps > children.length) {
        (errors[`children.${index}.parent_id`] ??= []).push(
          `The selected children.${index}.parent_id is invalid.`,
        );
        return;
      }
      current = next;
    }
  });
}

/** What is stored: only the element fields, every value sanitised like content values. */
function storedElement(element: CreateFavouriteInput['children'][number]): v3.FavouriteElement {
  const value = Array.isArray(element.value) ? {} : element.value;
  return {
    id: element.id,
    parent_id: element.parent_id,
    child_id: element.child_id,
    class: element.class,
    is_editable: element.is_editable,
    tag: element.tag,
    value: Object.fromEntries(Object.entries(value).map(([lang, html]) => [lang, sanitizeHtml(html)])),
    extension: wireExtension(element.extension),
    // A favourite saved from a widget still to fill must not bring the samples in unmarked.
    ...(element.sample !== undefined && element.sample.length > 0 && { sample: element.sample }),
  };
}

export async function createFavourite(
  db: Knex,
  eshopId: number,
  input: CreateFavouriteInput,
  /** Called in the transaction that creates the favourite, with the answer (Idempotency-Key). */
  recordOutcome?: (trx: Knex, answer: v3.Data<v3.FavouriteView>) => Promise<void>,
): Promise<v3.Data<v3.FavouriteView>> {
  const errors = invalidTextErrors(input);
  input.children.forEach((element, index) =>
    checkExtension(errors, `children.${index}.extension`, element.extension),
  );
  checkTree(errors, input.children);
  if (!(await widgetCatalogueRepository.find(db, input.widget_id))) {
    errors.widget_id = ['The selected widget_id is invalid.'];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return db.transaction(async (trx) => {
    const favourite = await favouritesRepository.create(trx, eshopId, {
      name: input.name,
      widgetId: input.widget_id,
      children: input.children.map(storedElement),
    });
    const answer = { data: favouriteView(favourite) };
    // The Idempotency-Key's outcome commits with the favourite: a retry never makes a second.
    await recordOutcome?.(trx, answer);
    return answer;
  });
}

export async function listFavourites(db: Knex, eshopId: number): Promise<v3.Data<v3.FavouriteView[]>> {
  return { data: (await favouritesRepository.list(db, eshopId)).map(favouriteView) };
}

/** Another eshop's favourite is not found, exactly like one that does not exist. */
export async function getFavourite(
  db: Knex,
  eshopId: number,
  id: number,
): Promise<v3.Data<v3.FavouriteView>> {
  const favourite = await favouritesRepository.find(db, eshopId, id);
  if (!favourite) throw new NotFoundError('Widget favourite not found');
  return { data: favouriteView(favourite) };
}

export async function deleteFavourite(
  db: Knex,
  eshopId: number,
  id: number,
): Promise<{ data: { id: number }; message: string }> {
  if (!(await favouritesRepository.remove(db, eshopId, id)))
    throw new NotFoundError('Widget favourite not found');
  return { data: { id }, message: 'Widget favourite deleted' };
}
