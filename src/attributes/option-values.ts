import type { Tx } from '../db/index.js';
import { noteChange } from '../events/index.js';
import { appendAttributeValues, findListedOptionValues } from './attribute-values.sql.js';
import { getAttribute } from './attributes.service.js';
import { touchAttributes, upsertAttributesByName } from './attributes.sql.js';

/** A product option: its name is an Attribute's, its values are that Attribute's values. */
export interface OptionValues {
  name: string;
  values: string[];
}

/**
 * Per option (in order): value -> AttributeValue id. Values already listed are only read (one
 * statement, the usual case); otherwise the values are upserted onto the option's attribute, and each
 * attribute this creates or whose list of values this changes gets its event (`attribute.created` or
 * `attribute.updated`, the latter with its updatedAt moved), as the product write's derived changes.
 */
export async function optionValueIds(trx: Tx, storeId: string, options: OptionValues[]): Promise<Map<string, string>[]> {
  return (await findListedOptionValues(trx, storeId, options)) ?? upsertOptionValues(trx, storeId, options);
}

async function upsertOptionValues(trx: Tx, storeId: string, options: OptionValues[]): Promise<Map<string, string>[]> {
  const { ids: attributeIds, created } = await upsertAttributesByName(
    trx,
    storeId,
    options.map((option) => option.name),
  );
  const load = (id: string) => () => getAttribute(trx, storeId, id);
  for (const id of created) noteChange(trx, 'attribute.created', id, load(id));
  const result: Map<string, string>[] = [];
  const changed: string[] = [];
  for (const [index, option] of options.entries()) {
    const values = await appendAttributeValues(trx, storeId, attributeIds[index], option.values);
    if (values.changed) changed.push(attributeIds[index]);
    result.push(new Map(option.values.map((value, j) => [value, values.ids[j]])));
  }
  await touchAttributes(trx, storeId, changed, new Date());
  for (const id of changed) noteChange(trx, 'attribute.updated', id, load(id));
  return result;
}
