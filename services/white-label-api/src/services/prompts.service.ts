import type { v3 } from '@catalogue/content';
import { promptsRepository, type Knex } from '@catalogue/db';

/** Prompts every eshop sees plus the eshop's own, by position; never another eshop's. */
export async function listPrompts(db: Knex, eshopId: number): Promise<v3.Data<v3.PromptView[]>> {
  return { data: await promptsRepository.list(db, eshopId) };
}
