import { Type } from '@sinclair/typebox';
import type { Tx } from '../db/index.js';
import type { ImportLineOptions } from '../shared/index.js';
import { Body, changesNothing, compileBodyCheck, hashPassword, Password, suppliedColumns, withoutIgnored } from '../shared/index.js';
import { CreateCustomerBody, Customer, type UpdateCustomerInput } from './customers.schema.js';
import { createCustomer, updateCustomer } from './customers.service.js';
import { lockCustomerByUserName, toCustomerOutput } from './customers.sql.js';

// A record as GET returns it is a valid line: no password needed (a new customer then has none until PATCH
// sets one), its read-only names (id, role, timestamps) ignored.
const validateLine = compileBodyCheck(Body({ ...CreateCustomerBody.properties, password: Type.Optional(Password) }), Customer);

// With the `u` flag a surrogate half matches only when it is unpaired.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** A string the lookup may carry to the database (the validation that follows names anything else). */
const usableKey = (value: string) => value.length > 0 && value.length <= 255 && !value.includes('\u0000') && !LONE_SURROGATE.test(value);

/** The line's userName, trimmed as POST stores it, when it is a string fit for the lookup. */
function keyOf(body: unknown): string | undefined {
  const userName = body !== null && typeof body === 'object' ? (body as { userName?: unknown }).userName : undefined;
  return typeof userName === 'string' && usableKey(userName.trim()) ? userName.trim() : undefined;
}

/** The fields PATCH /customers/{id} takes, as the line supplies them. */
const profileOf = (input: UpdateCustomerInput): UpdateCustomerInput =>
  suppliedColumns({
    email: input.email,
    customFields: input.customFields,
    firstName: input.firstName,
    lastName: input.lastName,
    businessName: input.businessName,
    phoneNumber: input.phoneNumber,
    tags: input.tags,
  });

/**
 * One import line of customers (the body POST /customers takes), upserted by `userName` (compared
 * case-insensitively, as its uniqueness is). A new customer is created as POST would create it: its
 * `password`, when given, is hashed (without one the customer has none until PATCH sets one: a migration
 * cannot carry the old platform's passwords), and an `address` becomes its first address. A known customer is updated as PATCH would update it: the profile fields only; `password` and
 * `address` are not applied (validated as POST would, then ignored), so re-importing a file never resets a
 * password nor adds an address twice. A matched line that would change nothing writes nothing.
 */
export async function importCustomerLine(
  trx: Tx,
  storeId: string,
  line: unknown,
  _text: string,
  { handling, afterWork }: ImportLineOptions,
): Promise<'created' | 'updated'> {
  const body = withoutIgnored(line);
  const key = keyOf(body);
  const current = key === undefined ? undefined : await lockCustomerByUserName(trx, storeId, key);
  if (!current) {
    const input = validateLine(body, handling);
    // Memory-hard, so slow; the API hashes before its transaction, an import line has only the batch's.
    const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
    await afterWork.append(trx, storeId, { type: 'customer.created', data: await createCustomer(trx, storeId, input, passwordHash) });
    return 'created';
  }
  const profile = profileOf(validateLine(body, handling));
  if (!changesNothing(profile, toCustomerOutput(current))) {
    await afterWork.append(trx, storeId, { type: 'customer.updated', data: await updateCustomer(trx, storeId, current.id, profile) });
  }
  return 'updated';
}
