import { Type } from '@sinclair/typebox';
import { ALL_SCOPES, Body, Envelope, Name, Nullable, StringEnum, Timestamp } from '../shared/index.js';

export const ApiKey = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    prefix: Type.String({ description: 'first characters of the key, to recognise it' }),
    scopes: Type.Array(Type.String()),
    createdAt: Timestamp,
    revokedAt: Nullable(Timestamp),
  },
  { title: 'ApiKey' },
);

export const CreatedApiKey = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    key: Type.String({ description: 'shown only in this response' }),
    scopes: Type.Array(Type.String()),
    createdAt: Timestamp,
  },
  { title: 'ApiKeyCreated' },
);

export const CreateApiKeyBody = Body({
  name: Name(100),
  scopes: Type.Array(StringEnum(ALL_SCOPES), { minItems: 1, maxItems: ALL_SCOPES.length, uniqueItems: true }),
});

export const ApiKeyEnvelope = Envelope(CreatedApiKey);
export const ApiKeyListEnvelope = Envelope(Type.Array(ApiKey));
