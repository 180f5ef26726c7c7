import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler } from 'fastify';

type Validator = ReturnType<FastifySchemaCompiler<unknown>>;
type RouteSchema = Parameters<FastifySchemaCompiler<unknown>>[0];
type SerializerFactory = SerializerSelector.SerializerFactory;
type Serializer = SerializerSelector.Serializer;

/**
 * Every route's validators and response serializers, compiled when first used instead of when the route is
 * registered. Fastify compiles each at registration: Ajv's validator of each body, query and path, and a
 * fast-json-stringify serializer for each declared status of each route, as generated source kept with its code
 * (~3 MB of the idle server's heap at start, most for errors and routes a process never answers: issue 42). What is
 * kept before first use is the route's schema, which Fastify keeps anyway.
 *
 * A schema Ajv or fast-json-stringify cannot compile would now fail at its first request rather than at start:
 * `compileAll()` compiles every pending one (lazy-schemas.test.ts runs it on the whole app).
 */
export interface LazySchemas {
  validatorCompiler: FastifySchemaCompiler<unknown>;
  /** Fastify's `schemaController.compilersFactory.buildSerializer` */
  buildSerializer: SerializerFactory;
  /** how many validators and serializers were compiled, and how many wait for their first use */
  counts(): { compiled: number; pending: number };
  /** compiles every pending one now (a test: every route's schemas compile) */
  compileAll(): void;
}

export function lazySchemas(compileValidator: FastifySchemaCompiler<unknown>): LazySchemas {
  const pending = new Set<() => unknown>();
  let compiled = 0;
  // One compilation per schema, on first use; the thunk leaves `pending` then.
  function once<T>(compile: () => T): () => T {
    let done: T | undefined;
    const get = () => {
      if (done === undefined) {
        done = compile();
        compiled++;
        pending.delete(get);
      }
      return done;
    };
    pending.add(get);
    return get;
  }
  const validatorCompiler: FastifySchemaCompiler<unknown> = (route: RouteSchema) => {
    const get = once(() => compileValidator(route) as Validator & { errors?: unknown; schemaEnv?: unknown });
    const validate = ((data: unknown, context?: unknown) => (get() as (d: unknown, c?: unknown) => unknown)(data, context)) as Validator;
    // Fastify reads these of the function it was given: the errors of the last call, and Ajv's marker that it may
    // pass the parent (so a coerced root value lands on the request), asked before the first call.
    Object.defineProperties(validate, {
      errors: { get: () => get().errors },
      schemaEnv: { get: () => get().schemaEnv },
    });
    return validate;
  };
  const eagerSerializers = SerializerSelector();
  const buildSerializer: SerializerFactory = (externalSchemas, serializerOptions) => {
    const compileSerializer = eagerSerializers(externalSchemas, serializerOptions);
    return (route) => {
      const get = once((): Serializer => compileSerializer(route));
      return (data: unknown) => get()(data);
    };
  };
  return {
    validatorCompiler,
    buildSerializer,
    counts: () => ({ compiled, pending: pending.size }),
    compileAll() {
      for (const get of [...pending]) get();
    },
  };
}
