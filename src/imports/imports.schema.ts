import { type Static, Type } from '@sinclair/typebox';
import { StringEnum } from '../shared/index.js';
import { IMPORT_RESOURCES } from './handlers.js';

export const ImportQuery = Type.Object({
  resource: StringEnum(IMPORT_RESOURCES, { description: 'what every line of the file is' }),
});
export type ImportQuery = Static<typeof ImportQuery>;

/** Documents the body only: it is streamed to a file by the route's own parser, never validated as JSON. */
export const NdjsonBody = {
  content: {
    'application/x-ndjson': {
      schema: Type.String({
        description:
          'NDJSON: one JSON object per line, each the body POST of the resource takes (blank lines skipped), ' +
          'up to STOREFRONT_IMPORT_MAX_BYTES (default 1 GiB)',
      }),
    },
  },
};
