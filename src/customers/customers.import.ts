import { Type } from '@sinclair/typebox';
import type { Tx } from '../db/index.js';
import { appendEvents } from '../events/index.js';
import { compileBodyCheck } from '../http/index.js';
import { Body, changesNothing, hashPassword, Password, suppliedColumns, withoutIgnored } from '../shared/index.js';
import { CreateCustomerBody, type UpdateCustomerInput } from './customers.schema.js';
import { createCustomer, updateCustomer } from './customers.service.js';
import { lockCustomerByUserName, toCustomerOutput } from './customers.sql.js';

const validateNew = compileBodyCheck(CreateCustomerBody);
// A record as GET returns it has no password: a line for a customer that exists needs none.
const validateKnown = compileBodyCheck(Body({ ...CreateCustomerBody.properties, password: Type.Optional(Password) }));

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
    firstName: input.firstName,
    lastName: input.lastName,
    businessName: input.businessName,
    phoneNumber: input.phoneNumber,
  });

/**
 * One import line of customers (the body POST /customers takes), upserted by `userName` (compared
 * case-insensitively, as its uniqueness is). A new customer is created as POST would create it: its
 * `password` is required (400 naming it, as POST answers) and hashed, and an `address` becomes its first
 * address. A known customer is updated as PATCH would update it: the profile fields only; `password` and
 * `address` are not applied (validated as POST would, then ignored), so re-importing a file never resets a
 * password nor adds an address twice. A matched line that would change nothing writes nothing.
 */
export async function importCustomerLine(trx: Tx, storeId: string, line: unknown): Promise<'created' | 'updated'> {
  const body = withoutIgnored(line);
  const key = keyOf(body);
  const current = key === undefined ? undefined : await lockCustomerByUserName(trx, storeId, key);
  if (!current) {
    const input = validateNew(body);
    // Memory-hard, so slow; the API hashes before its transaction, an import line has only the batch's.
    const passwordHash = await hashPassword(input.password);
    await appendEvents(trx, storeId, { type: 'customer.created', data: await createCustomer(trx, storeId, input, passwordHash) });
    return 'created';
  }
  const profile = profileOf(validateKnown(body));
  if (!changesNothing(profile, toCustomerOutput(current))) {
    await appendEvents(trx, storeId, { type: 'customer.updated', data: await updateCustomer(trx, storeId, current.id, profile) });
  }
  return 'updated';
}
