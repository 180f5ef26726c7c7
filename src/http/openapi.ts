import type { SwaggerOptions } from '@fastify/swagger';
import type { Config } from '../config.js';

export function openApiOptions(config: Config): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Storefront Commerce API',
        version: '1.0.0',
        description: 'Catalog, customers and orders of many sealed-off stores. See SPEC.md and CONTRACT.md.',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'an access token from POST /auth, or an API key (sfk_…)' },
        },
      },
      security: [{ bearer: [] }],
    },
  };
}
