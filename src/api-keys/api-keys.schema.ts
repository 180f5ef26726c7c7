import { Type } from '@sinclair/typebox';
import { ALL_SCOPES, Body, CreatedAt, Described, Envelope, Name, Nullable, RecordId, StringEnum, Timestamp } from '../shared/index.js';

const KeyName = Type.String({ description: 'what the key is for, as "ERP sync"' });
const Scopes = Type.Array(Type.String(), { description: 'what the key may do, as "products:read" (resource:read or resource:write)' });

export const ApiKey = Type.Object(
  {
    id: RecordId,
    name: KeyName,
    prefix: Type.String({ description: 'first characters of the key, to recognise it' }),
    scopes: Scopes,
    createdAt: CreatedAt,
    revokedAt: Nullable(Described(Timestamp, 'when the key was revoked (it authenticates no more); null: in use')),
    lastUsedAt: Nullable(
      Described(
        Timestamp,
        'when a request last used the key (to the minute: each server process records it at most once a minute); null: never used',
      ),
    ),
  },
  { title: 'ApiKey', description: 'a credential for a program, with the scopes it grants (the key itself is never shown again)' },
);

export const CreatedApiKey = Type.Object(
  {
    id: RecordId,
    name: KeyName,
    key: Nullable(
      Type.String({
        description: 'shown only in this response: null when the response is the replay of a retry with the same Idempotency-Key',
      }),
    ),
    scopes: Scopes,
    createdAt: CreatedAt,
  },
  { title: 'ApiKeyCreated', description: 'the key just created, with its secret (shown this once)' },
);

export const CreateApiKeyBody = Body({
  name: Described(Name(100), 'what the key is for, 1 to 100 characters'),
  scopes: Type.Array(StringEnum(ALL_SCOPES), {
    minItems: 1,
    maxItems: ALL_SCOPES.length,
    uniqueItems: true,
    description: 'what the key may do: one or more scopes, each once',
  }),
});

export const ApiKeyEnvelope = Envelope(CreatedApiKey);
export const ApiKeyListEnvelope = Envelope(Type.Array(ApiKey, { description: "the store's API keys, revoked ones included" }));
